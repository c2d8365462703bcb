/* test_result_order.c — the order in which the strategy hears of results (session 11, issue #22 item 4): as they
 * finish by default, so that a variant still on its way (a slow pipeline, a long warm-up) holds back none of those
 * finished after it; in proposal order with VKAT_REPORT_IN_ORDER=1 or VKAT_MEASURE_IN_ORDER=1, the deterministic
 * mode. Whole runs on the default device (lavapipe in CI) over tests/data/tune/race.ini, resumed from a database
 * in which only the first proposal is left to measure: the others are answered at once from the database, while
 * the first takes its checked run and a fixed 0.3 s warm-up. Nothing here is timed: the assertions are about the
 * order of the progress calls and what is stored. */
#include "store.h"
#include "test.h"
#include "test_device_space.h"
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Which evaluation was the first measured one (1-based; 0: none), from the progress calls. */
typedef struct order_log {
    uint64_t evaluated, resumed;
    uint64_t first_measured_at;
} order_log;

static void on_progress(void *user, const vkat_tune_progress *p)
{
    order_log *l = user;
    if (p->evaluated == l->evaluated)
        return; /* a best-so-far shown early, or the last call: no new evaluation */
    if (p->evaluated - p->resumed > l->evaluated - l->resumed && !l->first_measured_at)
        l->first_measured_at = p->evaluated;
    l->evaluated = p->evaluated;
    l->resumed = p->resumed;
}

/* Runs the search into `st` with the environment variable `order_env` set to 1 (NULL: neither order variable). */
static vkat_result run(const vkat_space *space, vkat_instance *inst, uint32_t dev, vkat_store *st,
                       const vkat_tune_opts *opts, const char *order_env, vkat_tune_report *rep, vkat_error *err)
{
    unsetenv("VKAT_REPORT_IN_ORDER");
    unsetenv("VKAT_MEASURE_IN_ORDER");
    if (order_env)
        setenv(order_env, "1", 1);
    vkat_result r = vkat_tune_device(space, inst, dev, st, opts, rep, err);
    if (order_env)
        unsetenv(order_env);
    return r;
}

/* Marks the first proposal's row "aborted" (the process ended while it ran): a resumed run measures it again. */
static int abort_first(const vkat_space *space, vkat_store *st, const vkat_row *key)
{
    uint32_t zero[16] = {0};
    vkat_row k = *key, found;
    vkat_error err = {0};
    vkat_space_format_config(space, zero, k.config, sizeof k.config);
    if (vkat_store_get(st, &k, &found, &err) != 1)
        return 0;
    found.status = VKAT_STATUS_ABORTED;
    snprintf(found.reason, sizeof found.reason, "test: the process ended while this variant was running");
    return vkat_store_put(st, &found, &err) == VKAT_OK;
}

/* WORK=1 and correct: the winner by a wide margin (WG is within noise). */
static int true_winner(const char *config)
{
    return !strncmp(config, "WORK=1,", 7) && strstr(config, "BUG=0") != NULL;
}

static void test_order(void)
{
    vkat_instance *inst;
    uint32_t dev;
    vkat_space *space;
    if (!test_open_device_space(VKAT_SOURCE_DIR "/tests/data/tune/race.ini", "the runs", &inst, &dev, &space))
        return;
    CHECK(space->param_count <= 16);
    char tmp[] = "/tmp/vkat-test-order-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    char path[300];
    snprintf(path, sizeof path, "%s/order.db", tmp);
    vkat_error err = {0};
    vkat_store *st = NULL;
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);

    /* Exhaustive proposes in index order: the first proposal is configuration 0 (WORK=1, the true winner). */
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.jobs = 2;
    opts.timing.warmup_s = opts.timing.min_warmup_s = 0.3; /* fixed: never waived */
    opts.timing.repetitions = 3;
    vkat_tune_report rep;
    vkat_result r = run(space, inst, dev, st, &opts, NULL, &rep, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    uint64_t all = rep.totals.evaluated;
    CHECK(all == 16);
    CHECK_MSG(true_winner(rep.totals.best_config), "winner %s", rep.totals.best_config);

    /* Default: the 15 answered from the database reach the strategy while the first is still being measured. */
    order_log log = {0};
    opts.progress = on_progress;
    opts.progress_user = &log;
    CHECK(abort_first(space, st, &rep.key));
    r = run(space, inst, dev, st, &opts, NULL, &rep, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    CHECK(rep.totals.evaluated == all && rep.totals.resumed == all - 1);
    CHECK_MSG(log.first_measured_at == all,
              "the measured variant reached the strategy as evaluation %llu of %llu: "
              "results finished after it waited for it",
              (unsigned long long)log.first_measured_at, (unsigned long long)all);
    CHECK_MSG(true_winner(rep.totals.best_config), "winner %s", rep.totals.best_config);

    /* The deterministic mode: in proposal order, the first proposal first, whatever finished before it. */
    const char *ordered[] = {"VKAT_REPORT_IN_ORDER", "VKAT_MEASURE_IN_ORDER"};
    for (int m = 0; m < 2; m++) {
        memset(&log, 0, sizeof log);
        CHECK(abort_first(space, st, &rep.key));
        r = run(space, inst, dev, st, &opts, ordered[m], &rep, &err);
        CHECK_MSG(r == VKAT_OK, "%s", err.message);
        CHECK(rep.totals.evaluated == all && rep.totals.resumed == all - 1);
        CHECK_MSG(log.first_measured_at == 1, "%s=1: the measured variant reached the strategy as evaluation %llu",
                  ordered[m], (unsigned long long)log.first_measured_at);
        CHECK_MSG(true_winner(rep.totals.best_config), "winner %s", rep.totals.best_config);
    }

    /* What is stored does not depend on the order: one row per configuration, the first measured again as ok. */
    vkat_row *rows = NULL;
    size_t n = 0;
    CHECK(vkat_store_rows(st, &rep.key, 1, &rows, &n, &err) == VKAT_OK && n == all);
    for (size_t i = 0; i < n; i++)
        CHECK_MSG(rows[i].status != VKAT_STATUS_ABORTED, "%s is still aborted", rows[i].config);

    /* A raced-out row is never the best shown, even when its partial median is below every full measurement (a
     * row resumed from the database, raced out in an earlier run, against this run's noisier full measurement of
     * the row that raced it out): in either order. */
    size_t fast = n, ok_best = n;
    for (size_t i = 0; i < n; i++)
        if (rows[i].status == VKAT_STATUS_OK && (ok_best == n || rows[i].median_s < rows[ok_best].median_s))
            ok_best = i;
    for (size_t i = 0; i < n; i++)
        if (fast == n && i != ok_best && (rows[i].status == VKAT_STATUS_OK || rows[i].status == VKAT_STATUS_RACED))
            fast = i;
    CHECK(fast < n && ok_best < n && fast != ok_best);
    if (fast < n && ok_best < n && fast != ok_best) {
        vkat_row raced = rows[fast];
        raced.status = VKAT_STATUS_RACED;
        raced.median_s = raced.min_s = rows[ok_best].median_s / 100;
        raced.race_bound_s = rows[ok_best].median_s;
        CHECK(vkat_store_put(st, &raced, &err) == VKAT_OK);
        for (int m = 0; m < 2; m++) {
            r = run(space, inst, dev, st, &opts, m ? ordered[0] : NULL, &rep, &err);
            CHECK_MSG(r == VKAT_OK, "%s", err.message);
            CHECK(rep.totals.evaluated == all && rep.totals.resumed == all && rep.totals.raced >= 1);
            CHECK_MSG(
                rep.totals.best_s == rows[ok_best].median_s && !strcmp(rep.totals.best_config, rows[ok_best].config),
                "%s: best shown %g ms (%s), the best full measurement %g ms (%s)", m ? "in order" : "as finished",
                rep.totals.best_s * 1e3, rep.totals.best_config, rows[ok_best].median_s * 1e3, rows[ok_best].config);
        }
    }
    free(rows);

    vkat_store_close(st);
    test_close_device_space(space, inst, tmp);
}

int main(void)
{
    test_order();
    TEST_END();
}
