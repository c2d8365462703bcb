/* test_busy_warmup.c — the warm-up between back-to-back variants and the checked run's confirming dispatch
 * (session 10, issue #22 item 3): the rules of run/busy.h and run/first_dispatch.h on made-up times, then whole
 * runs on the default device (lavapipe in CI) over tests/data/tune/race.ini: a GPU kept busy waives the minimum
 * warm-up for every timed variant but the first, a fixed warm-up and VKAT_WARMUP_BUSY_GAP=0 never do. */
#include "busy.h"
#include "first_dispatch.h"
#include "test.h"
#include "test_device_space.h"
#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_busy_rule(void)
{
    vkat_busy b = {0};
    CHECK(!vkat_busy_warm(&b, 0.02, 0.05)); /* nothing ran yet */
    vkat_busy_ran(&b, 0.012);
    vkat_busy_idle(&b, 0.001, 0.05);
    CHECK(!vkat_busy_warm(&b, 0.02, 0.05)); /* 12 ms of load: not yet the minimum */
    vkat_busy_ran(&b, 0.009);
    CHECK(vkat_busy_warm(&b, 0.02, 0.05)); /* 21 ms with a 1 ms gap between */
    vkat_busy_idle(&b, 0.05, 0.05);
    CHECK(vkat_busy_warm(&b, 0.02, 0.05)); /* a gap of exactly the limit still counts as busy */
    CHECK(!vkat_busy_warm(&b, 0.02, 0));   /* the rule off */
    CHECK(!vkat_busy_warm(&b, 0.02, -1));
    vkat_busy_idle(&b, 0.051, 0.05);
    CHECK(!vkat_busy_warm(&b, 0.02, 0.05)); /* idled past the limit: the stretch starts again */
    vkat_busy_ran(&b, 0.03);
    vkat_busy_idle(&b, NAN, 0.05);
    CHECK(!vkat_busy_warm(&b, 0.02, 0.05)); /* an unknown gap is not a short one */
    vkat_busy_ran(&b, NAN);
    vkat_busy_ran(&b, -1);
    CHECK(b.load_s == 0); /* no timestamps, or a first dispatch's excess past its time: no load */
}

static void test_first_dispatch_rule(void)
{
    vkat_first_dispatch f = {0};
    /* Nothing learned: always confirm, however far past the cut. */
    CHECK(!vkat_first_dispatch_enough(&f, 1.0, 10, 1e-3));
    /* A driver that compiles when the pipeline is created: first dispatches within a few per cent of warm. */
    vkat_first_dispatch_note(&f, 3.3e-3, 3.2e-3, 0.001, 0.05);
    vkat_first_dispatch_note(&f, 5.0e-3, 5.1e-3, 0.001, 0.05); /* faster than its median: no excess */
    CHECK(!vkat_first_dispatch_enough(&f, 0.059, 10, 3.2e-3)); /* two seen: not yet */
    vkat_first_dispatch_note(&f, NAN, 3e-3, 0.001, 0.05);      /* no timestamps: not counted */
    vkat_first_dispatch_note(&f, 4e-3, 0, 0.001, 0.05);
    /* After an idle the clocks had fallen (the H200, session 10: 226 ms against 59 warm after 3.8 s): not a first
     * dispatch's cost, and the cut is never made after such a gap anyway. */
    vkat_first_dispatch_note(&f, 0.226, 0.059, 3.8, 0.05);
    vkat_first_dispatch_note(&f, 0.226, 0.059, NAN, 0.05);
    CHECK(f.seen == 2 && f.excess_s < 1e-3);
    vkat_first_dispatch_note(&f, 4.2e-3, 4.0e-3, 0.05, 0.05);
    CHECK(f.seen == 3 && fabs(f.excess_s - 2e-4) < 1e-12);
    CHECK(vkat_first_dispatch_enough(&f, 0.059, 10, 3.2e-3));   /* 58.8 ms > 32 ms: no second dispatch */
    CHECK(!vkat_first_dispatch_enough(&f, 0.0321, 10, 3.2e-3)); /* past the cut only by less than the excess */
    CHECK(!vkat_first_dispatch_enough(&f, 0.059, 10, INFINITY));
    CHECK(!vkat_first_dispatch_enough(&f, NAN, 10, 3.2e-3));
    CHECK(!vkat_first_dispatch_enough(&f, 0.059, 0, 3.2e-3)); /* the cut off */
    /* A driver that compiles at the first dispatch (lavapipe, session 8: 17.65 ms against 1.54 warm): the excess
     * is the compile, and only a run past the cut by more than it is taken alone. */
    vkat_first_dispatch_note(&f, 17.65e-3, 1.54e-3, 0.01, 0.05);
    CHECK(!vkat_first_dispatch_enough(&f, 17.65e-3, 10, 1.54e-3));
    CHECK(!vkat_first_dispatch_enough(&f, 0.03, 10, 1.54e-3));
    CHECK(vkat_first_dispatch_enough(&f, 0.035, 10, 1.54e-3));
}

static int count_checked_cuts(vkat_store *st, const vkat_row *key)
{
    vkat_row *all = NULL;
    size_t n = 0;
    vkat_error err = {0};
    if (vkat_store_rows(st, key, 1, &all, &n, &err) != VKAT_OK)
        return -1;
    int cuts = 0;
    for (size_t i = 0; i < n; i++)
        cuts += all[i].status == VKAT_STATUS_RACED && strstr(all[i].reason, "raced out by its checked run") != NULL;
    free(all);
    return cuts;
}

/* One run into a fresh database DIR/NAME.db with VKAT_WARMUP_BUSY_GAP=gap (NULL: unset). */
static int run(const vkat_space *space, vkat_instance *inst, uint32_t dev, const char *dir, const char *name,
               const vkat_tune_opts *opts, const char *gap, vkat_tune_report *rep, int *checked_cuts)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s.db", dir, name);
    vkat_error err = {0};
    vkat_store *st = NULL;
    if (vkat_store_open(path, &st, &err) != VKAT_OK)
        return 0;
    if (gap)
        setenv("VKAT_WARMUP_BUSY_GAP", gap, 1);
    else
        unsetenv("VKAT_WARMUP_BUSY_GAP");
    vkat_result r = vkat_tune_device(space, inst, dev, st, opts, rep, &err);
    unsetenv("VKAT_WARMUP_BUSY_GAP");
    CHECK_MSG(r == VKAT_OK, "%s: %s", name, err.message);
    *checked_cuts = r == VKAT_OK ? count_checked_cuts(st, &rep->key) : -1;
    vkat_store_close(st);
    return r == VKAT_OK;
}

static void test_runs(void)
{
    vkat_instance *inst;
    uint32_t dev;
    vkat_space *space;
    if (!test_open_device_space(VKAT_SOURCE_DIR "/tests/data/tune/race.ini", "the runs", &inst, &dev, &space))
        return;
    char tmp[] = "/tmp/vkat-test-busy-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);

    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.timing.warmup_s = 0.05;
    opts.timing.min_warmup_s = 0.005;
    opts.timing.repetitions = 6;
    vkat_tune_report rep;
    int cuts = 0;

    /* Every gap counts as busy (10 s): once one variant has been timed (a warm-up of at least the minimum and its
     * samples), the GPU has run the minimum's worth of load, so every timed variant after it has no minimum. The
     * first may have it waived too where the wrong variants' checked runs already ran that long. The eight correct
     * variants are timed (the BUG=1 ones are caught by the check), less those the checked run alone cut. */
    if (run(space, inst, dev, tmp, "busy", &opts, "10", &rep, &cuts)) {
        uint64_t timed = 8 - (uint64_t)cuts;
        CHECK_MSG(cuts >= 0 && rep.times.warmup_busy + 1 >= timed && rep.times.warmup_busy <= timed,
                  "%llu of %llu timed variants had no minimum warm-up", (unsigned long long)rep.times.warmup_busy,
                  (unsigned long long)timed);
    }
    /* The rule off: every variant has its minimum. */
    if (run(space, inst, dev, tmp, "off", &opts, "0", &rep, &cuts))
        CHECK_MSG(rep.times.warmup_busy == 0, "%llu waived with the rule off",
                  (unsigned long long)rep.times.warmup_busy);
    /* A fixed warm-up (minimum = maximum) is asked for as it is: never waived, whatever the gaps. */
    vkat_tune_opts fixed = opts;
    fixed.timing.min_warmup_s = fixed.timing.warmup_s = 0.01;
    if (run(space, inst, dev, tmp, "fixed", &fixed, "10", &rep, &cuts))
        CHECK_MSG(rep.times.warmup_busy == 0 && rep.times.warmup >= 0.01 * (8 - cuts), "%llu waived, %g s of warm-up",
                  (unsigned long long)rep.times.warmup_busy, rep.times.warmup);

    test_close_device_space(space, inst, tmp);
}

int main(void)
{
    test_busy_rule();
    test_first_dispatch_rule();
    test_runs();
    TEST_END();
}
