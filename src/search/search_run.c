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

vkat_result vkat_search_run(vkat_strategy *strategy, const vkat_search_hooks *hooks, const vkat_search_limits *limits,
                            vkat_search_progress_fn progress, void *progress_user, vkat_search_stats *stats,
                            vkat_error *err)
{
    const vkat_search_space *sp = &strategy->space;
    size_t np = sp->param_count;
    uint32_t *best = stats->best_choice;
    memset(stats, 0, sizeof *stats);
    stats->best_choice = best;
    stats->best_s = INFINITY;
    uint64_t budget = limits->budget ? limits->budget : UINT64_MAX;
    uint32_t window = limits->window ? limits->window : 1;
    uint64_t patience = limits->patience ? limits->patience : 100000;

    vkat_index_map seen = {0};
    uint32_t *choice = malloc((np ? np : 1) * sizeof *choice);
    vkat_result r = VKAT_OK;
    if (!choice) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    double start = vkat_now();
    uint64_t in_flight = 0, idle = 0;
    int proposing = 1;
    for (;;) {
        /* Fill the window. Proposals answered from memory or found invalid cost nothing, so they loop here. */
        while (proposing && in_flight < window) {
            if (limits->valid_count && stats->evaluated + in_flight >= limits->valid_count) {
                stats->stop = VKAT_STOP_EXHAUSTED; /* every valid configuration is measured or in flight */
                proposing = 0;
            } else if (stats->evaluated + in_flight >= budget) {
                stats->stop = VKAT_STOP_BUDGET;
                proposing = 0;
            } else if (limits->budget_s > 0 && vkat_now() - start >= limits->budget_s) {
                stats->stop = VKAT_STOP_TIME;
                proposing = 0;
            } else if (limits->stop && *limits->stop) {
                stats->stop = VKAT_STOP_INTERRUPTED;
                proposing = 0;
            } else if (idle >= patience) {
                stats->stop = VKAT_STOP_CONVERGED;
                proposing = 0;
            } else if (!vkat_strategy_propose(strategy, choice)) {
                stats->stop = VKAT_STOP_EXHAUSTED;
                proposing = 0;
            }
            if (!proposing)
                break;
            stats->proposed++;
            uint64_t index = vkat_search_encode(sp, choice);
            size_t slot = vkat_index_map_find(&seen, index);
            if (slot != SIZE_MAX) {
                stats->duplicates++;
                idle++;
                uint32_t state = seen.tags[slot] & 3;
                if (state == SEEN_PENDING)
                    seen.tags[slot] += 4; /* answered when the evaluation completes */
                else
                    vkat_strategy_observe(strategy, choice, state == SEEN_DONE ? seen.values[slot] : INFINITY);
                continue;
            }
            if (!vkat_search_in_shard(sp, index)) {
                /* Another shard's: costs nothing here, and is neither invalid nor evaluated. */
                if (vkat_index_map_put(&seen, index, INFINITY, SEEN_INVALID, NULL) == SIZE_MAX) {
                    r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
                    goto cleanup;
                }
                stats->other_shard++;
                idle++;
                vkat_strategy_observe(strategy, choice, INFINITY);
                continue;
            }
            int valid = hooks->check(hooks->user, choice);
            if (valid < 0) {
                r = hook_failed(hooks, err, "the constraint check");
                goto cleanup;
            }
            if (vkat_index_map_put(&seen, index, INFINITY, valid ? SEEN_PENDING : SEEN_INVALID, NULL) == SIZE_MAX) {
                r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
                goto cleanup;
            }
            if (!valid) {
                stats->invalid++;
                idle++;
                vkat_strategy_observe(strategy, choice, INFINITY);
                continue;
            }
            idle = 0;
            if ((r = hooks->submit(hooks->user, choice)) != VKAT_OK) {
                r = hook_failed(hooks, err, "submitting an evaluation");
                goto cleanup;
            }
            in_flight++;
        }
        if (!in_flight)
            break;
        double seconds = INFINITY;
        int resumed = 0;
        if ((r = hooks->complete(hooks->user, choice, &seconds, &resumed)) != VKAT_OK) {
            r = hook_failed(hooks, err, "an evaluation");
            goto cleanup;
        }
        in_flight--;
        if (isnan(seconds) || seconds <= 0)
            seconds = INFINITY;
        uint64_t index = vkat_search_encode(sp, choice);
        size_t slot = vkat_index_map_find(&seen, index);
        uint32_t waiters = 0;
        if (slot == SIZE_MAX || (seen.tags[slot] & 3) != SEEN_PENDING) {
            r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "search: an evaluation completed that was not submitted");
            goto cleanup;
        }
        waiters = seen.tags[slot] >> 2;
        seen.tags[slot] = SEEN_DONE;
        seen.values[slot] = seconds;
        if (resumed == 2) {
            /* Dropped unmeasured: the strategy hears of it, the counts do not. */
            stats->dropped++;
            for (uint32_t w = 0; w <= waiters; w++)
                vkat_strategy_observe(strategy, choice, INFINITY);
            continue;
        }
        stats->evaluated++;
        stats->resumed += resumed != 0;
        if (isinf(seconds))
            stats->failed++;
        else if (seconds < stats->best_s) {
            stats->best_s = seconds;
            if (stats->best_choice)
                memcpy(stats->best_choice, choice, np * sizeof *choice);
        }
        for (uint32_t w = 0; w <= waiters; w++)
            vkat_strategy_observe(strategy, choice, seconds);
        stats->last_evaluated = index;
        stats->last_s = seconds;
        stats->elapsed_s = vkat_now() - start;
        if (progress)
            progress(progress_user, stats);
    }
    stats->elapsed_s = vkat_now() - start;
    stats->final = 1;
    if (progress)
        progress(progress_user, stats);

cleanup:
    vkat_index_map_free(&seen);
    free(choice);
    return r;
}
