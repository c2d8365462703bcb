/* test_race.c — racing: the decision rules on made-up samples, then whole runs on the default device (lavapipe in
 * CI) over tests/data/tune/race.ini, a small exhaustive space whose true winner (WORK=1) is known, with a
 * wrong-but-fastest variant measured first: racing (with the adaptive warm-up) keeps the true winner, the wrong
 * variant never sets the bound, every raced-out row says what it was cut at, and resume keeps raced rows with
 * racing and measures them again without it. */
#include "race.h"
#include "test.h"
#include "test_device_space.h"
#include "tune.h"

#include <unistd.h>

static void test_rules(void)
{
    vkat_race_opts o = vkat_race_defaults(NULL, 10);
    CHECK(o.min_samples == 2 && o.spread_k == 3 && o.margin == 0.02 && o.first_factor == 1.5);
    CHECK(o.tolerance == 0.01 && o.max_repetitions == 30);

    /* Nothing measured yet: nothing is cut, and a variant takes its repetitions. */
    double slow[] = {9.0};
    CHECK(vkat_race_decide(&o, INFINITY, slow, 1, 10) == VKAT_RACE_CONTINUE);
    CHECK(vkat_race_decide(&o, 1.0, slow, 0, 10) == VKAT_RACE_CONTINUE);
    /* One sample: only a clear factor cuts. */
    double one_a[] = {2.0}, one_b[] = {1.4};
    CHECK(vkat_race_decide(&o, 1.0, one_a, 1, 10) == VKAT_RACE_CUT);
    CHECK(vkat_race_decide(&o, 1.0, one_b, 1, 10) == VKAT_RACE_CONTINUE);
    /* Two samples: the measured spread decides. Tight samples 10% behind are out; the same least sample with a
     * wide spread is not. */
    double tight[] = {1.10, 1.12}, wide[] = {1.10, 1.50};
    CHECK(vkat_race_decide(&o, 1.0, tight, 2, 10) == VKAT_RACE_CUT);
    CHECK(vkat_race_decide(&o, 1.0, wide, 2, 10) == VKAT_RACE_CONTINUE);
    CHECK(fabs(vkat_race_lower(&o, tight, 2) - (1.10 - 0.03)) < 1e-12);
    /* Within the margin of the bound: a contender. */
    double close[] = {1.01, 1.01};
    CHECK(vkat_race_decide(&o, 1.0, close, 2, 10) == VKAT_RACE_CONTINUE);
    CHECK(vkat_race_upper(&o, 1.0, 0) == 1.02);
    CHECK(fabs(vkat_race_upper(&o, 1.0, 0.1) - 1.3) < 1e-12);

    /* Contenders: done at the repetitions when the median is stable, more samples while it is not, and never
     * beyond the cap. */
    double stable[30], noisy[30];
    for (int i = 0; i < 30; i++) {
        stable[i] = 1.0 + 0.001 * (i % 3);
        noisy[i] = 1.0 + 0.2 * (i % 4);
    }
    CHECK(vkat_race_decide(&o, INFINITY, stable, 9, 10) == VKAT_RACE_CONTINUE);
    CHECK(vkat_race_decide(&o, INFINITY, stable, 10, 10) == VKAT_RACE_DONE);
    CHECK(vkat_race_decide(&o, INFINITY, noisy, 10, 10) == VKAT_RACE_CONTINUE);
    CHECK(vkat_race_decide(&o, INFINITY, noisy, 30, 10) == VKAT_RACE_DONE);

    /* Off: the repetitions, and nothing is cut. */
    vkat_race_opts off = o;
    off.disabled = 1;
    CHECK(vkat_race_decide(&off, 1.0, one_a, 1, 10) == VKAT_RACE_CONTINUE);
    CHECK(vkat_race_decide(&off, 1.0, noisy, 10, 10) == VKAT_RACE_DONE);

    /* The shared bound: the least upper bound offered; nonsense is ignored. */
    vkat_race_bound b;
    vkat_race_bound_init(&b);
    CHECK(isinf(vkat_race_bound_get(&b)));
    vkat_race_bound_offer(&b, &o, 2.0, 0);
    vkat_race_bound_offer(&b, &o, 1.0, 0.1);
    vkat_race_bound_offer(&b, &o, 3.0, 0);
    vkat_race_bound_offer(&b, &o, NAN, 0);
    vkat_race_bound_offer(&b, &o, 0, 0);
    CHECK(fabs(vkat_race_bound_get(&b) - 1.3) < 1e-12);
    vkat_race_bound_destroy(&b);

    /* The checked run alone: only far behind (past 10x the bound) and only right after a busy GPU (an idle one may
     * have dropped its clocks), never before a bound exists, without a GPU time, or without racing. */
    CHECK(o.check_factor == 10 && o.check_gap_s == 0.05);
    CHECK(vkat_race_check_cut(&o, 1.0, 10.5, 0.001));
    CHECK(!vkat_race_check_cut(&o, 1.0, 9.5, 0.001));
    CHECK(!vkat_race_check_cut(&o, 1.0, 50.0, 0.2));
    CHECK(!vkat_race_check_cut(&o, INFINITY, 50.0, 0.001));
    CHECK(!vkat_race_check_cut(&o, 1.0, NAN, 0.001));
    vkat_race_opts unraced = o;
    unraced.disabled = 1;
    CHECK(!vkat_race_check_cut(&unraced, 1.0, 50.0, 0.001));
    vkat_race_opts nocheck = {0};
    nocheck.check_factor = -1;
    nocheck = vkat_race_defaults(&nocheck, 10);
    CHECK(!vkat_race_check_cut(&nocheck, 1.0, 50.0, 0.001));
}

static int count_status(vkat_store *st, const vkat_row *key, vkat_status s)
{
    uint64_t counts[VKAT_STATUS_COUNT] = {0};
    vkat_error err;
    if (vkat_store_counts(st, key, counts, &err) != VKAT_OK)
        return -1;
    return (int)counts[s];
}

/* The lower bound a stored raced-out row was cut with, from its stored samples' figures. */
static double stored_lower(const vkat_race_opts *o, const vkat_row *r)
{
    return r->samples < o->min_samples ? r->min_s / o->first_factor
                                       : r->min_s - fmax(o->spread_k * r->mad_s, o->margin * r->min_s);
}

/* Progress: the run's last call, and only it, says done (the CLI ends its one live line there). */
typedef struct progress_count {
    unsigned calls, done;
    uint64_t raced_seen;
} progress_count;

static void count_progress(void *user, const vkat_tune_progress *p)
{
    progress_count *c = user;
    c->calls++;
    c->done += p->done != 0;
    c->raced_seen = p->raced;
}

static void test_runs(void)
{
    vkat_instance *inst;
    uint32_t dev;
    vkat_space *space;
    if (!test_open_device_space(VKAT_SOURCE_DIR "/tests/data/tune/race.ini", "the racing runs", &inst, &dev, &space))
        return;
    vkat_error err = {0};
    char tmp[] = "/tmp/vkat-test-race-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    char full_db[256], race_db[256];
    snprintf(full_db, sizeof full_db, "%s/full.db", tmp);
    snprintf(race_db, sizeof race_db, "%s/race.db", tmp);

    /* The wrong variant that skips all the work goes first, so it is the fastest thing measured before any
     * correct one: were it to set the bound, every correct variant would be raced out. */
    const char *starts[] = {"WORK=1,WG=64,BUG=1"};
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.timing.warmup_s = 0.01;
    opts.timing.repetitions = 6;
    opts.starts = starts;
    opts.start_count = 1;

    /* Full measurement, for the true winner. */
    vkat_store *full = NULL, *race = NULL;
    CHECK(vkat_store_open(full_db, &full, &err) == VKAT_OK && vkat_store_open(race_db, &race, &err) == VKAT_OK);
    vkat_tune_opts fo = opts;
    fo.race.disabled = 1;
    vkat_tune_report frep, rrep;
    CHECK(vkat_tune_device(space, inst, dev, full, &fo, &frep, &err) == VKAT_OK);
    CHECK(!frep.race && frep.totals.raced == 0 && count_status(full, &frep.key, VKAT_STATUS_OK) == 8);
    vkat_row fbest[8];
    size_t nf = 0;
    CHECK(vkat_store_best(full, &frep.key, fbest, 8, &nf, &err) == VKAT_OK && nf == 8);

    /* Raced, with the adaptive warm-up the default path has (until the times stop falling, here 5-50 ms). */
    progress_count pc = {0};
    vkat_tune_opts po = opts;
    po.timing.warmup_s = 0.05;
    po.timing.min_warmup_s = 0.005;
    po.progress = count_progress;
    po.progress_user = &pc;
    setenv("VKAT_WARMUP_BUSY_GAP", "0", 1); /* each warm-up its minimum, as asserted below (test_busy_warmup.c) */
    CHECK(vkat_tune_device(space, inst, dev, race, &po, &rrep, &err) == VKAT_OK);
    unsetenv("VKAT_WARMUP_BUSY_GAP");
    CHECK_MSG(pc.done == 1 && pc.calls == 17, "%u calls, %u of them done", pc.calls, pc.done);
    CHECK(pc.raced_seen == rrep.totals.raced);
    CHECK(rrep.race && rrep.totals.evaluated == 16);
    /* Warmed up: the eight correct variants (the wrong ones are never timed), each for 5 ms at least. */
    CHECK_MSG(rrep.times.warmup >= 8 * 0.005 && rrep.times.warmup <= rrep.times.measure &&
                  rrep.times.warmup_capped <= 8,
              "warm-up %g s of measure %g s, %llu capped", rrep.times.warmup, rrep.times.measure,
              (unsigned long long)rrep.times.warmup_capped);
    CHECK(count_status(race, &rrep.key, VKAT_STATUS_WRONG) == 8); /* every BUG=1 caught before it was timed */
    int raced = count_status(race, &rrep.key, VKAT_STATUS_RACED);
    CHECK_MSG(raced > 0 && (uint64_t)raced == rrep.totals.raced, "raced %d, reported %llu", raced,
              (unsigned long long)rrep.totals.raced);
    vkat_row rbest[8];
    size_t nr = 0;
    CHECK(vkat_store_best(race, &rrep.key, rbest, 8, &nr, &err) == VKAT_OK && nr >= 1 && nr + raced == 8);
    if (nr >= 1 && nf >= 1) {
        /* The true winner class: WORK=1 does half the work of anything else. (Whether it is the same variant as the
         * full measurement's, within its spread, is for bench/race.py on a quiet GPU: on a shared CPU the two
         * WORK=1 variants' order is noise.) */
        CHECK_MSG(strstr(rbest[0].config, "WORK=1,") && strstr(rbest[0].config, "BUG=0"), "winner %s",
                  rbest[0].config);
        CHECK(rbest[0].samples >= opts.timing.repetitions && rbest[0].race_bound_s == 0);
        vkat_race_opts ro = vkat_race_defaults(NULL, opts.timing.repetitions);
        /* Every raced-out row: cut by a bound no lower than a correct full measurement (so not the wrong
         * variant's), its lower bound past it, the reason saying so. */
        vkat_row *all = NULL;
        size_t na = 0;
        CHECK(vkat_store_rows(race, &rrep.key, 1, &all, &na, &err) == VKAT_OK);
        for (size_t i = 0; i < na; i++) {
            if (all[i].status != VKAT_STATUS_RACED)
                continue;
            CHECK_MSG(all[i].race_bound_s >= rbest[0].median_s, "%s cut at %g, best %g", all[i].config,
                      all[i].race_bound_s, rbest[0].median_s);
            CHECK_MSG(stored_lower(&ro, &all[i]) > all[i].race_bound_s, "%s", all[i].config);
            CHECK(strstr(all[i].config, "BUG=0") && all[i].samples >= 1 && all[i].median_s > 0);
            CHECK_MSG(strstr(all[i].reason, "raced out after") || strstr(all[i].reason, "raced out by its checked run"),
                      "%s", all[i].reason);
        }
        free(all);
    }

    /* Resume with racing: nothing measured again. Without racing: the raced-out rows, in full. */
    vkat_tune_report again;
    CHECK(vkat_tune_device(space, inst, dev, race, &opts, &again, &err) == VKAT_OK);
    CHECK(again.totals.evaluated == 16 && again.totals.resumed == 16 && again.totals.raced == (uint64_t)raced);
    CHECK(vkat_tune_device(space, inst, dev, race, &fo, &again, &err) == VKAT_OK);
    CHECK_MSG(again.totals.resumed == 16 - (uint64_t)raced, "resumed %llu", (unsigned long long)again.totals.resumed);
    CHECK(count_status(race, &rrep.key, VKAT_STATUS_RACED) == 0 && count_status(race, &rrep.key, VKAT_STATUS_OK) == 8);

    vkat_store_close(full);
    vkat_store_close(race);
    test_close_device_space(space, inst, tmp);
}

int main(void)
{
    test_rules();
    test_runs();
    TEST_END();
}
