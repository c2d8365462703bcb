/* search_run.c — the search driver: the one loop between a strategy and whatever measures (the live tuner's GPU,
 * or a recorded table in replay). It owns the rules every strategy shares: deduplication, free constraint checks,
 * the evaluation and time budgets, evaluations in flight, shards (other shards' configurations are skipped), and
 * when to stop. It never measures, prints or stores: the hooks do that. */
#include "search.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Map tags: the state in the low two bits, and for a pending evaluation the number of extra proposals of the same
 * configuration waiting for its answer in the rest. */
enum { SEEN_DONE = 0, SEEN_PENDING = 1, SEEN_INVALID = 2 };

const char *vkat_search_stop_name(vkat_search_stop s)
{
    switch (s) {
    case VKAT_STOP_BUDGET: return "budget";
    case VKAT_STOP_TIME: return "time";
    case VKAT_STOP_EXHAUSTED: return "exhausted";
    case VKAT_STOP_CONVERGED: return "converged";
    case VKAT_STOP_INTERRUPTED: return "interrupted";
    default: return "none";
    }
}

static vkat_result hook_failed(const vkat_search_hooks *h, vkat_error *err, const char *what)
{
    if (h->error && err) {
        h->error(h->user, err);
        if (err->code != VKAT_OK)
            return err->code;
    }
    return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "search: %s failed", what);
}

/* One run's state between the driver's steps. */
typedef struct run_state {
    vkat_strategy *strategy;
    const vkat_search_space *sp;
    const vkat_search_hooks *hooks;
    const vkat_search_limits *limits;
    vkat_search_stats *stats;
    vkat_index_map seen;
    uint32_t *choice;
    double start;
    uint64_t budget, patience, in_flight, idle;
    uint32_t window;
} run_state;

/* Why no more configurations should be proposed now (VKAT_STOP_NONE: go on); the strategy itself says exhausted
 * when its propose fails. */
static vkat_search_stop stop_before_proposing(const run_state *s)
{
    const vkat_search_limits *l = s->limits;
    uint64_t taken = s->stats->evaluated + s->in_flight;
    if (l->valid_count && taken >= l->valid_count)
        return VKAT_STOP_EXHAUSTED; /* every valid configuration is measured or in flight */
    if (taken >= s->budget)
        return VKAT_STOP_BUDGET;
    if (l->budget_s > 0 && vkat_now() - s->start >= l->budget_s)
        return VKAT_STOP_TIME;
    if (l->stop && *l->stop)
        return VKAT_STOP_INTERRUPTED;
    if (s->idle >= s->patience)
        return VKAT_STOP_CONVERGED;
    return VKAT_STOP_NONE;
}

/* Takes the configuration in s->choice, just proposed: answers it from memory, skips it (another shard's, or
 * invalid: both cost nothing), or submits it. */
static vkat_result offer(run_state *s, vkat_error *err)
{
    vkat_search_stats *stats = s->stats;
    stats->proposed++;
    uint64_t index = vkat_search_encode(s->sp, s->choice);
    size_t slot = vkat_index_map_find(&s->seen, index);
    if (slot != SIZE_MAX) {
        stats->duplicates++;
        s->idle++;
        uint32_t state = s->seen.tags[slot] & 3;
        if (state == SEEN_PENDING)
            s->seen.tags[slot] += 4; /* answered when the evaluation completes */
        else
            vkat_strategy_observe(s->strategy, s->choice, state == SEEN_DONE ? s->seen.values[slot] : INFINITY);
        return VKAT_OK;
    }
    int in_shard = vkat_search_in_shard(s->sp, index);
    int valid = 0;
    if (in_shard && (valid = s->hooks->check(s->hooks->user, s->choice)) < 0)
        return hook_failed(s->hooks, err, "the constraint check");
    if (vkat_index_map_put(&s->seen, index, INFINITY, valid ? SEEN_PENDING : SEEN_INVALID, NULL) == SIZE_MAX)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!valid) {
        /* Another shard's is neither invalid nor evaluated here. */
        if (in_shard)
            stats->invalid++;
        else
            stats->other_shard++;
        s->idle++;
        vkat_strategy_observe(s->strategy, s->choice, INFINITY);
        return VKAT_OK;
    }
    s->idle = 0;
    if (s->hooks->submit(s->hooks->user, s->choice) != VKAT_OK)
        return hook_failed(s->hooks, err, "submitting an evaluation");
    s->in_flight++;
    return VKAT_OK;
}

/* Waits for one evaluation in flight and tells the strategy (once per proposal that waited for it) and the counts. */
static vkat_result complete_one(run_state *s, vkat_search_progress_fn progress, void *progress_user, vkat_error *err)
{
    vkat_search_stats *stats = s->stats;
    double seconds = INFINITY;
    int resumed = 0;
    if (s->hooks->complete(s->hooks->user, s->choice, &seconds, &resumed) != VKAT_OK)
        return hook_failed(s->hooks, err, "an evaluation");
    s->in_flight--;
    if (isnan(seconds) || seconds <= 0)
        seconds = INFINITY;
    uint64_t index = vkat_search_encode(s->sp, s->choice);
    size_t slot = vkat_index_map_find(&s->seen, index);
    if (slot == SIZE_MAX || (s->seen.tags[slot] & 3) != SEEN_PENDING)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "search: an evaluation completed that was not submitted");
    uint32_t waiters = s->seen.tags[slot] >> 2;
    s->seen.tags[slot] = SEEN_DONE;
    s->seen.values[slot] = seconds;
    if (resumed == 2) {
        /* Dropped unmeasured: the strategy hears of it, the counts do not. */
        stats->dropped++;
        for (uint32_t w = 0; w <= waiters; w++)
            vkat_strategy_observe(s->strategy, s->choice, INFINITY);
        return VKAT_OK;
    }
    stats->evaluated++;
    stats->resumed += resumed != 0;
    if (isinf(seconds))
        stats->failed++;
    else if (seconds < stats->best_s) {
        stats->best_s = seconds;
        if (stats->best_choice)
            memcpy(stats->best_choice, s->choice, s->sp->param_count * sizeof *s->choice);
    }
    for (uint32_t w = 0; w <= waiters; w++)
        vkat_strategy_observe(s->strategy, s->choice, seconds);
    stats->last_evaluated = index;
    stats->last_s = seconds;
    stats->elapsed_s = vkat_now() - s->start;
    if (progress)
        progress(progress_user, stats);
    return VKAT_OK;
}

vkat_result vkat_search_run(vkat_strategy *strategy, const vkat_search_hooks *hooks, const vkat_search_limits *limits,
                            vkat_search_progress_fn progress, void *progress_user, vkat_search_stats *stats,
                            vkat_error *err)
{
    uint32_t *best = stats->best_choice;
    memset(stats, 0, sizeof *stats);
    stats->best_choice = best;
    stats->best_s = INFINITY;
    run_state s = {
        .strategy = strategy, .sp = &strategy->space, .hooks = hooks, .limits = limits, .stats = stats,
        .budget = limits->budget ? limits->budget : UINT64_MAX,
        .window = limits->window ? limits->window : 1,
        .patience = limits->patience ? limits->patience : 100000,
    };
    size_t np = s.sp->param_count;
    vkat_result r = VKAT_OK;
    if (!(s.choice = malloc((np ? np : 1) * sizeof *s.choice))) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    s.start = vkat_now();
    int proposing = 1;
    for (;;) {
        /* Fill the window. Proposals answered from memory or found invalid cost nothing, so they loop here. */
        while (proposing && s.in_flight < s.window) {
            vkat_search_stop stop = stop_before_proposing(&s);
            if (stop == VKAT_STOP_NONE && !vkat_strategy_propose(strategy, s.choice))
                stop = VKAT_STOP_EXHAUSTED;
            if (stop != VKAT_STOP_NONE) {
                stats->stop = stop;
                proposing = 0;
                break;
            }
            if ((r = offer(&s, err)) != VKAT_OK)
                goto cleanup;
        }
        if (!s.in_flight)
            break;
        if ((r = complete_one(&s, progress, progress_user, err)) != VKAT_OK)
            goto cleanup;
    }
    stats->elapsed_s = vkat_now() - s.start;
    stats->final = 1;
    if (progress)
        progress(progress_user, stats);

cleanup:
    vkat_index_map_free(&s.seen);
    free(s.choice);
    return r;
}
