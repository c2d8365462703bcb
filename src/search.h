/* search.h — internal: search strategies behind one interface (proposals in, measurements out).
 *
 * A strategy proposes configurations (one value index per parameter) and is told what each one scored. It does
 * not measure, check constraints or deduplicate: the driver (tune.c) does that, so every strategy gets the same
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
} vkat_search_space;

typedef struct vkat_strategy vkat_strategy;

typedef struct vkat_strategy_ops {
    const char *name;
    const char *summary;
    /* Returns NULL on allocation failure. */
    void *(*create)(const vkat_search_space *space, uint64_t seed);
    /* Writes the next proposal into choice[param_count]; returns false when the strategy has nothing left. */
    bool (*propose)(void *state, uint32_t *choice);
    /* The outcome of a proposal: seconds (lower is better), INFINITY for an invalid or failed configuration. */
    void (*observe)(void *state, const uint32_t *choice, double seconds);
    void (*destroy)(void *state);
} vkat_strategy_ops;

/* NULL-terminated list of the built-in strategies. */
extern const vkat_strategy_ops *const vkat_strategies[];
/* Looks a strategy up by name; NULL when unknown. */
const vkat_strategy_ops *vkat_strategy_find(const char *name);

/* A generic handle so callers need not carry ops + state separately. */
struct vkat_strategy {
    const vkat_strategy_ops *ops;
    void *state;
    vkat_search_space space;
};
vkat_result vkat_strategy_create(const char *name, const vkat_search_space *space, uint64_t seed,
                                 vkat_strategy **out, vkat_error *err);
void vkat_strategy_destroy(vkat_strategy *s);
bool vkat_strategy_propose(vkat_strategy *s, uint32_t *choice);
void vkat_strategy_observe(vkat_strategy *s, const uint32_t *choice, double seconds);

/* Shared by strategies: mixed-radix index <-> choice (first parameter most significant), and a small seeded
 * generator (splitmix64). */
void vkat_search_decode(const vkat_search_space *space, uint64_t index, uint32_t *choice);
uint64_t vkat_search_encode(const vkat_search_space *space, const uint32_t *choice);
uint64_t vkat_rng_next(uint64_t *state);
/* Uniform in [0, bound) without modulo bias. */
uint64_t vkat_rng_below(uint64_t *state, uint64_t bound);

#endif
