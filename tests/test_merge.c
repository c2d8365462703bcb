/* test_merge.c — merging results databases (store.c: vkat_store_merge) and the comparison built on them
 * (compare.c): new keys are added, a shared key keeps one row by the documented rule whichever side it comes
 * from, merging twice changes nothing, the inputs are never modified, peaks travel along, bad inputs are
 * refused; then `vkautotune compare` and `report` on a two-device database built with the store API. */
#include "compare.h"
#include "store.h"
#include "test.h"
#include "util.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *in_dir(const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", dir, name);
    return buf;
}

static void set_device(vkat_row *r, int which)
{
    snprintf(r->device.name, sizeof r->device.name, "%s", which ? "NVIDIA H200" : "llvmpipe (LLVM 15.0.6)");
    snprintf(r->device.vendor, sizeof r->device.vendor, "%s", which ? "NVIDIA" : "Mesa");
    r->device.vendor_id = which ? 0x10de : 0x10005;
    r->device.device_id = which ? 0x2335 : 0;
    r->device.driver_version = which ? 0x91067c00u : 1;
    snprintf(r->device.driver_version_string, sizeof r->device.driver_version_string, "%s", which ? "580" : "0.0.1");
    snprintf(r->device.driver_uuid, sizeof r->device.driver_uuid, "%s",
             which ? "aaaaaaaa-0000-0000-0000-000000000000" : "6c6c766d-7069-7065-5555-494400000000");
}

static void make_row(vkat_row *r, int device, const char *problem, const char *config, vkat_status status,
                     double median, const char *created)
{
    memset(r, 0, sizeof *r);
    set_device(r, device);
    snprintf(r->kernel, sizeof r->kernel, "sgemm");
    snprintf(r->template_hash, sizeof r->template_hash, "0123456789abcdef");
    snprintf(r->space_hash, sizeof r->space_hash, "fedcba9876543210");
    snprintf(r->problem, sizeof r->problem, "%s", problem);
    snprintf(r->config, sizeof r->config, "%s", config);
    r->status = status;
    r->median_s = r->min_s = r->max_s = median;
    r->mad_s = 0;
    r->samples = 10;
    r->batch = 1;
    long long n = device ? 4096 : 256;
    r->flops = 2.0 * (double)n * (double)n * (double)n;
    r->bytes = 3.0 * (double)n * (double)n * 4;
    r->tflops = status == VKAT_STATUS_OK ? r->flops / median * 1e-12 : NAN;
    r->gbps = status == VKAT_STATUS_OK ? r->bytes / median * 1e-9 : NAN;
    snprintf(r->created, sizeof r->created, "%s", created);
}

static vkat_store *open_db(const char *name)
{
    char path[128];
    vkat_store *st = NULL;
    vkat_error err = {0};
    unlink(in_dir(name, path, sizeof path));
    CHECK_MSG(vkat_store_open(path, &st, &err) == VKAT_OK, "%s", err.message);
    return st;
}

static void put(vkat_store *st, vkat_row *r)
{
    vkat_error err = {0};
    CHECK_MSG(vkat_store_put(st, r, &err) == VKAT_OK, "%s", err.message);
}

static size_t count_rows(vkat_store *st)
{
    vkat_row *rows = NULL;
    size_t n = 0;
    vkat_error err = {0};
    CHECK(vkat_store_list(st, NULL, 1, &rows, &n, &err) == VKAT_OK);
    free(rows);
    return n;
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

static void test_merge(void)
{
    char a_path[128], b_path[128], out_path[128];
    in_dir("a.db", a_path, sizeof a_path);
    in_dir("b.db", b_path, sizeof b_path);
    in_dir("out.db", out_path, sizeof out_path);
    vkat_store *a = open_db("a.db"), *b = open_db("b.db");
    if (!a || !b)
        return;
    vkat_row r;
    /* a: lavapipe, three variants; b: the H200, two variants, plus lavapipe rows that overlap a's. */
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_OK, 0.010, "2026-11-29T10:00:00Z");
    put(a, &r);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=8,TN=8", VKAT_STATUS_OK, 0.008, "2026-11-29T10:00:01Z");
    put(a, &r);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=2,TN=2", VKAT_STATUS_TIMEOUT, NAN, "2026-11-29T10:00:02Z");
    put(a, &r);
    make_row(&r, 1, "M=4096,N=4096,K=4096", "TM=8,TN=8", VKAT_STATUS_OK, 0.0045, "2026-11-29T11:00:00Z");
    put(b, &r);
    make_row(&r, 1, "M=4096,N=4096,K=4096", "TM=4,TN=4", VKAT_STATUS_OK, 0.0060, "2026-11-29T11:00:01Z");
    put(b, &r);
    /* Same key as in a, measured later and slower: the later one wins. */
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_OK, 0.011, "2026-11-29T12:00:00Z");
    put(b, &r);
    /* Same key as a's timeout, an ok measurement (earlier): ok beats failed whatever the dates. */
    make_row(&r, 0, "M=256,N=256,K=256", "TM=2,TN=2", VKAT_STATUS_OK, 0.020, "2026-11-28T00:00:00Z");
    put(b, &r);
    vkat_peaks p = {0};
    set_device(&r, 1);
    p.device = r.device;
    p.mem_gbps = 4000;
    p.fp32_tflops = 60;
    p.fp16_tflops = NAN;
    p.h2d_gbps = 50;
    p.d2h_gbps = 50;
    snprintf(p.created, sizeof p.created, "2026-11-29T11:00:00Z");
    vkat_error err = {0};
    CHECK(vkat_store_put_peaks(b, &p, &err) == VKAT_OK);
    vkat_store_close(a);
    vkat_store_close(b);
    long b_size = file_size(b_path);

    /* a then b, and b then a: the same result. */
    vkat_store *out = open_db("out.db");
    vkat_store *rev = open_db("rev.db");
    if (!out || !rev)
        return;
    vkat_merge_stats s = {0};
    CHECK(vkat_store_merge(out, a_path, &s, &err) == VKAT_OK);
    CHECK(s.read == 3 && s.added == 3 && s.replaced == 0 && s.kept == 0);
    memset(&s, 0, sizeof s);
    CHECK(vkat_store_merge(out, b_path, &s, &err) == VKAT_OK);
    CHECK_MSG(s.read == 4 && s.added == 2 && s.replaced == 2 && s.kept == 0, "%llu %llu %llu %llu",
              (unsigned long long)s.read, (unsigned long long)s.added, (unsigned long long)s.replaced,
              (unsigned long long)s.kept);
    CHECK(s.peaks_read == 1 && s.peaks_added == 1);
    CHECK(count_rows(out) == 5);
    CHECK(vkat_store_merge(rev, b_path, NULL, &err) == VKAT_OK);
    CHECK(vkat_store_merge(rev, a_path, NULL, &err) == VKAT_OK);
    vkat_row *x = NULL, *y = NULL;
    size_t nx = 0, ny = 0;
    CHECK(vkat_store_list(out, NULL, 1, &x, &nx, &err) == VKAT_OK);
    CHECK(vkat_store_list(rev, NULL, 1, &y, &ny, &err) == VKAT_OK);
    CHECK(nx == 5 && ny == 5);
    for (size_t i = 0; i < nx && i < ny; i++) {
        CHECK_STR(x[i].config, y[i].config);
        CHECK(x[i].status == y[i].status && x[i].median_s == y[i].median_s);
        CHECK_STR(x[i].created, y[i].created);
    }
    /* The winners of the shared keys. */
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_OK, 0, "");
    vkat_row got;
    CHECK(vkat_store_get(out, &r, &got, &err) == 1 && got.median_s == 0.011);
    snprintf(r.config, sizeof r.config, "TM=2,TN=2");
    CHECK(vkat_store_get(out, &r, &got, &err) == 1 && got.status == VKAT_STATUS_OK && got.median_s == 0.020);
    free(x);
    free(y);

    /* Idempotent: merging the same inputs again adds and replaces nothing. */
    memset(&s, 0, sizeof s);
    CHECK(vkat_store_merge(out, a_path, &s, &err) == VKAT_OK);
    CHECK(vkat_store_merge(out, b_path, &s, &err) == VKAT_OK);
    CHECK(s.added == 0 && s.replaced == 0 && s.kept == 7 && s.peaks_added == 0 && s.peaks_replaced == 0);
    CHECK(count_rows(out) == 5);
    vkat_peaks got_p;
    CHECK(vkat_store_get_peaks(out, &p.device, &got_p, &err) == 1 && got_p.mem_gbps == 4000 &&
          isnan(got_p.fp16_tflops));
    /* The input was only read. */
    CHECK(file_size(b_path) == b_size);

    /* Bad inputs: missing, not a database, someone else's database. */
    CHECK(vkat_store_merge(out, in_dir("missing.db", a_path, sizeof a_path), NULL, &err) == VKAT_ERR_IO);
    FILE *f = fopen(in_dir("notes.txt", a_path, sizeof a_path), "w");
    fputs("not a database, just some text that is long enough to have a header\n", f);
    fclose(f);
    CHECK(vkat_store_merge(out, a_path, NULL, &err) == VKAT_ERR_DB);
    CHECK(count_rows(out) == 5);
    vkat_store_close(out);
    vkat_store_close(rev);
}

/* compare.c on the merged database: one comparison, two devices with their own problems, the portability
 * matrix from stored rows. */
static void test_compare(void)
{
    char path[128];
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(vkat_store_open(in_dir("out.db", path, sizeof path), &st, &err) == VKAT_OK);
    if (!st)
        return;
    vkat_comparison *cs = NULL;
    size_t n = 0;
    CHECK(vkat_compare_build(st, NULL, NULL, &cs, &n, &err) == VKAT_OK);
    CHECK(n == 1);
    if (n == 1) {
        const vkat_comparison *c = &cs[0];
        CHECK_STR(c->kernel, "sgemm");
        CHECK(c->device_count == 2 && !c->same_problem && c->same_template);
        if (c->device_count == 2) {
            /* Sorted by name: "NVIDIA H200" before "llvmpipe". */
            const vkat_cmp_device *h = &c->devices[0], *l = &c->devices[1];
            CHECK_STR(h->device.name, "NVIDIA H200");
            CHECK(h->has_peaks && !l->has_peaks);
            CHECK_STR(h->rows[0].config, "TM=8,TN=8");
            CHECK_STR(l->rows[0].config, "TM=8,TN=8");
            CHECK(l->ok_count == 3 && l->count == 3);
            /* Both winners are the same config: each is 1.0 on the other; the H200's TM=4 run is 0.75. */
            CHECK(c->port_state[1] == VKAT_PORT_OK && fabs(c->portability[1] - 1.0) < 1e-12);
            CHECK(c->port_state[2] == VKAT_PORT_OK && fabs(c->portability[2] - 1.0) < 1e-12);
        }
    }
    vkat_comparisons_free(cs, n);
    CHECK(vkat_compare_build(st, "nope", NULL, &cs, &n, &err) == VKAT_OK && n == 0);
    vkat_comparisons_free(cs, n);
    CHECK(vkat_compare_build(st, "sgemm", "M=256,N=256,K=256", &cs, &n, &err) == VKAT_OK && n == 1 &&
          cs[0].device_count == 1);
    vkat_comparisons_free(cs, n);
    vkat_store_close(st);

    long long v;
    CHECK(vkat_config_value("WG_X=16,WG_Y=8,TM=4", "WG_Y", &v) && v == 8);
    CHECK(!vkat_config_value("WG_X=16,WG_Y=8", "WG", &v));
    char name[16];
    CHECK(vkat_config_param_name("WG_X=16,WG_Y=8", 1, name, sizeof name) && !strcmp(name, "WG_Y"));
    CHECK(!vkat_config_param_name("WG_X=16,WG_Y=8", 2, name, sizeof name));
}

/* The commands on that database: the table, the portability matrix, the note about problems; the report. */
static void test_cli(void)
{
    char cmd[512], path[128];
    snprintf(cmd, sizeof cmd, "%s/vkautotune compare --db %s 2>&1", VKAT_BINARY_DIR,
             in_dir("out.db", path, sizeof path));
    FILE *p = popen(cmd, "r");
    char out[8192] = "";
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = 0;
    CHECK(p && pclose(p) == 0);
    CHECK_CONTAINS(out, "kernel sgemm: 2 device(s)");
    CHECK_CONTAINS(out, "different problem sizes");
    CHECK_CONTAINS(out, "M=4096,N=4096,K=4096");
    CHECK_CONTAINS(out, "M=256,N=256,K=256");
    CHECK_CONTAINS(out, "TM=8,TN=8");
    CHECK_CONTAINS(out, "portability");
    /* The H200's winner has a measured peak: 2*4096^3 flops / 60 TFLOP/s = 2.29 ms over 4.5 ms = 50.9%. */
    CHECK_CONTAINS(out, "50.9%");
    char html[128];
    snprintf(cmd, sizeof cmd, "%s/vkautotune report -q --db %s -o %s 2>&1", VKAT_BINARY_DIR, path,
             in_dir("r.html", html, sizeof html));
    CHECK(system(cmd) == 0);
    size_t size = 0;
    char *text = vkat_read_file(html, &size);
    CHECK(text != NULL);
    if (text) {
        CHECK_CONTAINS(text, "<svg class=\"bars\"");
        CHECK_CONTAINS(text, "<svg class=\"scatter\"");
        CHECK_CONTAINS(text, "<svg class=\"heatmap\"");
        CHECK_CONTAINS(text, "<table class=\"portability\"");
        CHECK_CONTAINS(text, "<table class=\"devices\"");
        CHECK(strstr(text, "<script") == NULL && strstr(text, "http://") == NULL && strstr(text, "https://") == NULL);
        free(text);
    }
}

/* Racing's rows (schema 3): a full measurement beats a raced-out one whatever their dates, a raced-out one beats
 * a failure; files written before racing (schemas 1 and 2, no race_bound_s) merge; the portability matrix tells a
 * winner raced out on another device from one measured there. */
static void test_racing(void)
{
    char src_path[128], old_path[128];
    in_dir("race-src.db", src_path, sizeof src_path);
    in_dir("race-old.db", old_path, sizeof old_path);
    vkat_store *dst = open_db("race-dst.db"), *src = open_db("race-src.db");
    if (!dst || !src)
        return;
    vkat_error err = {0};
    vkat_row r, got;
    /* lavapipe: its winner TM=4 (ok in dst, raced-out and newer in src); TM=8 raced in dst, timeout in src. */
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_OK, 0.010, "2026-11-29T10:00:00Z");
    put(dst, &r);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_RACED, 0.030, "2026-11-30T10:00:00Z");
    r.race_bound_s = 0.0102;
    put(src, &r);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=8,TN=8", VKAT_STATUS_RACED, 0.040, "2026-11-29T10:00:00Z");
    r.min_s = 0.020;
    r.race_bound_s = 0.0102;
    put(dst, &r);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=8,TN=8", VKAT_STATUS_TIMEOUT, NAN, "2026-11-30T10:00:00Z");
    put(src, &r);
    /* The H200: TM=8 wins; lavapipe's winner TM=4 is raced out there. */
    make_row(&r, 1, "M=4096,N=4096,K=4096", "TM=8,TN=8", VKAT_STATUS_OK, 0.004, "2026-11-29T11:00:00Z");
    put(src, &r);
    make_row(&r, 1, "M=4096,N=4096,K=4096", "TM=4,TN=4", VKAT_STATUS_RACED, 0.009, "2026-11-29T11:00:01Z");
    r.min_s = 0.008;
    r.race_bound_s = 0.0041;
    put(src, &r);
    vkat_store_close(src);
    vkat_merge_stats s = {0};
    CHECK_MSG(vkat_store_merge(dst, src_path, &s, &err) == VKAT_OK, "%s", err.message);
    make_row(&r, 0, "M=256,N=256,K=256", "TM=4,TN=4", VKAT_STATUS_OK, 0, "");
    CHECK(vkat_store_get(dst, &r, &got, &err) == 1 && got.status == VKAT_STATUS_OK && got.median_s == 0.010);
    snprintf(r.config, sizeof r.config, "TM=8,TN=8");
    CHECK(vkat_store_get(dst, &r, &got, &err) == 1 && got.status == VKAT_STATUS_RACED && got.race_bound_s == 0.0102);

    vkat_comparison *cs = NULL;
    size_t n = 0;
    CHECK(vkat_compare_build(dst, NULL, NULL, &cs, &n, &err) == VKAT_OK && n == 1);
    if (n == 1 && cs[0].device_count == 2) {
        const vkat_comparison *c = &cs[0];
        const vkat_cmp_device *h = &c->devices[0], *l = &c->devices[1];
        CHECK(h->ok_count == 1 && h->raced_count == 1 && l->ok_count == 1 && l->raced_count == 1);
        /* lavapipe's winner on the H200: raced out there, so at most 0.004 / 0.008 of its best. */
        CHECK(c->port_state[1 * 2 + 0] == VKAT_PORT_RACED && fabs(c->portability[1 * 2 + 0] - 0.5) < 1e-12);
        /* The H200's winner on lavapipe: raced out there too (0.010 / 0.020). */
        CHECK(c->port_state[0 * 2 + 1] == VKAT_PORT_RACED && fabs(c->portability[0 * 2 + 1] - 0.5) < 1e-12);
    }
    vkat_comparisons_free(cs, n);

    /* A schema-2 file: its rows merge as full measurements. */
    sqlite3 *db;
    unlink(old_path);
    CHECK(sqlite3_open(old_path, &db) == SQLITE_OK);
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
        "INSERT INTO results VALUES (1, 'old', 'Mesa', 1, 2, 3, '0.0.3', 'u', 'p', 'sgemm', 't', 's', 'M=1',"
        " 'TM=2', 'ok', '', 0.5, 0.5, 0.5, 0, 10, 1, 0, 0, 0, 0, 0, 0, 'h', '2026-01-01T00:00:00Z', '');"
        "PRAGMA user_version = 2;";
    CHECK(sqlite3_exec(db, v2, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    memset(&s, 0, sizeof s);
    CHECK_MSG(vkat_store_merge(dst, old_path, &s, &err) == VKAT_OK && s.added == 1, "%s", err.message);
    /* A schema-1 file (no pipeline statistics either). */
    unlink(old_path);
    CHECK(sqlite3_open(old_path, &db) == SQLITE_OK);
    const char *v1 =
        "CREATE TABLE results (id INTEGER PRIMARY KEY, device_name TEXT NOT NULL, vendor TEXT NOT NULL,"
        " vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL, driver_version INTEGER NOT NULL,"
        " driver_version_string TEXT NOT NULL, driver_uuid TEXT NOT NULL, pipeline_cache_uuid TEXT NOT NULL,"
        " kernel TEXT NOT NULL, template_hash TEXT NOT NULL, space_hash TEXT NOT NULL, problem TEXT NOT NULL,"
        " config TEXT NOT NULL, status TEXT NOT NULL, reason TEXT NOT NULL, median_s REAL, min_s REAL, max_s REAL,"
        " mad_s REAL, samples INTEGER NOT NULL, batch INTEGER NOT NULL, flops REAL, bytes REAL, tflops REAL,"
        " gbps REAL, rel_l2 REAL, max_abs REAL, spirv_hash TEXT NOT NULL, created TEXT NOT NULL);"
        "CREATE UNIQUE INDEX results_key ON results (device_name, vendor_id, device_id, driver_version,"
        " driver_uuid, kernel, template_hash, space_hash, problem, config);"
        "INSERT INTO results VALUES (1, 'old', 'Mesa', 1, 2, 3, '0.0.3', 'u', 'p', 'sgemm', 't', 's', 'M=1',"
        " 'TM=4', 'ok', '', 0.5, 0.5, 0.5, 0, 10, 1, 0, 0, 0, 0, 0, 0, 'h', '2026-01-01T00:00:00Z');"
        "PRAGMA user_version = 1;";
    CHECK(sqlite3_exec(db, v1, NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    memset(&s, 0, sizeof s);
    CHECK_MSG(vkat_store_merge(dst, old_path, &s, &err) == VKAT_OK && s.added == 1, "%s", err.message);
    vkat_store_close(dst);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/vkat-test-merge-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_merge();
    test_compare();
    test_cli();
    test_racing();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    TEST_END();
}
