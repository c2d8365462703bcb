/* test_search_run.c — the search driver's shared rules, for every strategy: start points (vkat_strategy_set_starts)
 * are measured first, in order, then the search goes on without measuring anything twice, and a start at the
 * optimum makes it the run's best; a search that knows how many configurations are valid stops as soon as all are
 * measured (VKAT_STOP_EXHAUSTED), instead of proposing duplicates until its patience runs out. */
#include "search.h"
#include "test.h"

#define NP 3
#define BUDGET 40

typedef struct harness {
    uint32_t order[BUDGET + 8][NP]; /* submitted configurations, in order */
    size_t submitted, completed;
} harness;

/* A bowl with its minimum at (7, 2, 5) and a constraint removing a diagonal, so the oracle's answers matter too. */
static double score(const uint32_t *c)
{
    double a = (double)c[0] - 7, b = (double)c[1] - 2, d = (double)c[2] - 5;
    return 1.0 + a * a + b * b + d * d;
}

static int check(void *user, const uint32_t *c)
{
    (void)user;
    return c[0] != c[1];
}

static vkat_result submit(void *user, const uint32_t *c)
{
    harness *h = user;
    if (h->submitted < BUDGET + 8)
        memcpy(h->order[h->submitted], c, sizeof h->order[0]);
    h->submitted++;
    return VKAT_OK;
}

static vkat_result complete(void *user, uint32_t *choice_out, double *seconds, int *resumed)
{
    harness *h = user;
    memcpy(choice_out, h->order[h->completed++], sizeof h->order[0]);
    *seconds = score(choice_out);
    *resumed = 0;
    return VKAT_OK;
}

static void run_with_starts(const char *name)
{
    static const size_t counts[NP] = {10, 6, 8};
    vkat_search_space sp = {NP, counts, 10 * 6 * 8};
    const uint32_t starts[3][NP] = {{1, 5, 0}, {7, 2, 5}, {3, 3, 3}}; /* the last is invalid: counted, not run */
    vkat_strategy *s = NULL;
    vkat_error err = {0};
    CHECK(vkat_strategy_create(name, &sp, 11, &s, &err) == VKAT_OK);
    if (!s)
        return;
    CHECK(vkat_strategy_set_starts(s, &starts[0][0], 3, &err) == VKAT_OK);
    harness h = {0};
    uint32_t best[NP];
    vkat_search_stats st = {0};
    st.best_choice = best;
    vkat_search_hooks hooks = {&h, check, submit, complete, NULL};
    vkat_search_limits limits = {BUDGET, 0, 1, 0, NULL};
    CHECK(vkat_search_run(s, &hooks, &limits, NULL, NULL, &st, &err) == VKAT_OK);
    CHECK_MSG(h.submitted >= 2 && !memcmp(h.order[0], starts[0], sizeof starts[0]) &&
                  !memcmp(h.order[1], starts[1], sizeof starts[1]),
              "%s: the starts were not measured first", name);
    CHECK_MSG(st.evaluated == BUDGET && h.submitted == BUDGET, "%s: %llu evaluated, %zu submitted", name,
              (unsigned long long)st.evaluated, h.submitted);
    CHECK_MSG(st.invalid >= 1, "%s: the invalid start was not counted", name);
    int twice = 0;
    for (size_t i = 0; i < h.submitted && i < BUDGET; i++)
        for (size_t j = 0; j < i; j++)
            twice |= !memcmp(h.order[i], h.order[j], sizeof h.order[0]);
    CHECK_MSG(!twice, "%s: a configuration was measured twice", name);
    CHECK_MSG(st.best_s == 1.0 && !memcmp(best, starts[1], sizeof best), "%s: best %g", name, st.best_s);
    vkat_strategy_destroy(s);
}

/* A budget far beyond the space: with the valid count known, the run ends when the last valid one is measured. */
static void stops_when_exhausted(const char *name)
{
    static const size_t counts[NP] = {4, 3, 3}; /* 36 raw, 27 valid (check removes c[0] == c[1]) */
    vkat_search_space sp = {NP, counts, 36};
    vkat_strategy *s = NULL;
    vkat_error err = {0};
    CHECK(vkat_strategy_create(name, &sp, 3, &s, &err) == VKAT_OK);
    if (!s)
        return;
    harness h = {0};
    vkat_search_stats st = {0};
    vkat_search_hooks hooks = {&h, check, submit, complete, NULL};
    vkat_search_limits limits = {BUDGET + 8, 0, 1, 0, NULL, 27};
    CHECK(vkat_search_run(s, &hooks, &limits, NULL, NULL, &st, &err) == VKAT_OK);
    CHECK_MSG(st.stop == VKAT_STOP_EXHAUSTED && st.evaluated == 27, "%s: stop %s after %llu evaluated", name,
              vkat_search_stop_name(st.stop), (unsigned long long)st.evaluated);
    CHECK_MSG(st.proposed < 5000, "%s: %llu proposals for a space of 36", name, (unsigned long long)st.proposed);
    vkat_strategy_destroy(s);
}

int main(void)
{
    for (size_t i = 0; vkat_strategies[i]; i++) {
        run_with_starts(vkat_strategies[i]->name);
        stops_when_exhausted(vkat_strategies[i]->name);
    }

    /* Replacing the starts with none leaves the strategy's own order (exhaustive: index 0 first). */
    static const size_t counts[NP] = {10, 6, 8};
    vkat_search_space sp = {NP, counts, 480};
    vkat_strategy *s = NULL;
    vkat_error err = {0};
    const uint32_t one[NP] = {9, 5, 7};
    uint32_t c[NP];
    CHECK(vkat_strategy_create("exhaustive", &sp, 0, &s, &err) == VKAT_OK);
    CHECK(vkat_strategy_set_starts(s, one, 1, &err) == VKAT_OK);
    CHECK(vkat_strategy_propose(s, c) && !memcmp(c, one, sizeof c));
    CHECK(vkat_strategy_set_starts(s, NULL, 0, &err) == VKAT_OK);
    CHECK(vkat_strategy_propose(s, c) && c[0] == 0 && c[1] == 0 && c[2] == 0);
    vkat_strategy_destroy(s);
    TEST_END();
}
