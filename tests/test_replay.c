/* test_replay.c — recorded tables: a small Kernel Tuner cache file (absent entries invalid, a failed entry costs
 * an evaluation, a categorical parameter) and a results database written with the store API (ok rows valid,
 * failed rows failing, unstored configurations invalid); exhaustive replay finds the optimum exactly. */
#include "replay.h"
#include "store.h"
#include "test.h"

#include <unistd.h>

static void exhaustive_finds_optimum(const vkat_replay_table *t, uint64_t want_evaluated, uint64_t want_failed)
{
    uint32_t best[8] = {0};
    vkat_search_stats st = {0};
    st.best_choice = best;
    vkat_replay_opts o = {"exhaustive", 0, 0, 2};
    uint64_t marks[] = {1, 1000};
    double at[2];
    vkat_error err = {0};
    CHECK(vkat_replay_run(t, &o, marks, 2, at, &st, &err) == VKAT_OK);
    CHECK(st.best_s == t->best_s);
    CHECK(at[1] == t->best_s);
    CHECK(at[0] >= t->best_s);
    CHECK_MSG(st.evaluated == want_evaluated, "%llu evaluated", (unsigned long long)st.evaluated);
    CHECK(st.failed == want_failed);
    /* It stops at the last configuration of the table: invalid ones after it in index order are never proposed. */
    CHECK(st.invalid + st.evaluated <= t->raw_count && st.proposed == st.invalid + st.evaluated);
    CHECK(st.stop == VKAT_STOP_EXHAUSTED);
    double s;
    CHECK(vkat_replay_lookup(t, best, &s) == 1 && s == t->best_s);
}

int main(void)
{
    vkat_error err = {0};
    vkat_replay_table *t = NULL;
    char buf[1024];

    /* Kernel Tuner cache: A [1,2,4,8] x B [16,32,64] x C ["x","y"], A*B > 256 absent, 8,16,y failed. */
    CHECK(vkat_replay_load(VKAT_SOURCE_DIR "/tests/data/replay/small.json", NULL, &t, &err) == VKAT_OK);
    if (t) {
        CHECK(t->param_count == 3 && t->raw_count == 24);
        CHECK(t->valid == 21 && t->failed == 1);
        CHECK(!t->categorical[0] && !t->categorical[1] && t->categorical[2]);
        CHECK(fabs(t->best_s - 1e-3) < 1e-12);
        uint32_t c[3] = {3, 2, 0}; /* 8,64,x: absent */
        double s;
        CHECK(vkat_replay_lookup(t, c, &s) == 0);
        uint32_t f[3] = {3, 0, 1}; /* 8,16,y: failed */
        CHECK(vkat_replay_lookup(t, f, &s) == 1 && isinf(s));
        vkat_replay_format(t, f, buf, sizeof buf);
        CHECK_STR(buf, "A=8,B=16,C=y");
        exhaustive_finds_optimum(t, 22, 1);
        /* A budget holds, and the default strategy sees no invalid configuration (the table is its oracle). */
        vkat_replay_opts o = {NULL, 5, 6, 1};
        vkat_search_stats st = {0};
        uint64_t m[] = {6};
        double at[1];
        CHECK(vkat_replay_run(t, &o, m, 1, at, &st, &err) == VKAT_OK);
        CHECK(st.evaluated == 6 && st.invalid == 0 && st.stop == VKAT_STOP_BUDGET);
        CHECK(at[0] == st.best_s);
        /* Charged: the two absent configurations cost an evaluation each, as failures, and exhaustive now walks
         * all 24; a strategy has no oracle (its proposals of absent ones reach the table). */
        vkat_replay_opts ex = {"exhaustive", 0, 0, 2, 1};
        uint64_t all[] = {1000};
        memset(&st, 0, sizeof st);
        CHECK(vkat_replay_run(t, &ex, all, 1, at, &st, &err) == VKAT_OK);
        CHECK_MSG(st.evaluated == 24 && st.failed == 3 && st.invalid == 0, "%llu evaluated, %llu failed",
                  (unsigned long long)st.evaluated, (unsigned long long)st.failed);
        CHECK(at[0] == t->best_s && st.stop == VKAT_STOP_EXHAUSTED);
        uint64_t failed_free = 0, failed_charged = 0;
        for (uint64_t seed = 0; seed < 8; seed++) {
            vkat_replay_opts fr = {"random", seed, 20, 1, 0}, ch = {"random", seed, 20, 1, 1};
            memset(&st, 0, sizeof st);
            CHECK(vkat_replay_run(t, &fr, all, 1, at, &st, &err) == VKAT_OK);
            failed_free += st.failed;
            memset(&st, 0, sizeof st);
            CHECK(vkat_replay_run(t, &ch, all, 1, at, &st, &err) == VKAT_OK);
            failed_charged += st.failed;
        }
        CHECK_MSG(failed_charged > failed_free, "charged %llu, free %llu", (unsigned long long)failed_charged,
                  (unsigned long long)failed_free);
        CHECK_STR(vkat_replay_missing_name(1), "charged");
        CHECK_STR(vkat_replay_missing_name(0), "free");
        vkat_replay_free(t);
    }
    CHECK(vkat_replay_load(VKAT_SOURCE_DIR "/tests/data/replay/missing.json", NULL, &t, &err) == VKAT_ERR_IO);
    CHECK(vkat_replay_load(VKAT_SOURCE_DIR "/tests/data/spaces/../replay/../../CMakeLists.txt", NULL, &t, &err) ==
          VKAT_ERR_SYNTAX);

    /* The project's results database. TM in {1,2,4}, TN in {8,16}: 6 stored, TM=4,TN=16 wrong, TM=1,TN=16 never
     * stored; plus another kernel, which the default pick (most rows) ignores. */
    char path[] = "/tmp/vkat_test_replay_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    unlink(path);
    vkat_store *st = NULL;
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (st) {
        const char *configs[] = {"TM=1,TN=8", "TM=2,TN=8", "TM=4,TN=8", "TM=2,TN=16", "TM=4,TN=16"};
        double times[] = {3e-3, 2e-3, 2.5e-3, 1.5e-3, 1e-3};
        for (int i = 0; i < 6; i++) {
            vkat_row row = {0};
            snprintf(row.device.name, sizeof row.device.name, "dev");
            snprintf(row.kernel, sizeof row.kernel, "%s", i < 5 ? "sgemm" : "other");
            snprintf(row.problem, sizeof row.problem, "M=64");
            snprintf(row.config, sizeof row.config, "%s", i < 5 ? configs[i] : "X=1");
            row.status = i == 4 ? VKAT_STATUS_WRONG : VKAT_STATUS_OK;
            row.median_s = i < 5 ? times[i] : 1e-6;
            CHECK(vkat_store_put(st, &row, &err) == VKAT_OK);
        }
        vkat_store_close(st);
        CHECK(vkat_replay_load(path, NULL, &t, &err) == VKAT_OK);
        if (t) {
            CHECK(t->param_count == 2 && t->raw_count == 6);
            CHECK(t->valid == 4 && t->failed == 1);
            CHECK(t->best_s == 1.5e-3);
            CHECK_CONTAINS(t->label, "sgemm");
            exhaustive_finds_optimum(t, 5, 1);
            vkat_replay_free(t);
        }
        CHECK(vkat_replay_load(path, "other", &t, &err) == VKAT_OK);
        if (t) {
            CHECK(t->param_count == 1 && t->valid == 1);
            vkat_replay_free(t);
        }
        CHECK(vkat_replay_load(path, "nope", &t, &err) == VKAT_ERR_EMPTY_SPACE);
    }
    unlink(path);
    char wal[64];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    TEST_END();
}
