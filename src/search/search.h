/* search.h — internal: search strategies behind one interface (proposals in, measurements out).
 *
 * A strategy proposes configurations (one value index per parameter) and is told what each one scored. It does
 * not measure, check constraints or deduplicate: the driver (search_run.c) does that, so every strategy gets the same
 * rules — an invalid proposal costs no measurement but is counted; a proposal already measured (in this run or a
 * resumed database) is answered from what is known. Strategies are deterministic for a given seed. */
#ifndef VKAT_SEARCH_H
#define VKAT_SEARCH_H

#include "vkautotune.h"

#include <stdbool.h>

typedef struct vkat_search_space {
    size_t param_count;
    const size_t *value_counts; /* [param_count] */
    uint64_t raw_count;         /* product of value_counts, saturated at UINT64_MAX */
    /* Optional, zero = absent. A free validity oracle (1 valid, 0 invalid; constraint checks cost no measurement),
     * so strategies can walk to valid neighbours without spending evaluations. Must be deterministic. */
    int (*valid)(void *ctx, const uint32_t *choice);
    void *valid_ctx;
    /* Optional [param_count]: non-zero marks a parameter whose values have no order (every other value is a
     * neighbour); NULL = all ordered, neighbours are the adjacent values. */
    const uint8_t *categorical;
    /* Optional, shard_count 0 or 1 = unsharded. A sharded run covers only the configurations of shard shard_index
     * (vkat_search_shard_of): the oracle (vkat_search_valid) rejects the others, and the driver skips them unmeasured
     * and counts them apart from invalid ones. shard_index < shard_count. */
    uint32_t shard_index, shard_count;
} vkat_search_space;

typedef struct vkat_strategy vkat_strategy;

typedef struct vkat_strategy_ops {
    const char *name;
    const char *summary;
    /* Returns NULL on allocation failure. */
    void *(*create)(const vkat_search_space *space, uint64_t seed);
    /* Writes the next proposal into choice[param_count]; returns false when the strategy has nothing left.
     * Several proposals may be outstanding before the first observation (the driver's window). */
    bool (*propose)(void *state, uint32_t *choice);
    /* The outcome of a proposal: seconds (lower is better), INFINITY for an invalid or failed configuration.
     * Every proposal is observed exactly once, not necessarily in proposal order. A strategy may also be told of
     * configurations it did not propose (a portfolio shares what its members learn): it takes them as news. */
    void (*observe)(void *state, const uint32_t *choice, double seconds);
    void (*destroy)(void *state);
    /* Optional (NULL = not a portfolio): the name of the member that proposed choice, a proposal not yet observed;
     * NULL when unknown. For diagnostics only (a replay's trace of where the evaluations went). */
    const char *(*origin)(void *state, const uint32_t *choice);
} vkat_strategy_ops;

/* NULL-terminated list of the built-in strategies. */
extern const vkat_strategy_ops *const vkat_strategies[];
/* Looks a strategy up by name; NULL when unknown. */
const vkat_strategy_ops *vkat_strategy_find(const char *name);
/* Whether a strategy's proposals never depend on what it observes (exhaustive, random): a run may then propose as
 * far ahead as it likes without changing which configurations it measures. NULL: false. */
bool vkat_strategy_ops_blind(const vkat_strategy_ops *ops);

/* A generic handle so callers need not carry ops + state separately. */
struct vkat_strategy {
    const vkat_strategy_ops *ops;
    void *state;
    vkat_search_space space;
    uint32_t *starts; /* [start_count * param_count]: proposed first, in order (vkat_strategy_set_starts) */
    size_t start_count, start_next;
};
vkat_result vkat_strategy_create(const char *name, const vkat_search_space *space, uint64_t seed,
                                 vkat_strategy **out, vkat_error *err);
void vkat_strategy_destroy(vkat_strategy *s);
bool vkat_strategy_propose(vkat_strategy *s, uint32_t *choice);
void vkat_strategy_observe(vkat_strategy *s, const uint32_t *choice, double seconds);
/* Who proposed choice (not yet observed): "start" for a configuration of vkat_strategy_set_starts, a member's name
 * for a portfolio (ops->origin), else the strategy's own name. Never NULL. */
const char *vkat_strategy_origin(const vkat_strategy *s, const uint32_t *choice);
/* Configurations proposed before the strategy's own, once each and in order: known-good points such as the winners
 * of other problem sizes (`--warm-start`) or the user's `--start`. The strategy observes their outcomes as news,
 * so its search starts from what they scored. Copies count choices of param_count values; replaces earlier ones. */
vkat_result vkat_strategy_set_starts(vkat_strategy *s, const uint32_t *choices, size_t count, vkat_error *err);

/* Shared by strategies: mixed-radix index <-> choice (first parameter most significant), and a small seeded
 * generator (splitmix64). */
void vkat_search_decode(const vkat_search_space *space, uint64_t index, uint32_t *choice);
uint64_t vkat_search_encode(const vkat_search_space *space, const uint32_t *choice);
uint64_t vkat_rng_next(uint64_t *state);
/* Uniform in [0, bound) without modulo bias. */
uint64_t vkat_rng_below(uint64_t *state, uint64_t bound);
/* Uniform in [0, 1). */
double vkat_rng_uniform(uint64_t *state);

/* ---- Shared by strategies: a map from encoded index to score, and neighbourhoods ------------------------- */

/* Open-addressing hash map (xxhash of the encoded index) from configuration index to a score and a small tag.
 * Zero-initialise, then use; vkat_index_map_free releases it. */
typedef struct vkat_index_map {
    uint64_t *keys;   /* key + 1; 0 = empty slot */
    double *values;
    uint32_t *tags;
    size_t cap, count;
} vkat_index_map;
/* Returns the slot of key, or SIZE_MAX when absent. */
size_t vkat_index_map_find(const vkat_index_map *m, uint64_t key);
/* Inserts key (or finds it); returns its slot, SIZE_MAX when out of memory. *added says whether it was new. */
size_t vkat_index_map_put(vkat_index_map *m, uint64_t key, double value, uint32_t tag, int *added);
void vkat_index_map_free(vkat_index_map *m);

/* The shard of configuration `index` (its encoded index, < raw_count) among `count` shards: its position in a
 * fixed pseudo-random permutation of [0, raw_count) (the random strategy's Feistel network with a constant key),
 * modulo count. So shards differ in size by at most one configuration, and the valid ones spread over them like
 * a random draw, whatever the constraints' pattern over the parameters (index % count would follow the trailing
 * parameters). Pure integer arithmetic: the same on every host. */
uint32_t vkat_search_shard_of(uint64_t raw_count, uint64_t index, uint32_t count);
/* 1 when the encoded index belongs to the space's shard (always, when unsharded). */
int vkat_search_in_shard(const vkat_search_space *space, uint64_t index);
/* 1 when the space's oracle accepts choice (or there is no oracle) and it lies in the space's shard. */
int vkat_search_valid(const vkat_search_space *space, const uint32_t *choice);
/* A uniformly random valid configuration, trying at most `tries` samples; false when none was found. */
bool vkat_search_random_valid(const vkat_search_space *space, uint64_t *rng, uint32_t *choice, unsigned tries);
/* Is choice absent from `seen` (neither proposed nor observed yet)? */
bool vkat_search_unseen(const vkat_search_space *space, const vkat_index_map *seen, const uint32_t *choice);
/* A random valid configuration absent from `seen` (64 draws of up to 256 samples); false when none was found. */
bool vkat_search_random_unseen(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen,
                               uint32_t *choice);
/* Of `candidates` random unseen valid configurations, the one farthest from everything in `seen` (distance to its
 * nearest member: index steps scaled by each list's length, 1 per changed categorical parameter): a restart in the
 * least explored region rather than anywhere. Costs candidates x seen.count decodes. False when none was found. */
bool vkat_search_far_unseen(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen,
                            unsigned candidates, uint32_t *choice);
/* The strategies' last resort when their own move found nothing new: a random unseen valid configuration, else
 * any valid one (4096 samples); false when the space seems to hold none. */
bool vkat_search_fallback(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen, uint32_t *choice);
/* Moves parameter p of choice to a neighbouring value: an adjacent value for an ordered parameter (or, with
 * probability `jump`, any other value), any other value for a categorical one. False when p has one value. */
bool vkat_search_step(const vkat_search_space *space, uint64_t *rng, uint32_t *choice, size_t p, double jump);
/* A valid random neighbour of `from` in `to`: 1 to `radius` steps of random parameters, retried up to `tries`
 * times; false when no valid one was found. `avoid` (may be NULL) holds configurations to skip when possible. */
bool vkat_search_neighbour(const vkat_search_space *space, uint64_t *rng, const uint32_t *from, uint32_t *to,
                           unsigned radius, double jump, const vkat_index_map *avoid, unsigned tries);
/* Every configuration one step from `from` (both adjacent values of an ordered parameter, every other value of a
 * categorical one), valid ones only, as encoded indices in out[] (up to cap); returns the count. */
size_t vkat_search_neighbours(const vkat_search_space *space, const uint32_t *from, uint64_t *out, size_t cap);

/* ---- A surrogate (search_forest.c): a random forest of regression trees over value indices ------------------ */

typedef struct vkat_forest vkat_forest;
typedef struct vkat_forest_params {
    size_t trees;         /* 0 means 1 */
    unsigned max_depth;
    size_t min_leaf;      /* points in a leaf at least; 0 means 1 */
    double feature_share; /* share of the parameters tried at each split (at least one) */
} vkat_forest_params;
/* A forest over `space` (kept by pointer: it must outlive the forest); NULL when out of memory. Deterministic for a
 * seed. Not thread-safe: one forest per search. */
vkat_forest *vkat_forest_create(const vkat_search_space *space, const vkat_forest_params *params, uint64_t seed);
void vkat_forest_free(vkat_forest *f); /* accepts NULL */
/* Fits the forest to n points: x[n][param_count] value indices, y[n] targets (finite). Replaces the previous fit;
 * x and y are read during the call only. Returns 0 when out of memory (the previous fit is then unusable). */
int vkat_forest_fit(vkat_forest *f, const uint32_t *x, const double *y, size_t n);
/* Mean and spread (standard deviation) of the trees' predictions at choice; only after a successful fit. */
void vkat_forest_predict(const vkat_forest *f, const uint32_t *choice, double *mean, double *spread);

/* ---- A surrogate (search_gp.c): a Gaussian process over value indices --------------------------------------- */

typedef struct vkat_gp vkat_gp;
/* A GP over `space` (kept by pointer: it must outlive the GP) holding at most max_points points; NULL when out of
 * memory. Deterministic (no randomness). Not thread-safe, prediction included (it uses scratch space). */
vkat_gp *vkat_gp_create(const vkat_search_space *space, size_t max_points);
void vkat_gp_free(vkat_gp *g); /* accepts NULL */
/* Fits n <= max_points points (x[n][param_count] value indices, y[n] finite targets), choosing the length scale and
 * noise by marginal likelihood; replaces the previous fit. Returns 0 when n is 0 or too large, or on failure. */
int vkat_gp_fit(vkat_gp *g, const uint32_t *x, const double *y, size_t n);
/* Adds one point to the fit without re-choosing hyperparameters (a one-row Cholesky update). Returns 0, leaving
 * the fit unchanged, when there is no fit, no room, or the point is (nearly) a duplicate of one held. */
int vkat_gp_add(vkat_gp *g, const uint32_t *x, double y);
/* Points in the fit (0 before the first). */
size_t vkat_gp_count(const vkat_gp *g);
/* Posterior mean and standard deviation at choice, in the targets' units; only after a successful fit. sd may be
 * NULL: the mean alone costs O(n), the deviation O(n^2). */
void vkat_gp_predict(const vkat_gp *g, const uint32_t *choice, double *mean, double *sd);
/* The prior standard deviation: no posterior one exceeds it (a bound for pruning candidates). */
double vkat_gp_prior_sd(const vkat_gp *g);

/* ---- The chance of success, learned from the evaluations (search_validity.c) ------------------------------ */

typedef struct vkat_validity vkat_validity;
/* A model over `space` (copied; its oracle, if any, is asked first); NULL when out of memory. Deterministic for a
 * seed and a sequence of observations. Not thread-safe. */
vkat_validity *vkat_validity_create(const vkat_search_space *space, uint64_t seed);
void vkat_validity_free(vkat_validity *v); /* accepts NULL */
/* An outcome (INFINITY for a failure), as a strategy observes it; a repeat of a configuration is ignored. */
void vkat_validity_observe(vkat_validity *v, const uint32_t *choice, double seconds);
/* The chance in [0, 1] that evaluating choice succeeds; 1 while nothing has failed (and for v NULL). */
double vkat_validity_chance(const vkat_validity *v, const uint32_t *choice);
/* An oracle (ctx: the model): 0 when the space's oracle rejects choice or its chance is small (but for a fixed
 * share let through, so the model keeps learning about what it rules out), else 1. */
int vkat_validity_plausible(void *ctx, const uint32_t *choice);
/* Sets space's oracle to the model's (which must outlive the uses of space). */
void vkat_validity_attach(vkat_validity *v, vkat_search_space *space);

/* ---- The search driver (search_run.c): the one search loop, for live tuning and replay ---------------------- */

typedef struct vkat_search_hooks {
    void *user;
    /* 1 valid, 0 invalid (counted, costs nothing), -1 error (the driver returns VKAT_ERR_INTERNAL unless
     * last_error was filled through the user's own means). */
    int (*check)(void *user, const uint32_t *choice);
    /* Starts evaluating a valid configuration not evaluated before in this run. */
    vkat_result (*submit)(void *user, const uint32_t *choice);
    /* Blocks until one submitted evaluation finishes; seconds = INFINITY on failure; resumed = 1: it came from a
     * database, not measured; resumed = 2: it was dropped unmeasured (out of time, interrupted) and does not count
     * as an evaluation. */
    vkat_result (*complete)(void *user, uint32_t *choice_out, double *seconds, int *resumed);
    /* Optional: fills err for a failed check/submit/complete; NULL = a generic message. */
    void (*error)(void *user, vkat_error *err);
} vkat_search_hooks;

typedef struct vkat_search_limits {
    uint64_t budget;   /* unique evaluations (resumed ones count); 0 = unlimited */
    double budget_s;   /* wall-clock seconds; 0 = unlimited */
    uint32_t window;   /* evaluations in flight at most; 0 means 1 */
    uint64_t patience; /* stop after this many proposals in a row that were duplicates or invalid; 0 = 100000 */
    const volatile int *stop; /* optional: when set non-zero, no more proposals (VKAT_STOP_INTERRUPTED) */
    /* Optional: how many valid configurations the (shard of the) space holds, 0 = unknown. Once that many are
     * evaluated the search stops (VKAT_STOP_EXHAUSTED) instead of proposing duplicates until `patience` runs out. */
    uint64_t valid_count;
} vkat_search_limits;

typedef enum vkat_search_stop {
    VKAT_STOP_NONE,
    VKAT_STOP_BUDGET,    /* the evaluation budget is spent */
    VKAT_STOP_TIME,      /* the time budget is spent */
    VKAT_STOP_EXHAUSTED, /* the strategy has nothing left */
    VKAT_STOP_CONVERGED, /* only duplicates or invalid proposals for `patience` proposals in a row */
    VKAT_STOP_INTERRUPTED, /* limits->stop was set */
} vkat_search_stop;

const char *vkat_search_stop_name(vkat_search_stop s);

typedef struct vkat_search_stats {
    uint64_t proposed, invalid, evaluated, resumed, failed, duplicates, dropped;
    uint64_t other_shard; /* proposals outside the space's shard: skipped unmeasured, not counted as invalid */
    double best_s;         /* INFINITY until something succeeded */
    uint32_t *best_choice; /* set by the caller: [param_count] or NULL; filled with the best configuration */
    double elapsed_s;
    vkat_search_stop stop;
    uint64_t last_evaluated; /* encoded index of the evaluation just completed (for progress callbacks) */
    double last_s;           /* its score */
    int final;               /* 1 on the last progress call only (stop may be set earlier, while evaluations
                                still in flight complete) */
} vkat_search_stats;

/* Called after every completed evaluation, and once more at the end with stats->stop and stats->final set. */
typedef void (*vkat_search_progress_fn)(void *user, const vkat_search_stats *stats);

/* Runs the search: proposals from the strategy, deduplicated (a repeated proposal is answered from memory and
 * costs nothing), checked (invalid ones answered INFINITY, counted), evaluated through the hooks with up to
 * `window` in flight, observed by the strategy. Stats are reset except best_choice. Returns non-OK only when a
 * hook fails or memory runs out. */
vkat_result vkat_search_run(vkat_strategy *strategy, const vkat_search_hooks *hooks, const vkat_search_limits *limits,
                            vkat_search_progress_fn progress, void *progress_user, vkat_search_stats *stats,
                            vkat_error *err);

#endif
