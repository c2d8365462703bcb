/* search.c — the strategy registry and the two basic strategies: exhaustive (every configuration in index
 * order) and random (sampling without replacement), whose permutation also defines the shards. The adaptive strategies live in strategy_*.c, plug into the
 * same vkat_strategy_ops and register in vkat_strategies[] here. */
#include "search.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void vkat_search_decode(const vkat_search_space *space, uint64_t index, uint32_t *choice)
{
    for (size_t i = space->param_count; i-- > 0;) {
        uint64_t n = space->value_counts[i];
        choice[i] = (uint32_t)(index % n);
        index /= n;
    }
}

uint64_t vkat_search_encode(const vkat_search_space *space, const uint32_t *choice)
{
    uint64_t index = 0;
    for (size_t i = 0; i < space->param_count; i++)
        index = index * space->value_counts[i] + choice[i];
    return index;
}

uint64_t vkat_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t vkat_rng_below(uint64_t *state, uint64_t bound)
{
    if (bound <= 1)
        return 0;
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t x;
    do
        x = vkat_rng_next(state);
    while (x >= limit);
    return x % bound;
}

/* ---- exhaustive ------------------------------------------------------------------------------------------- */

typedef struct exhaustive_state {
    vkat_search_space space;
    uint64_t next;
} exhaustive_state;

static void *exhaustive_create(const vkat_search_space *space, uint64_t seed)
{
    (void)seed;
    exhaustive_state *s = calloc(1, sizeof *s);
    if (s)
        s->space = *space;
    return s;
}

static bool exhaustive_propose(void *state, uint32_t *choice)
{
    exhaustive_state *s = state;
    if (s->next >= s->space.raw_count)
        return false;
    vkat_search_decode(&s->space, s->next++, choice);
    return true;
}

static void ignore_observation(void *state, const uint32_t *choice, double seconds)
{
    (void)state, (void)choice, (void)seconds;
}

static const vkat_strategy_ops exhaustive_ops = {
    "exhaustive", "every configuration, in index order", exhaustive_create, exhaustive_propose,
    ignore_observation, free,
};

/* ---- random: a seeded permutation of [0, raw) ------------------------------------------------------------
 * Sampling without replacement with O(1) memory: a 4-round Feistel network permutes [0, 2^(2h)) where
 * 2^(2h) >= raw, and cycle-walking maps it onto [0, raw). Every index comes exactly once, so the strategy ends
 * cleanly when the space is exhausted, even for 10^7 configurations. */

typedef struct random_state {
    vkat_search_space space;
    uint64_t taken;
    uint64_t keys[4];
    unsigned half_bits;
} random_state;

static uint64_t feistel_round(uint64_t x, uint64_t key)
{
    uint64_t z = x ^ key;
    z = (z ^ (z >> 31)) * 0x7fb5d329728ea185ull;
    z = (z ^ (z >> 27)) * 0x81dadef4bc2dd44dull;
    return z ^ (z >> 33);
}

static uint64_t permute(const random_state *s, uint64_t x)
{
    uint64_t mask = (s->half_bits >= 32) ? 0xffffffffull : ((1ull << s->half_bits) - 1);
    do {
        uint64_t l = (x >> s->half_bits) & mask, r = x & mask;
        for (int i = 0; i < 4; i++) {
            uint64_t t = l ^ (feistel_round(r, s->keys[i]) & mask);
            l = r;
            r = t;
        }
        x = (l << s->half_bits) | r;
    } while (x >= s->space.raw_count);
    return x;
}

static void random_init(random_state *s, uint64_t raw_count, uint64_t seed)
{
    s->space.raw_count = raw_count;
    uint64_t rng = seed;
    for (int i = 0; i < 4; i++)
        s->keys[i] = vkat_rng_next(&rng);
    unsigned bits = 1;
    while (bits < 64 && (1ull << bits) < raw_count)
        bits++;
    s->half_bits = (bits + 1) / 2;
    if (s->half_bits > 32)
        s->half_bits = 32;
}

static void *random_create(const vkat_search_space *space, uint64_t seed)
{
    random_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->space = *space;
    random_init(s, space->raw_count, seed);
    return s;
}

static bool random_propose(void *state, uint32_t *choice)
{
    random_state *s = state;
    if (s->taken >= s->space.raw_count)
        return false;
    vkat_search_decode(&s->space, permute(s, s->taken++), choice);
    return true;
}

static const vkat_strategy_ops random_ops = {
    "random", "uniform sampling without replacement", random_create, random_propose, ignore_observation, free,
};

/* ---- shards: the same fixed permutation on every host, position mod count ---------------------------------- */

uint32_t vkat_search_shard_of(uint64_t raw_count, uint64_t index, uint32_t count)
{
    if (count <= 1 || index >= raw_count)
        return 0;
    random_state s = {0};
    random_init(&s, raw_count, 0x5a4d5a4d5a4d5a4dull); /* fixed: part of the shard rule */
    return (uint32_t)(permute(&s, index) % count);
}

int vkat_search_in_shard(const vkat_search_space *space, uint64_t index)
{
    return space->shard_count <= 1 ||
           vkat_search_shard_of(space->raw_count, index, space->shard_count) == space->shard_index;
}

/* ---- registry ------------------------------------------------------------------------------------------------- */

/* Each in its own file (strategy_*.c). */
extern const vkat_strategy_ops vkat_strategy_annealing, vkat_strategy_genetic, vkat_strategy_local, vkat_strategy_de,
    vkat_strategy_model, vkat_strategy_forest, vkat_strategy_gp, vkat_strategy_bandit;

bool vkat_strategy_ops_blind(const vkat_strategy_ops *ops)
{
    return ops && ops->observe == ignore_observation;
}

const vkat_strategy_ops *const vkat_strategies[] = {&exhaustive_ops,         &random_ops,          &vkat_strategy_bandit,
                                                    &vkat_strategy_annealing, &vkat_strategy_genetic, &vkat_strategy_local,
                                                    &vkat_strategy_de,        &vkat_strategy_model, &vkat_strategy_forest,
                                                    &vkat_strategy_gp, NULL};

const vkat_strategy_ops *vkat_strategy_find(const char *name)
{
    for (size_t i = 0; vkat_strategies[i]; i++)
        if (!strcmp(vkat_strategies[i]->name, name))
            return vkat_strategies[i];
    return NULL;
}

vkat_result vkat_strategy_create(const char *name, const vkat_search_space *space, uint64_t seed,
                                 vkat_strategy **out, vkat_error *err)
{
    *out = NULL;
    const vkat_strategy_ops *ops = vkat_strategy_find(name);
    if (!ops) {
        char known[256] = "";
        for (size_t i = 0; vkat_strategies[i]; i++) {
            strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
            strncat(known, vkat_strategies[i]->name, sizeof known - strlen(known) - 1);
        }
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown strategy '%s' (known: %s)", name, known);
    }
    vkat_strategy *s = calloc(1, sizeof *s);
    if (!s || !(s->state = ops->create(space, seed))) {
        free(s);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    s->ops = ops;
    s->space = *space;
    *out = s;
    return VKAT_OK;
}

void vkat_strategy_destroy(vkat_strategy *s)
{
    if (!s)
        return;
    s->ops->destroy(s->state);
    free(s->starts);
    free(s);
}

bool vkat_strategy_propose(vkat_strategy *s, uint32_t *choice)
{
    if (s->start_next < s->start_count) {
        size_t np = s->space.param_count;
        memcpy(choice, s->starts + s->start_next++ * np, np * sizeof *choice);
        return true;
    }
    return s->ops->propose(s->state, choice);
}

vkat_result vkat_strategy_set_starts(vkat_strategy *s, const uint32_t *choices, size_t count, vkat_error *err)
{
    size_t np = s->space.param_count;
    uint32_t *copy = NULL;
    if (count && np) {
        copy = malloc(count * np * sizeof *copy);
        if (!copy)
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        memcpy(copy, choices, count * np * sizeof *copy);
    }
    free(s->starts);
    s->starts = copy;
    s->start_count = copy ? count : 0;
    s->start_next = 0;
    return VKAT_OK;
}

const char *vkat_strategy_origin(const vkat_strategy *s, const uint32_t *choice)
{
    size_t np = s->space.param_count;
    for (size_t i = 0; i < s->start_count; i++)
        if (!memcmp(s->starts + i * np, choice, np * sizeof *choice))
            return "start";
    const char *who = s->ops->origin ? s->ops->origin(s->state, choice) : NULL;
    return who ? who : s->ops->name;
}

void vkat_strategy_observe(vkat_strategy *s, const uint32_t *choice, double seconds)
{
    s->ops->observe(s->state, choice, seconds);
}
