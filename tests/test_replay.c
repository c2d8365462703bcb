/* test_replay.c — recorded tables: a small Kernel Tuner cache file (absent entries invalid, a failed entry costs
 * an evaluation, a categorical parameter) and a results database written with the store API (ok rows valid,
 * failed rows failing, unstored configurations invalid); exhaustive replay finds the optimum exactly. */
#include "replay.h"
#include "search.h"
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


/* A made-up table (Kernel Tuner's format) where most configurations are missing, as in a GEMM space: six
 * parameters of six values, present only under three rules between pairs of them, like a workgroup limit, an
 * order and a vector width that must divide a tile: (a + 1) (b + 1) <= 12, c <= d and e + f even (8694 of 46656,
 * 19 %), with a smooth bowl of times whose floor lies on the first rule's boundary. Written to path. */
static void write_mostly_missing(const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "{\"tune_params_keys\": [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\"], \"tune_params\": {");
    for (int p = 0; p < 6; p++)
        fprintf(f, "%s\"%c\": [0, 1, 2, 3, 4, 5]", p ? ", " : "", 'a' + p);
    fprintf(f, "}, \"cache\": {");
    int first = 1;
    for (int i = 0; i < 46656; i++) {
        int v[6];
        for (int p = 0, r = i; p < 6; p++, r /= 6)
            v[5 - p] = r % 6;
        if ((v[0] + 1) * (v[1] + 1) > 12 || v[2] > v[3] || (v[4] + v[5]) % 2)
            continue;
        double ms = 1 + 0.3 * (v[0] - 3) * (v[0] - 3) + 0.2 * (v[1] - 3) * (v[1] - 3) + 0.1 * (v[2] - 2) * (v[2] - 2) +
                    0.05 * (v[3] - 3) * (v[3] - 3) + 0.1 * (v[4] - 1) * (v[4] - 1) + 0.05 * v[5];
        fprintf(f, "%s\"%d,%d,%d,%d,%d,%d\": {\"time\": %.6f}", first ? "" : ", ", v[0], v[1], v[2], v[3], v[4], v[5],
                ms);
        first = 0;
    }
    fprintf(f, "}}\n");
    fclose(f);
}

/* Charged, auto spends far fewer of its evaluations on missing configurations than random sampling does at the
 * same budget (81 % of this table is missing). Measured: 426 of 800 failed (random 636), 436 without the learned oracle
 * (search_validity.c), which is why that model has its own test below. */
static void trace_shows_every_evaluation(const vkat_replay_table *t);
static void known_after_is_an_oracle_from_there(const vkat_replay_table *t);

static void auto_fails_less_than_random(void)
{
    char path[] = "/tmp/vkat_test_missing_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    write_mostly_missing(path);
    vkat_replay_table *t = NULL;
    vkat_error err = {0};
    CHECK(vkat_replay_load(path, NULL, &t, &err) == VKAT_OK);
    unlink(path);
    if (!t)
        return;
    CHECK(t->valid == 8694 && t->raw_count == 46656);
    uint64_t failed[2] = {0, 0}, evaluated[2] = {0, 0};
    for (int r = 0; r < 2; r++)
        for (uint64_t seed = 0; seed < 8; seed++) {
            vkat_replay_opts o = {r ? "random" : "auto", seed, 100, 1, 1};
            vkat_search_stats st = {0};
            uint64_t m[] = {100};
            double at[1];
            CHECK(vkat_replay_run(t, &o, m, 1, at, &st, &err) == VKAT_OK);
            failed[r] += st.failed;
            evaluated[r] += st.evaluated;
        }
    CHECK(evaluated[0] == 800 && evaluated[1] == 800);
    CHECK_MSG(failed[0] * 4 < failed[1] * 3, "auto %llu, random %llu of 800 failed", (unsigned long long)failed[0],
              (unsigned long long)failed[1]);
    trace_shows_every_evaluation(t);
    known_after_is_an_oracle_from_there(t);
    vkat_replay_free(t);
}

/* What a replay's trace saw: one row per unique evaluation, in order, with who proposed it. */
typedef struct trace_seen {
    uint64_t rows, failed, out_of_order, strangers;
    const char *const *origins; /* NULL-terminated: the names a row may carry */
} trace_seen;

static void count_row(void *user, uint64_t evaluation, const uint32_t *choice, double seconds, const char *origin)
{
    (void)choice;
    trace_seen *t = user;
    t->out_of_order += evaluation != ++t->rows;
    t->failed += !isfinite(seconds);
    int known = 0;
    for (size_t i = 0; origin && t->origins[i]; i++)
        known |= !strcmp(origin, t->origins[i]);
    t->strangers += !known;
}

/* The trace (strategy_replay --trace) shows every evaluation once, in order, and the member of auto that proposed
 * it; its failures are the run's. A strategy that is no portfolio is named itself. */
static void trace_shows_every_evaluation(const vkat_replay_table *t)
{
    static const char *const members[] = {"model", "local", "annealing", "gp", NULL}, *const rnd[] = {"random", NULL};
    for (int r = 0; r < 2; r++) {
        trace_seen seen = {0, 0, 0, 0, r ? rnd : members};
        vkat_replay_opts o = {r ? "random" : "auto", 3, 60, 1, 1, count_row, &seen};
        vkat_search_stats st = {0};
        uint64_t m[] = {60};
        double at[1];
        vkat_error err = {0};
        CHECK(vkat_replay_run(t, &o, m, 1, at, &st, &err) == VKAT_OK);
        CHECK_MSG(seen.rows == 60 && st.evaluated == 60, "%llu rows", (unsigned long long)seen.rows);
        CHECK(seen.out_of_order == 0 && seen.strangers == 0);
        CHECK_MSG(seen.failed == st.failed && st.failed > 0, "%llu failed rows, %llu failed",
                  (unsigned long long)seen.failed, (unsigned long long)st.failed);
    }
}

/* A run's evaluations in order: each configuration (as a number) and whether it failed. */
typedef struct trace_log {
    uint64_t rows, key[64];
    int failed[64];
} trace_log;

static void log_row(void *user, uint64_t evaluation, const uint32_t *choice, double seconds, const char *origin)
{
    (void)origin;
    trace_log *l = user;
    if (evaluation != ++l->rows || l->rows > 64)
        return;
    uint64_t key = 0;
    for (size_t p = 0; p < 6; p++)
        key = key * 6 + choice[p];
    l->key[l->rows - 1] = key;
    l->failed[l->rows - 1] = !isfinite(seconds);
}

/* --known-after N: charged as usual for the first N evaluations (the same configurations as a plain charged run),
 * then the table is the search's oracle, so not one later evaluation fails, where the plain run's still do. */
static void known_after_is_an_oracle_from_there(const vkat_replay_table *t)
{
    for (uint64_t seed = 0; seed < 4; seed++) {
        trace_log plain = {0}, known = {0};
        vkat_replay_opts po = {"auto", seed, 60, 1, 1, log_row, &plain};
        vkat_replay_opts ko = {"auto", seed, 60, 1, 1, log_row, &known, 20};
        vkat_search_stats ps = {0}, ks = {0};
        uint64_t m[] = {60};
        double at[1];
        vkat_error err = {0};
        CHECK(vkat_replay_run(t, &po, m, 1, at, &ps, &err) == VKAT_OK);
        CHECK(vkat_replay_run(t, &ko, m, 1, at, &ks, &err) == VKAT_OK);
        CHECK(plain.rows == 60 && known.rows == 60 && ks.evaluated == 60);
        int same_start = 1, early = 0, late = 0, plain_late = 0;
        for (size_t i = 0; i < 60; i++) {
            if (i < 20) {
                same_start &= plain.key[i] == known.key[i] && plain.failed[i] == known.failed[i];
                early += known.failed[i];
            } else {
                late += known.failed[i];
                plain_late += plain.failed[i];
            }
        }
        CHECK(same_start);
        CHECK_MSG(early > 0 && late == 0 && plain_late > 0, "seed %llu: %d failed before 20, %d after (plain %d)",
                  (unsigned long long)seed, early, late, plain_late);
        CHECK(ks.failed == (uint64_t)early);
    }
}

/* 3 parameters of 4 values; the oracle rejects c == 3 when `with_oracle` is set. */
static int reject_c3(void *ctx, const uint32_t *c)
{
    (void)ctx;
    return c[2] != 3;
}

/* The learned oracle: inert until something fails; then it rules out (but for a share let through) what resembles
 * the failures in what was never seen to succeed, keeps what is made of proven parts or differs in other ways, and
 * asks the space's own oracle first. */
static void validity_model_learns(void)
{
    size_t counts[3] = {4, 4, 4};
    vkat_search_space sp = {3, counts, 64, reject_c3, NULL, NULL, 0, 0};
    vkat_validity *v = vkat_validity_create(&sp, 7);
    CHECK(v != NULL);
    if (!v)
        return;
    uint32_t c[3];
    /* Successes: a <= 1 and b <= 1, every c. */
    for (c[0] = 0; c[0] < 2; c[0]++)
        for (c[1] = 0; c[1] < 2; c[1]++)
            for (c[2] = 0; c[2] < 4; c[2]++)
                vkat_validity_observe(v, c, 1e-3);
    int all_one = 1;
    for (uint64_t i = 0; i < 64; i++) {
        vkat_search_decode(&sp, i, c);
        all_one &= vkat_validity_chance(v, c) == 1;
    }
    CHECK_MSG(all_one, "a chance below 1 before anything failed");
    /* Failures: a >= 2 and b >= 2 (each observed twice: a repeat is no new evidence). */
    for (int rep = 0; rep < 2; rep++)
        for (c[0] = 2; c[0] < 4; c[0]++)
            for (c[1] = 2; c[1] < 4; c[1]++)
                for (c[2] = 0; c[2] < 4; c[2]++)
                    vkat_validity_observe(v, c, INFINITY);
    unsigned failing_kept = 0, proven_kept = 0;
    for (uint64_t i = 0; i < 64; i++) {
        vkat_search_decode(&sp, i, c);
        int plausible = vkat_validity_plausible(v, c);
        if (c[2] == 3)
            CHECK_MSG(!plausible, "the space's oracle was not asked first (config %llu)", (unsigned long long)i);
        else if (c[0] >= 2 && c[1] >= 2)
            failing_kept += plausible;
        else if (c[0] <= 1 && c[1] <= 1)
            proven_kept += plausible;
    }
    CHECK_MSG(failing_kept <= 6, "%u of 12 like the failures kept", failing_kept);
    CHECK_MSG(proven_kept == 12, "%u of 12 made of proven parts kept", proven_kept);
    uint32_t other[3] = {2, 0, 0}; /* a = 2 never succeeded, but b = 0 did: not like the failures */
    CHECK(vkat_validity_plausible(v, other) == 1);
    uint32_t failing[3] = {3, 3, 0}, proven[3] = {0, 1, 2};
    CHECK(vkat_validity_chance(v, failing) < vkat_validity_chance(v, proven));
    vkat_validity_free(v);
    vkat_validity_free(NULL);
}

int main(void)
{
    auto_fails_less_than_random();
    validity_model_learns();
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
