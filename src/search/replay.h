/* replay.h — internal: recorded tuning spaces (Kernel Tuner cache files, the project's own results database) and
 * replaying a search strategy against them through the search driver, with the table in place of the GPU. */
#ifndef VKAT_REPLAY_H
#define VKAT_REPLAY_H

#include "search.h"

typedef struct vkat_replay_table {
    char *path;
    char *label;            /* file name, or "kernel problem on device" for a database */
    size_t param_count;
    char **param_names;     /* [param_count] */
    size_t *value_counts;   /* [param_count] */
    char ***values;         /* [param_count][value_count]: the values as written */
    uint8_t *categorical;   /* [param_count]: values are not numbers */
    uint64_t raw_count;
    vkat_index_map scores;  /* encoded configuration -> seconds; INFINITY = failed when evaluated; absent = invalid */
    uint64_t valid, failed; /* entries with a score, entries that failed */
    double best_s;          /* the best score: seconds for time, else the objective (its reciprocal when maximized) */
    char *objective;        /* "time" or the metric scored (vkat_replay_load_desc) */
    int time;               /* objective is time: scores are seconds */
    int higher_is_better;   /* scores are the reciprocals of the objective's values */
    char *format;           /* "Kernel Tuner cache", "T4 results", "vkautotune database" */
    uint64_t marked_invalid; /* entries marked InvalidConfig (T4: invalidity "constraints"): missing */
    uint64_t no_objective;  /* entries without the objective: missing */
    int repaired;           /* a cache that was not closed, read as Kernel Tuner reads it */
    /* The kernel's constraints (vkat_replay_constrain), when given: what a live run rules out before compiling.
     * NULL bits = none; else bit k of the encoded configuration k is set when it passes them. */
    char *constraints_path;
    uint8_t *constraint_bits;
    uint64_t constraint_valid;                      /* raw configurations that pass */
    uint64_t constrained_valid, constrained_failed; /* the table's entries that pass, with a time / without */
    uint64_t constraint_outside;                    /* the table's entries that break them (never replayed) */
} vkat_replay_table;

/* vkat_replay_load and vkat_replay_free are public: include/vkautotune.h. */

/* 1 and *seconds when the table has choice (INFINITY when it failed), 0 when it is invalid. Thread-safe. */
int vkat_replay_lookup(const vkat_replay_table *t, const uint32_t *choice, double *seconds);
/* vkat_replay_constrain is public: include/vkautotune.h. 1 when choice passes the table's constraints (always
 * without them). Thread-safe. */
int vkat_replay_allowed(const vkat_replay_table *t, const uint32_t *choice);
/* "name=value,..." into buf. */
void vkat_replay_format(const vkat_replay_table *t, const uint32_t *choice, char *buf, size_t size);
/* The search space of the table, with the table as its validity oracle (valid while t lives). */
vkat_search_space vkat_replay_space(const vkat_replay_table *t);

typedef struct vkat_replay_opts {
    const char *strategy; /* NULL = "auto" */
    uint64_t seed;
    uint64_t budget;      /* unique evaluations; 0 = until the strategy stops */
    uint32_t window;      /* evaluations in flight; 0 = 1 */
    /* Configurations absent from the table (a Kernel Tuner cache leaves out those that failed constraints or
     * compilation): 0 = free, ruled out without an evaluation as a constraint check would (the strategies get the
     * table as their validity oracle); 1 = charged, one evaluation each when proposed, as a failure, and no
     * oracle: how the published benchmark counted (Schoonhoven et al. 2022). With the table's constraints
     * (vkat_replay_constrain), those that break them are ruled out free either way, as in a live run, and the
     * constraints are the strategies' oracle when charged. */
    int charge_missing;
    /* Optional: called once per unique evaluation, in order (evaluation counts from 1), before the strategy hears
     * of it: the configuration, its seconds (INFINITY = failed or missing) and who proposed it
     * (vkat_strategy_origin). A diagnostic of where a search's evaluations go (strategy_replay --trace). */
    void (*trace)(void *user, uint64_t evaluation, const uint32_t *choice, double seconds, const char *origin);
    void *trace_user;
    /* Optional, with charge_missing: 0 = off; N = after N evaluations the search is given the table as its
     * validity oracle (missing configurations are then ruled out free, as with charge_missing 0). A diagnostic,
     * not a strategy: the most any validity model learned from the first N evaluations could give, since none can
     * beat knowing the answer (strategy_replay --known-after). */
    uint64_t known_after;
} vkat_replay_opts;

/* vkat_replay_missing_name is public: include/vkautotune.h. */

/* One search of the table through vkat_search_run, answering evaluations from the table. best_at[k] (k <
 * mark_count) is the best time after marks[k] unique evaluations (the final best when the search stopped before);
 * INFINITY when nothing valid was found by then. stats (may be NULL) gets the driver's statistics; give it a
 * best_choice array to learn the winner. Thread-safe for distinct calls on one table. */
vkat_result vkat_replay_run(const vkat_replay_table *t, const vkat_replay_opts *opts, const uint64_t *marks,
                            size_t mark_count, double *best_at, vkat_search_stats *stats, vkat_error *err);

#endif
