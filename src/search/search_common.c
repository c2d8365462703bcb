/* search_common.c — what every strategy shares, in one place: the index map (encoded configuration -> score),
 * the validity oracle wrapper (which also keeps a sharded search in its shard) and the neighbourhoods over each
 * parameter's value list. Strategies call these instead of writing their own moves, so "a neighbour" means the
 * same thing in all of them. No search policy lives here. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- index map ------------------------------------------------------------------------------------------------ */

static size_t slot_of(const vkat_index_map *m, uint64_t key)
{
    /* Encoded indices are dense and sequential; hashing spreads neighbours over the table. */
    size_t mask = m->cap - 1, i = (size_t)XXH3_64bits(&key, sizeof key) & mask;
    while (m->keys[i] && m->keys[i] != key + 1)
        i = (i + 1) & mask;
    return i;
}

size_t vkat_index_map_find(const vkat_index_map *m, uint64_t key)
{
    if (!m->cap)
        return SIZE_MAX;
    size_t i = slot_of(m, key);
    return m->keys[i] ? i : SIZE_MAX;
}

static int grow(vkat_index_map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    vkat_index_map n = {calloc(cap, sizeof *n.keys), malloc(cap * sizeof *n.values), malloc(cap * sizeof *n.tags),
                        cap, m->count};
    if (!n.keys || !n.values || !n.tags) {
        vkat_index_map_free(&n);
        return 0;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = slot_of(&n, m->keys[i] - 1);
        n.keys[j] = m->keys[i];
        n.values[j] = m->values[i];
        n.tags[j] = m->tags[i];
    }
    vkat_index_map_free(m);
    *m = n;
    return 1;
}

size_t vkat_index_map_put(vkat_index_map *m, uint64_t key, double value, uint32_t tag, int *added)
{
    if ((m->count + 1) * 2 > m->cap && !grow(m))
        return SIZE_MAX;
    size_t i = slot_of(m, key);
    if (added)
        *added = !m->keys[i];
    if (!m->keys[i]) {
        m->keys[i] = key + 1;
        m->values[i] = value;
        m->tags[i] = tag;
        m->count++;
    }
    return i;
}

void vkat_index_map_free(vkat_index_map *m)
{
    free(m->keys);
    free(m->values);
    free(m->tags);
    memset(m, 0, sizeof *m);
}

/* ---- validity and neighbourhoods ------------------------------------------------------------------------------ */

int vkat_search_valid(const vkat_search_space *space, const uint32_t *choice)
{
    if (space->shard_count > 1 && !vkat_search_in_shard(space, vkat_search_encode(space, choice)))
        return 0;
    return !space->valid || space->valid(space->valid_ctx, choice) > 0;
}

bool vkat_search_random_valid(const vkat_search_space *space, uint64_t *rng, uint32_t *choice, unsigned tries)
{
    for (unsigned t = 0; t < tries; t++) {
        for (size_t i = 0; i < space->param_count; i++)
            choice[i] = (uint32_t)vkat_rng_below(rng, space->value_counts[i]);
        if (vkat_search_valid(space, choice))
            return true;
    }
    return false;
}

double vkat_rng_uniform(uint64_t *rng)
{
    return (double)(vkat_rng_next(rng) >> 11) * 0x1.0p-53;
}

bool vkat_search_unseen(const vkat_search_space *space, const vkat_index_map *seen, const uint32_t *choice)
{
    return vkat_index_map_find(seen, vkat_search_encode(space, choice)) == SIZE_MAX;
}

bool vkat_search_random_unseen(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen,
                               uint32_t *choice)
{
    for (int t = 0; t < 64; t++)
        if (vkat_search_random_valid(space, rng, choice, 256) && vkat_search_unseen(space, seen, choice))
            return true;
    return false;
}

/* Distance from choice to the configuration with encoded index `index`, decoded parameter by parameter. */
static double distance_to(const vkat_search_space *space, const uint32_t *choice, uint64_t index)
{
    double d = 0;
    for (size_t i = space->param_count; i-- > 0;) {
        uint64_t n = space->value_counts[i];
        uint32_t v = (uint32_t)(index % n);
        index /= n;
        if (space->categorical && space->categorical[i])
            d += v != choice[i];
        else if (n > 1)
            d += fabs((double)v - (double)choice[i]) / (double)(n - 1);
    }
    return d;
}

bool vkat_search_far_unseen(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen,
                            unsigned candidates, uint32_t *choice)
{
    size_t np = space->param_count;
    uint32_t *c = malloc((np ? np : 1) * sizeof *c);
    double far = -1;
    for (unsigned t = 0; c && t < candidates; t++) {
        if (!vkat_search_random_unseen(space, rng, seen, c))
            break;
        double nearest = INFINITY;
        for (size_t k = 0; k < seen->cap && nearest > far; k++)
            if (seen->keys[k]) {
                double d = distance_to(space, c, seen->keys[k] - 1);
                nearest = d < nearest ? d : nearest;
            }
        if (nearest > far) {
            far = nearest;
            memcpy(choice, c, np * sizeof *c);
        }
    }
    free(c);
    return far >= 0;
}

bool vkat_search_fallback(const vkat_search_space *space, uint64_t *rng, const vkat_index_map *seen, uint32_t *choice)
{
    return vkat_search_random_unseen(space, rng, seen, choice) || vkat_search_random_valid(space, rng, choice, 4096);
}

bool vkat_search_step(const vkat_search_space *space, uint64_t *rng, uint32_t *choice, size_t p, double jump)
{
    uint32_t n = (uint32_t)space->value_counts[p], v = choice[p];
    if (n < 2)
        return false;
    int categorical = space->categorical && space->categorical[p];
    if (categorical || vkat_rng_uniform(rng) < jump) {
        uint32_t other = (uint32_t)vkat_rng_below(rng, n - 1);
        choice[p] = other >= v ? other + 1 : other;
    } else if (v == 0)
        choice[p] = 1;
    else if (v == n - 1)
        choice[p] = n - 2;
    else
        choice[p] = (vkat_rng_next(rng) & 1) ? v + 1 : v - 1;
    return true;
}

/* A parameter with more than one value, uniformly; SIZE_MAX when every parameter is fixed. */
static size_t movable_param(const vkat_search_space *space, uint64_t *rng)
{
    size_t movable = 0;
    for (size_t i = 0; i < space->param_count; i++)
        movable += space->value_counts[i] > 1;
    if (!movable)
        return SIZE_MAX;
    size_t k = (size_t)vkat_rng_below(rng, movable);
    for (size_t i = 0; i < space->param_count; i++)
        if (space->value_counts[i] > 1 && k-- == 0)
            return i;
    return SIZE_MAX;
}

bool vkat_search_neighbour(const vkat_search_space *space, uint64_t *rng, const uint32_t *from, uint32_t *to,
                           unsigned radius, double jump, const vkat_index_map *avoid, unsigned tries)
{
    bool have_known = false;
    uint64_t known = 0;
    for (unsigned t = 0; t < tries; t++) {
        memcpy(to, from, space->param_count * sizeof *to);
        unsigned steps = radius > 1 ? 1 + (unsigned)vkat_rng_below(rng, radius) : 1;
        for (unsigned s = 0; s < steps; s++) {
            size_t p = movable_param(space, rng);
            if (p == SIZE_MAX)
                return false;
            vkat_search_step(space, rng, to, p, jump);
        }
        if (!memcmp(to, from, space->param_count * sizeof *to) || !vkat_search_valid(space, to))
            continue;
        uint64_t index = vkat_search_encode(space, to);
        if (!avoid || vkat_index_map_find(avoid, index) == SIZE_MAX)
            return true;
        /* Valid but already known: keep it in case nothing new turns up, so the caller still gets a move. */
        if (!have_known) {
            known = index;
            have_known = true;
        }
    }
    if (have_known)
        vkat_search_decode(space, known, to);
    return have_known;
}

size_t vkat_search_neighbours(const vkat_search_space *space, const uint32_t *from, uint64_t *out, size_t cap)
{
    size_t n = 0, np = space->param_count;
    uint32_t *c = malloc((np ? np : 1) * sizeof *c);
    if (!c)
        return 0;
    memcpy(c, from, np * sizeof *c);
    for (size_t p = 0; p < np && n < cap; p++) {
        uint32_t count = (uint32_t)space->value_counts[p], v = from[p];
        int categorical = space->categorical && space->categorical[p];
        for (uint32_t w = 0; w < count && n < cap; w++) {
            if (w == v || (!categorical && w + 1 != v && w != v + 1))
                continue;
            c[p] = w;
            if (vkat_search_valid(space, c))
                out[n++] = vkat_search_encode(space, c);
        }
        c[p] = v;
    }
    free(c);
    return n;
}
