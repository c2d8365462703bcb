/* test_store.c — the results database: round trips of every field, the key (replace vs. new row), ranking,
 * counts, durability across close and kill -9, two connections on one file, and the errors a user sees for a
 * file that is not ours. Each run works in a fresh temporary directory. */
#include "store.h"
#include "test.h"
#include "util.h"

#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[64];

static const char *path_in_dir(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

/* A row with a distinct value in every field, so a swapped or dropped column shows up. */
static void make_row(vkat_row *r, const char *config, vkat_status status, double median)
{
    memset(r, 0, sizeof *r);
    snprintf(r->device.name, sizeof r->device.name, "llvmpipe (LLVM 15.0.6, 256 bits)");
    snprintf(r->device.vendor, sizeof r->device.vendor, "Mesa");
    r->device.vendor_id = 0x10005;
    r->device.device_id = 0;
    r->device.driver_version = 0x89e08000u; /* above INT32_MAX: must not come back negative */
    snprintf(r->device.driver_version_string, sizeof r->device.driver_version_string, "23.0.3");
    snprintf(r->device.driver_uuid, sizeof r->device.driver_uuid, "6c6c766d-7069-7065-5555-494400000000");
    snprintf(r->device.pipeline_cache_uuid, sizeof r->device.pipeline_cache_uuid,
             "32332e30-2e33-2d31-2b64-656231327531");
    snprintf(r->kernel, sizeof r->kernel, "gemm");
    snprintf(r->template_hash, sizeof r->template_hash, "0123456789abcdef");
    snprintf(r->space_hash, sizeof r->space_hash, "fedcba9876543210");
    snprintf(r->problem, sizeof r->problem, "M=256,N=256,K=256");
    snprintf(r->config, sizeof r->config, "%s", config);
    r->status = status;
    snprintf(r->reason, sizeof r->reason, "%s", status == VKAT_STATUS_OK ? "" : "because 'reasons'");
    r->median_s = median;
    snprintf(r->tensor, sizeof r->tensor, "%s", median > 1e-3 ? "float16,float32" : "");
    r->min_s = median * 0.9;
    r->max_s = median * 1.5;
    r->mad_s = median * 0.01;
    r->samples = 31;
    r->batch = 7;
    r->flops = 2.0 * 256 * 256 * 256;
    r->bytes = 3.0 * 256 * 256 * 4;
    r->tflops = r->flops / median * 1e-12;
    r->gbps = r->bytes / median * 1e-9;
    r->rel_l2 = 1.25e-7;
    r->max_abs = 3.5e-6;
    snprintf(r->spirv_hash, sizeof r->spirv_hash, "00000000deadbeef");
    snprintf(r->pipeline_stats, sizeof r->pipeline_stats, "Register Count=40; Spill Count=0");
}

static int rows_equal(const vkat_row *a, const vkat_row *b)
{
    int ok = 1;
#define S(f) ok &= strcmp(a->f, b->f) == 0
#define N(f) ok &= a->f == b->f
    S(device.name); S(device.vendor); N(device.vendor_id); N(device.device_id); N(device.driver_version);
    S(device.driver_version_string); S(device.driver_uuid); S(device.pipeline_cache_uuid);
    S(kernel); S(template_hash); S(space_hash); S(problem); S(config); N(status); S(reason);
    N(median_s); N(min_s); N(max_s); N(mad_s); N(samples); N(batch); N(flops); N(bytes); N(tflops); N(gbps);
    N(rel_l2); N(max_abs); S(spirv_hash); S(created); N(id); S(pipeline_stats); S(tensor); N(race_bound_s);
#undef S
#undef N
    return ok;
}

static void test_names(void)
{
    for (int i = 0; i < VKAT_STATUS_COUNT; i++)
        CHECK(vkat_status_from_name(vkat_status_name((vkat_status)i)) == i);
    CHECK_STR(vkat_status_name(VKAT_STATUS_COMPILE_ERROR), "compile-error");
    CHECK_STR(vkat_status_name(VKAT_STATUS_DEVICE_LOST), "device-lost");
    CHECK(vkat_status_from_name("bogus") == -1);
    CHECK(vkat_status_from_name(NULL) == -1);

    vkat_device_info info;
    memset(&info, 0, sizeof info);
    snprintf(info.name, sizeof info.name, "Some GPU");
    info.vendor = "NVIDIA";
    info.vendor_id = 0x10de;
    info.device_id = 0x2684;
    info.driver_version = 0x89e08000u;
    snprintf(info.driver_version_string, sizeof info.driver_version_string, "551.86");
    for (int i = 0; i < 16; i++) {
        info.driver_uuid[i] = (uint8_t)(0xA0 + i);
        info.pipeline_cache_uuid[i] = (uint8_t)i;
    }
    vkat_device_key key;
    vkat_device_key_from_info(&info, &key);
    CHECK_STR(key.name, "Some GPU");
    CHECK_STR(key.vendor, "NVIDIA");
    CHECK(key.vendor_id == 0x10de && key.device_id == 0x2684 && key.driver_version == 0x89e08000u);
    CHECK_STR(key.driver_version_string, "551.86");
    CHECK_STR(key.driver_uuid, "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
    CHECK_STR(key.pipeline_cache_uuid, "00010203-0405-0607-0809-0a0b0c0d0e0f");
}

static void test_roundtrip_and_ranking(void)
{
    char path[128];
    path_in_dir("results.db", path, sizeof path);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_store_open(path, &st, &err) == VKAT_OK, "%s", err.message);
    if (!st)
        return;
    CHECK(access(path, F_OK) == 0);

    /* Every field survives, including a driver version above INT32_MAX and a NaN (not measured). */
    vkat_row a, got;
    make_row(&a, "TM=4,TN=4", VKAT_STATUS_OK, 2e-3);
    a.max_abs = NAN;
    CHECK(vkat_store_put(st, &a, &err) == VKAT_OK);
    CHECK(a.id > 0);
    CHECK_MSG(strlen(a.created) == 20 && a.created[4] == '-' && a.created[10] == 'T' && a.created[19] == 'Z',
              "created '%s'", a.created);
    vkat_row key = a;
    memset(&got, 0x5a, sizeof got);
    CHECK(vkat_store_get(st, &key, &got, &err) == 1);
    CHECK(isnan(got.max_abs));
    got.max_abs = a.max_abs = 0; /* NaN != NaN; the isnan above covered it */
    CHECK(rows_equal(&a, &got));

    /* An explicit created time is kept. */
    vkat_row b;
    make_row(&b, "TM=8,TN=4", VKAT_STATUS_OK, 1e-3);
    snprintf(b.created, sizeof b.created, "2020-01-02T03:04:05Z");
    CHECK(vkat_store_put(st, &b, &err) == VKAT_OK);
    CHECK(b.id != a.id);
    CHECK(vkat_store_get(st, &b, &got, &err) == 1 && rows_equal(&b, &got));

    /* Same key: replaced in place (same id), not added. */
    vkat_row a2;
    make_row(&a2, "TM=4,TN=4", VKAT_STATUS_OK, 3e-3);
    snprintf(a2.reason, sizeof a2.reason, "remeasured");
    CHECK(vkat_store_put(st, &a2, &err) == VKAT_OK);
    CHECK(a2.id == a.id);
    CHECK(vkat_store_get(st, &a, &got, &err) == 1);
    CHECK(got.median_s == 3e-3);
    CHECK_STR(got.reason, "remeasured");

    /* A config that was never stored. */
    vkat_row missing;
    make_row(&missing, "TM=16,TN=16", VKAT_STATUS_OK, 1.0);
    CHECK(vkat_store_get(st, &missing, &got, &err) == 0);

    /* Ranking: a series of ok rows plus failed rows that are "faster" (or unmeasured) must not rank. */
    vkat_row r;
    make_row(&r, "TM=2,TN=2", VKAT_STATUS_OK, 5e-3);
    CHECK(vkat_store_put(st, &r, &err) == VKAT_OK);
    make_row(&r, "TM=1,TN=1", VKAT_STATUS_WRONG, 1e-6);
    CHECK(vkat_store_put(st, &r, &err) == VKAT_OK);
    make_row(&r, "TM=1,TN=2", VKAT_STATUS_COMPILE_ERROR, NAN);
    CHECK(vkat_store_put(st, &r, &err) == VKAT_OK);
    make_row(&r, "TM=2,TN=1", VKAT_STATUS_WRONG, 2e-6);
    CHECK(vkat_store_put(st, &r, &err) == VKAT_OK);

    vkat_row best[8];
    size_t n = 99;
    CHECK(vkat_store_best(st, &key, best, 8, &n, &err) == VKAT_OK);
    CHECK(n == 3);
    if (n == 3) {
        CHECK_STR(best[0].config, "TM=8,TN=4"); /* 1 ms */
        CHECK_STR(best[1].config, "TM=4,TN=4"); /* 3 ms after the replace */
        CHECK_STR(best[2].config, "TM=2,TN=2"); /* 5 ms */
    }
    CHECK(vkat_store_best(st, &key, best, 2, &n, &err) == VKAT_OK && n == 2);
    CHECK(vkat_store_best(st, &key, best, 0, &n, &err) == VKAT_OK && n == 0);

    uint64_t counts[VKAT_STATUS_COUNT];
    CHECK(vkat_store_counts(st, &key, counts, &err) == VKAT_OK);
    CHECK(counts[VKAT_STATUS_OK] == 3);
    CHECK(counts[VKAT_STATUS_WRONG] == 2);
    CHECK(counts[VKAT_STATUS_COMPILE_ERROR] == 1);
    CHECK(counts[VKAT_STATUS_TIMEOUT] == 0);

    vkat_row *rows = NULL;
    CHECK(vkat_store_rows(st, &key, 0, &rows, &n, &err) == VKAT_OK && n == 3);
    free(rows);
    CHECK(vkat_store_rows(st, &key, 1, &rows, &n, &err) == VKAT_OK && n == 6);
    if (rows && n == 6) {
        CHECK(rows[0].status == VKAT_STATUS_OK && rows[0].median_s == 1e-3);
        CHECK(rows[2].status == VKAT_STATUS_OK && rows[2].median_s == 5e-3);
        for (size_t i = 3; i < 6; i++)
            CHECK(rows[i].status != VKAT_STATUS_OK);
    }
    free(rows);

    /* Another driver (different driver_uuid) is another key: not found, a new row, its own series. */
    vkat_row other = a;
    snprintf(other.device.driver_uuid, sizeof other.device.driver_uuid, "6c6c766d-7069-7065-5555-494400000001");
    CHECK(vkat_store_get(st, &other, &got, &err) == 0);
    other.created[0] = 0;
    CHECK(vkat_store_put(st, &other, &err) == VKAT_OK);
    CHECK(other.id != a.id);
    CHECK(vkat_store_counts(st, &other, counts, &err) == VKAT_OK && counts[VKAT_STATUS_OK] == 1);
    CHECK(vkat_store_counts(st, &key, counts, &err) == VKAT_OK && counts[VKAT_STATUS_OK] == 3);
    /* So is another problem size. */
    vkat_row prob = key;
    snprintf(prob.problem, sizeof prob.problem, "M=512,N=256,K=256");
    CHECK(vkat_store_best(st, &prob, best, 8, &n, &err) == VKAT_OK && n == 0);

    /* Two connections to one file see each other's committed rows. */
    vkat_store *st2 = NULL;
    CHECK_MSG(vkat_store_open(path, &st2, &err) == VKAT_OK, "%s", err.message);
    if (st2) {
        CHECK(vkat_store_get(st2, &b, &got, &err) == 1 && rows_equal(&b, &got));
        make_row(&r, "TM=32,TN=32", VKAT_STATUS_OK, 4e-3);
        CHECK(vkat_store_put(st2, &r, &err) == VKAT_OK);
        CHECK(vkat_store_get(st, &r, &got, &err) == 1 && got.id == r.id);
        make_row(&r, "TM=64,TN=64", VKAT_STATUS_TIMEOUT, NAN);
        CHECK(vkat_store_put(st, &r, &err) == VKAT_OK);
        CHECK(vkat_store_get(st2, &r, &got, &err) == 1 && got.status == VKAT_STATUS_TIMEOUT);
        vkat_store_close(st2);
    }
    vkat_store_close(st);

    /* Reopened: everything is still there. */
    st = NULL;
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        CHECK(vkat_store_get(st, &b, &got, &err) == 1 && rows_equal(&b, &got));
        CHECK(vkat_store_counts(st, &key, counts, &err) == VKAT_OK);
        CHECK(counts[VKAT_STATUS_OK] == 4 && counts[VKAT_STATUS_TIMEOUT] == 1 && counts[VKAT_STATUS_WRONG] == 2);
        vkat_store_close(st);
    }

    /* The file is what the store promises: our schema version and a WAL journal. */
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    sqlite3_stmt *s;
    CHECK(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) == 5);
    sqlite3_finalize(s);
    CHECK(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(s) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(s, 0), "wal") == 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* A put that returned survives the process being killed without closing anything. */
static void test_kill9(void)
{
    char path[128];
    path_in_dir("killed.db", path, sizeof path);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        vkat_store *st;
        vkat_row r;
        if (vkat_store_open(path, &st, NULL) != VKAT_OK)
            _exit(1);
        for (int i = 0; i < 20; i++) {
            char cfg[32];
            snprintf(cfg, sizeof cfg, "T=%d", i);
            make_row(&r, cfg, VKAT_STATUS_OK, 1e-3 * (i + 1));
            if (vkat_store_put(st, &r, NULL) != VKAT_OK)
                _exit(1);
        }
        raise(SIGKILL);
        _exit(2);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        vkat_row key;
        make_row(&key, "", VKAT_STATUS_OK, 1);
        uint64_t counts[VKAT_STATUS_COUNT];
        CHECK(vkat_store_counts(st, &key, counts, &err) == VKAT_OK && counts[VKAT_STATUS_OK] == 20);
        vkat_store_close(st);
    }
}

/* Many processes opening one new file at once, again and again: none may take the file another is creating for a
 * foreign database (the schema probe once read the version and the tables apart, and a creator's commit could fall
 * between them; seen once in CI under LeakSanitizer). */
static void test_many_openers(void)
{
    enum { OPENERS = 8, ROUNDS = 25 };
    int failed = 0;
    for (int round = 0; round < ROUNDS; round++) {
        char path[128], name[32];
        snprintf(name, sizeof name, "openers%d.db", round);
        path_in_dir(name, path, sizeof path);
        fflush(NULL);
        pid_t pids[OPENERS];
        for (int w = 0; w < OPENERS; w++) {
            pids[w] = fork();
            if (pids[w] == 0) {
                vkat_store *st;
                vkat_error e = {0};
                if (vkat_store_open(path, &st, &e) != VKAT_OK) {
                    fprintf(stderr, "opener %d of round %d: %s\n", w, round, e.message);
                    _exit(1);
                }
                vkat_store_close(st);
                _exit(0);
            }
        }
        for (int w = 0; w < OPENERS; w++) {
            int status = 0;
            failed += !(pids[w] > 0 && waitpid(pids[w], &status, 0) == pids[w] && WIFEXITED(status) &&
                        WEXITSTATUS(status) == 0);
        }
    }
    CHECK_MSG(failed == 0, "%d of %d opens of a new file failed", failed, OPENERS * ROUNDS);
}

/* Two processes writing one file at once: the busy timeout serialises them and no put is lost. */
static void test_two_writers(void)
{
    char path[128];
    path_in_dir("shared.db", path, sizeof path);
    fflush(NULL);
    pid_t pids[2];
    for (int w = 0; w < 2; w++) {
        pids[w] = fork();
        if (pids[w] == 0) {
            vkat_store *st;
            vkat_row r;
            vkat_error e = {0};
            if (vkat_store_open(path, &st, &e) != VKAT_OK) {
                fprintf(stderr, "writer %d: open: %s\n", w, e.message);
                _exit(1);
            }
            for (int i = 0; i < 50; i++) {
                char cfg[32];
                snprintf(cfg, sizeof cfg, "W=%d,I=%d", w, i);
                make_row(&r, cfg, VKAT_STATUS_OK, 1e-3);
                if (vkat_store_put(st, &r, &e) != VKAT_OK) {
                    fprintf(stderr, "writer %d: put %d: %s\n", w, i, e.message);
                    _exit(1);
                }
            }
            vkat_store_close(st);
            _exit(0);
        }
    }
    for (int w = 0; w < 2; w++) {
        int status = 0;
        CHECK(pids[w] > 0 && waitpid(pids[w], &status, 0) == pids[w]);
        CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d status %d", w, status);
    }
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        vkat_row key;
        make_row(&key, "", VKAT_STATUS_OK, 1);
        uint64_t counts[VKAT_STATUS_COUNT];
        CHECK(vkat_store_counts(st, &key, counts, &err) == VKAT_OK && counts[VKAT_STATUS_OK] == 100);
        vkat_store_close(st);
    }
}

static void test_errors(void)
{
    char path[128], buf[1200];
    vkat_store *st = (vkat_store *)&st; /* must be reset to NULL on failure */
    vkat_error err = {0};

    path_in_dir("notes.db", path, sizeof path);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        for (int i = 0; i < 64; i++)
            fputs("this is a text file, not an SQLite database\n", f);
        fclose(f);
    }
    CHECK(vkat_store_open(path, &st, &err) == VKAT_ERR_DB);
    CHECK(st == NULL);
    CHECK(err.code == VKAT_ERR_DB);
    CHECK_STR(err.file, path);
    CHECK_CONTAINS(err.message, "file is not a database");
    vkat_error_format(&err, buf, sizeof buf);
    char want[256];
    snprintf(want, sizeof want, "%s: file is not a database", path);
    CHECK_STR(buf, want);

    /* A directory that does not exist. */
    path_in_dir("no/such/dir/x.db", path, sizeof path);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_ERR_DB && st == NULL);
    CHECK_STR(err.file, path);
    CHECK(err.message[0] != 0);

    /* Somebody else's SQLite database is left alone. */
    path_in_dir("foreign.db", path, sizeof path);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "CREATE TABLE t (x)", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_ERR_DB && st == NULL);
    CHECK_CONTAINS(err.message, "not a vkautotune results database");

    /* A database from a newer vkautotune is refused rather than misread. */
    path_in_dir("newer.db", path, sizeof path);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    vkat_store_close(st);
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_ERR_DB && st == NULL);
    CHECK_CONTAINS(err.message, "newer");

    vkat_store_close(NULL);
}

/* A version-1 results table with one row. */
static const char v1[] =
    "CREATE TABLE results (id INTEGER PRIMARY KEY, device_name TEXT NOT NULL, vendor TEXT NOT NULL,"
    " vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL, driver_version INTEGER NOT NULL,"
    " driver_version_string TEXT NOT NULL, driver_uuid TEXT NOT NULL, pipeline_cache_uuid TEXT NOT NULL,"
    " kernel TEXT NOT NULL, template_hash TEXT NOT NULL, space_hash TEXT NOT NULL, problem TEXT NOT NULL,"
    " config TEXT NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, median_s REAL, min_s REAL, max_s REAL,"
    " mad_s REAL, samples INTEGER NOT NULL, batch INTEGER NOT NULL, flops REAL, bytes REAL, tflops REAL,"
    " gbps REAL, rel_l2 REAL, max_abs REAL, spirv_hash TEXT NOT NULL, created TEXT NOT NULL);"
    "CREATE UNIQUE INDEX results_key ON results (device_name, vendor_id, device_id, driver_version,"
    " driver_uuid, kernel, template_hash, space_hash, problem, config);"
    "INSERT INTO results VALUES (1, 'dev', 'Mesa', 1, 2, 3, '0.0.3', 'u', 'p', 'k', 't', 's', 'M=1', 'X=1',"
    " 'ok', '', 0.5, 0.5, 0.5, 0, 1, 1, 0, 0, 0, 0, 0, 0, 'h', '2026-01-01T00:00:00Z');"
    "PRAGMA user_version = 1;";

/* A version-1 file (before pipeline statistics) is brought up to date in place and keeps its rows. */
static void test_migrate_v1(void)
{
    char path[] = "/tmp/vkat-test-store-v1-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, v1, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    vkat_store *st = NULL;
    vkat_error err = {0};
    vkat_row key = {0}, got;
    snprintf(key.device.name, sizeof key.device.name, "dev");
    key.device.vendor_id = 1;
    key.device.device_id = 2;
    key.device.driver_version = 3;
    snprintf(key.device.driver_uuid, sizeof key.device.driver_uuid, "u");
    snprintf(key.kernel, sizeof key.kernel, "k");
    snprintf(key.template_hash, sizeof key.template_hash, "t");
    snprintf(key.space_hash, sizeof key.space_hash, "s");
    snprintf(key.problem, sizeof key.problem, "M=1");
    snprintf(key.config, sizeof key.config, "X=1");
    /* Read-only first: the old schema is read (migrated in memory) and the file is left exactly as it was. */
    size_t size_before = 0, size_after = 0;
    char *before = vkat_read_file(path, &size_before);
    CHECK_MSG(vkat_store_open_readonly(path, &st, &err) == VKAT_OK, "%s", err.message);
    if (st) {
        CHECK(vkat_store_get(st, &key, &got, &err) == 1);
        CHECK(got.median_s == 0.5 && got.pipeline_stats[0] == 0);
        vkat_store_close(st);
        st = NULL;
    }
    char *after = vkat_read_file(path, &size_after);
    CHECK_MSG(before && after && size_before == size_after && !memcmp(before, after, size_before),
              "a read-only open changed the file");
    free(before);
    free(after);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        CHECK(vkat_store_get(st, &key, &got, &err) == 1);
        CHECK(got.median_s == 0.5 && got.pipeline_stats[0] == 0 && got.tensor[0] == 0);
        /* The migrated file stores the version-3 column. */
        snprintf(got.tensor, sizeof got.tensor, "float16,float32");
        CHECK(vkat_store_put(st, &got, &err) == VKAT_OK);
        vkat_row again;
        CHECK(vkat_store_get(st, &key, &again, &err) == 1 && !strcmp(again.tensor, "float16,float32"));
        vkat_store_close(st);
    }
    /* A version-2 file merges into a current one (its rows have no tensor column: the scalar bound). */
    char v2[] = "/tmp/vkat-test-store-v2-XXXXXX";
    fd = mkstemp(v2);
    CHECK(fd >= 0);
    close(fd);
    CHECK(sqlite3_open(v2, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, v1, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(db,
                       "ALTER TABLE results ADD COLUMN pipeline_stats TEXT NOT NULL DEFAULT '';"
                       "UPDATE results SET config = 'X=2', created = '2026-02-01T00:00:00Z';"
                       "PRAGMA user_version = 2;",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        vkat_merge_stats ms = {0};
        CHECK_MSG(vkat_store_merge(st, v2, &ms, &err) == VKAT_OK, "%s", err.message);
        CHECK(ms.read == 1 && ms.added == 1);
        vkat_store_close(st);
    }
    remove(v2);
    remove(path);
}

/* A version-2 file (pipeline statistics, no racing) opens: its rows are full measurements, and a raced-out row
 * written afterwards keeps its bound, is never ranked, and a full measurement of the same key replaces it. */
static void test_migrate_v2_racing(void)
{
    char path[] = "/tmp/vkat-test-store-v2-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    const char *v2 =
        "CREATE TABLE results (id INTEGER PRIMARY KEY, device_name TEXT NOT NULL, vendor TEXT NOT NULL,"
        " vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL, driver_version INTEGER NOT NULL,"
        " driver_version_string TEXT NOT NULL, driver_uuid TEXT NOT NULL, pipeline_cache_uuid TEXT NOT NULL,"
        " kernel TEXT NOT NULL, template_hash TEXT NOT NULL, space_hash TEXT NOT NULL, problem TEXT NOT NULL,"
        " config TEXT NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, median_s REAL, min_s REAL, max_s REAL,"
        " mad_s REAL, samples INTEGER NOT NULL, batch INTEGER NOT NULL, flops REAL, bytes REAL, tflops REAL,"
        " gbps REAL, rel_l2 REAL, max_abs REAL, spirv_hash TEXT NOT NULL, created TEXT NOT NULL,"
        " pipeline_stats TEXT NOT NULL DEFAULT '');"
        "CREATE UNIQUE INDEX results_key ON results (device_name, vendor_id, device_id, driver_version,"
        " driver_uuid, kernel, template_hash, space_hash, problem, config);"
        "INSERT INTO results VALUES (1, 'dev', 'Mesa', 1, 2, 3, '0.0.3', 'u', 'p', 'k', 't', 's', 'M=1', 'X=1',"
        " 'ok', '', 0.5, 0.5, 0.5, 0, 1, 1, 0, 0, 0, 0, 0, 0, 'h', '2026-01-01T00:00:00Z', 'Spill Count=0');"
        "PRAGMA user_version = 2;";
    CHECK(sqlite3_exec(db, v2, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        vkat_row key = {0}, got, raced, best[4];
        snprintf(key.device.name, sizeof key.device.name, "dev");
        key.device.vendor_id = 1;
        key.device.device_id = 2;
        key.device.driver_version = 3;
        snprintf(key.device.driver_uuid, sizeof key.device.driver_uuid, "u");
        snprintf(key.kernel, sizeof key.kernel, "k");
        snprintf(key.template_hash, sizeof key.template_hash, "t");
        snprintf(key.space_hash, sizeof key.space_hash, "s");
        snprintf(key.problem, sizeof key.problem, "M=1");
        snprintf(key.config, sizeof key.config, "X=1");
        CHECK(vkat_store_get(st, &key, &got, &err) == 1);
        CHECK(got.status == VKAT_STATUS_OK && got.race_bound_s == 0);
        CHECK_STR(got.pipeline_stats, "Spill Count=0");
        /* A raced-out row faster than the ok one (a partial median can be): still never ranked. */
        raced = key;
        snprintf(raced.config, sizeof raced.config, "X=2");
        raced.status = VKAT_STATUS_RACED;
        raced.median_s = raced.min_s = raced.max_s = 0.25;
        raced.samples = 2;
        raced.race_bound_s = 0.2;
        CHECK(vkat_store_put(st, &raced, &err) == VKAT_OK);
        CHECK(vkat_store_get(st, &raced, &got, &err) == 1);
        CHECK(got.status == VKAT_STATUS_RACED && got.race_bound_s == 0.2 && got.samples == 2);
        size_t n = 0;
        CHECK(vkat_store_best(st, &key, best, 4, &n, &err) == VKAT_OK && n == 1);
        CHECK(n == 1 && strcmp(best[0].config, "X=1") == 0);
        /* Measured in full later (a --no-race rerun): the bound is gone. */
        raced.status = VKAT_STATUS_OK;
        raced.samples = 10;
        CHECK(vkat_store_put(st, &raced, &err) == VKAT_OK);
        CHECK(vkat_store_get(st, &raced, &got, &err) == 1);
        CHECK(got.status == VKAT_STATUS_OK && got.race_bound_s == 0);
        vkat_store_close(st);
    }
    remove(path);
}

/* A version-4 file (before stored SPIR-V) opens: read-only without changing the file, where no module is stored;
 * read-write it gains the table, a module round-trips byte for byte, a second put of the same hash changes nothing,
 * and a merge carries the modules over. */
static void test_migrate_v4_spirv(void)
{
    char path[] = "/tmp/vkat-test-store-v4-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    sqlite3 *db;
    CHECK(sqlite3_open(path, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, v1, NULL, NULL, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(db,
                       "ALTER TABLE results ADD COLUMN pipeline_stats TEXT NOT NULL DEFAULT '';"
                       "ALTER TABLE results ADD COLUMN tensor TEXT NOT NULL DEFAULT '';"
                       "ALTER TABLE results ADD COLUMN race_bound_s REAL NOT NULL DEFAULT 0;"
                       "PRAGMA user_version = 4;",
                       NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    vkat_store *st = NULL;
    vkat_error err = {0};
    void *bytes = NULL;
    size_t size = 0, size_before = 0, size_after = 0;
    char *before = vkat_read_file(path, &size_before);
    CHECK_MSG(vkat_store_open_readonly(path, &st, &err) == VKAT_OK, "%s", err.message);
    if (st) {
        CHECK(vkat_store_get_spirv(st, "h", &bytes, &size, &err) == 0 && !bytes && size == 0);
        vkat_store_close(st);
        st = NULL;
    }
    char *after = vkat_read_file(path, &size_after);
    CHECK_MSG(before && after && size_before == size_after && !memcmp(before, after, size_before),
              "a read-only open changed the file");
    free(before);
    free(after);

    const uint32_t words[4] = {0x07230203u, 0x00010600u, 0, 0xdeadbeefu}, other[2] = {1, 2};
    CHECK_MSG(vkat_store_open(path, &st, &err) == VKAT_OK, "%s", err.message);
    if (st) {
        CHECK(vkat_store_get_spirv(st, "h", &bytes, &size, &err) == 0);
        CHECK_MSG(vkat_store_put_spirv(st, "h", words, sizeof words, &err) == VKAT_OK, "%s", err.message);
        CHECK(vkat_store_put_spirv(st, "h", other, sizeof other, &err) == VKAT_OK); /* same hash: kept as it was */
        CHECK(vkat_store_get_spirv(st, "h", &bytes, &size, &err) == 1);
        CHECK(size == sizeof words && bytes && !memcmp(bytes, words, sizeof words));
        free(bytes);
        vkat_store_close(st);
        st = NULL;
    }
    char dst[] = "/tmp/vkat-test-store-v5-XXXXXX";
    fd = mkstemp(dst);
    CHECK(fd >= 0);
    close(fd);
    remove(dst); /* a new database */
    CHECK(vkat_store_open(dst, &st, &err) == VKAT_OK);
    if (st) {
        vkat_merge_stats ms = {0};
        CHECK_MSG(vkat_store_merge(st, path, &ms, &err) == VKAT_OK, "%s", err.message);
        CHECK(ms.read == 1 && ms.added == 1);
        CHECK(vkat_store_get_spirv(st, "h", &bytes, &size, &err) == 1);
        CHECK(size == sizeof words && bytes && !memcmp(bytes, words, sizeof words));
        free(bytes);
        vkat_store_close(st);
    }
    char side[600];
    snprintf(side, sizeof side, "%s-wal", dst);
    remove(side);
    snprintf(side, sizeof side, "%s-shm", dst);
    remove(side);
    remove(dst);
    remove(path);
}

int main(void)
{
    test_migrate_v1();
    test_migrate_v4_spirv();
    test_migrate_v2_racing();
    snprintf(dir, sizeof dir, "/tmp/vkat-test-store-XXXXXX");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed\n");
        return 1;
    }
    test_names();
    test_roundtrip_and_ranking();
    test_kill9();
    test_two_writers();
    test_many_openers();
    test_errors();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!test_failed && !getenv("VKAT_KEEP_TMP") && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    TEST_END();
}
