/* api_replay.c — the public header's replay (vkat_replay_describe, vkat_replay_search): the recorded table
 * (search/replay.c) seen through an info struct, and one replayed search reported as plain data (the winner as
 * text), so that callers need neither the table's layout nor the search driver's statistics. */
#include "replay.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>

void vkat_replay_describe(const vkat_replay_table *table, vkat_replay_info *info)
{
    info->label = table->label;
    info->param_count = table->param_count;
    info->raw = table->raw_count;
    info->valid = table->valid;
    info->failed = table->failed;
    info->best_s = table->best_s;
    info->constraints = table->constraints_path;
    info->constraint_valid = table->constraint_valid;
    info->constrained_valid = table->constrained_valid;
    info->constrained_failed = table->constrained_failed;
    info->constraint_outside = table->constraint_outside;
    info->objective = table->objective;
    info->format = table->format;
    info->higher_is_better = table->higher_is_better;
    info->repaired = table->repaired;
    info->marked_invalid = table->marked_invalid;
    info->no_objective = table->no_objective;
}

vkat_result vkat_replay_search(const vkat_replay_table *table, const vkat_replay_desc *desc, const uint64_t *marks,
                               size_t mark_count, double *best_at, vkat_replay_result *result, vkat_error *err)
{
    vkat_replay_opts o = {0};
    o.strategy = desc->strategy;
    o.seed = desc->seed;
    o.budget = desc->budget;
    o.window = desc->window;
    o.charge_missing = desc->charge_missing;
    vkat_search_stats st = {0};
    uint32_t *best = NULL;
    if (result && !(best = st.best_choice = calloc(table->param_count ? table->param_count : 1, sizeof *best)))
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_result r = vkat_replay_run(table, &o, marks, mark_count, best_at, result ? &st : NULL, err);
    if (r == VKAT_OK && result) {
        result->best_s = st.best_s;
        result->config[0] = 0;
        if (isfinite(st.best_s))
            vkat_replay_format(table, best, result->config, sizeof result->config);
        result->proposed = st.proposed;
        result->invalid = st.invalid;
        result->duplicates = st.duplicates;
        result->evaluated = st.evaluated;
        result->failed = st.failed;
        result->stop = vkat_search_stop_name(st.stop);
    }
    free(best);
    return r;
}
