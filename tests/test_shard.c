/* test_shard.c — sharded searches (--shard K/N): the shard rule gives shards of equal size (within one) and
 * spreads structured valid sets evenly; through the search driver, exhaustive and random shards together evaluate
 * every valid configuration exactly once and count the other shards' apart from invalid ones; the adaptive
 * strategies, told the shard through the oracle, stay inside it. */
#include "search.h"
#include "test.h"

typedef struct runner {
    vkat_search_space sp;
    uint32_t queue[4][8];
    size_t head, count;
    unsigned char *owner; /* [raw]: shard + 1 of the run that evaluated it; 0 = not evaluated */
    uint32_t shard;
    uint64_t twice, outside, submitted_invalid;
} runner;

/* Invalid: the first two parameters' indices sum to a multiple of 5. */
static int valid_fn(void *ctx, const uint32_t *c)
{
    (void)ctx;
    return (c[0] + c[1]) % 5 != 0;
}

static int h_check(void *user, const uint32_t *c)
{
    (void)user;
    return valid_fn(NULL, c);
}

static vkat_result h_submit(void *user, const uint32_t *c)
{
    runner *r = user;
    uint64_t idx = vkat_search_encode(&r->sp, c);
    r->twice += r->owner[idx] != 0;
    r->owner[idx] = (unsigned char)(r->shard + 1);
    r->outside += vkat_search_shard_of(r->sp.raw_count, idx, r->sp.shard_count) != r->shard;
    r->submitted_invalid += !valid_fn(NULL, c);
    memcpy(r->queue[(r->head + r->count++) % 4], c, r->sp.param_count * sizeof *c);
    return VKAT_OK;
}

static vkat_result h_complete(void *user, uint32_t *c, double *seconds, int *resumed)
{
    runner *r = user;
    memcpy(c, r->queue[r->head], r->sp.param_count * sizeof *c);
    r->head = (r->head + 1) % 4;
    r->count--;
    /* A bowl, so that the adaptive strategies have something to follow. */
    double f = 1;
    for (size_t i = 0; i < r->sp.param_count; i++)
        f += ((double)c[i] - 2.0) * ((double)c[i] - 2.0);
    *seconds = f;
    *resumed = 0;
    return VKAT_OK;
}

static vkat_result run_shard(runner *r, const char *name, uint32_t shard, uint32_t count, int oracle,
                             uint64_t budget, vkat_search_stats *st)
{
    r->sp.valid = oracle ? valid_fn : NULL;
    r->sp.shard_index = shard;
    r->sp.shard_count = count;
    r->shard = shard;
    r->head = r->count = 0;
    vkat_strategy *strat;
    vkat_error err = {0};
    vkat_result res = vkat_strategy_create(name, &r->sp, 5 + shard, &strat, &err);
    if (res != VKAT_OK)
        return res;
    vkat_search_hooks hooks = {r, h_check, h_submit, h_complete, NULL};
    vkat_search_limits limits = {budget, 0, 3, 0};
    memset(st, 0, sizeof *st);
    res = vkat_search_run(strat, &hooks, &limits, NULL, NULL, st, &err);
    vkat_strategy_destroy(strat);
    return res;
}

int main(void)
{
    /* The rule: every index in one shard, shard sizes within one of each other, deterministic. */
    const uint64_t raws[] = {1, 2, 7, 36, 1000, 53760};
    const uint32_t counts[] = {1, 2, 3, 7, 64};
    for (size_t i = 0; i < sizeof raws / sizeof *raws; i++)
        for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
            uint64_t size[64] = {0}, lo = UINT64_MAX, hi = 0;
            int ok = 1;
            for (uint64_t x = 0; x < raws[i]; x++) {
                uint32_t s = vkat_search_shard_of(raws[i], x, counts[k]);
                ok &= s < counts[k] && s == vkat_search_shard_of(raws[i], x, counts[k]);
                size[s < 64 ? s : 0]++;
            }
            for (uint32_t s = 0; s < counts[k]; s++) {
                lo = size[s] < lo ? size[s] : lo;
                hi = size[s] > hi ? size[s] : hi;
            }
            CHECK_MSG(ok && hi - lo <= 1, "raw %llu, %u shards: sizes %llu..%llu", (unsigned long long)raws[i],
                      counts[k], (unsigned long long)lo, (unsigned long long)hi);
        }

    size_t big[] = {8, 8, 6, 5, 4, 7};
    runner r = {0};
    r.sp = (vkat_search_space){6, big, 8 * 8 * 6 * 5 * 4 * 7, NULL, NULL, NULL, 0, 0};
    uint64_t raw = r.sp.raw_count, valid = 0;
    uint32_t c[6];
    for (uint64_t x = 0; x < raw; x++) {
        vkat_search_decode(&r.sp, x, c);
        valid += valid_fn(NULL, c);
    }

    /* Structure that index % 4 would follow: in a space whose last parameter has 4 values, index % 4 is that
     * parameter, so "valid when it is even" would put every valid configuration in shards 0 and 2. The rule
     * spreads them: each shard within 10% of a quarter. */
    size_t striped[] = {40, 30, 4};
    vkat_search_space ssp = {3, striped, 40 * 30 * 4, NULL, NULL, NULL, 0, 0};
    uint64_t per[4] = {0}, structured = 0;
    for (uint64_t x = 0; x < ssp.raw_count; x++) {
        vkat_search_decode(&ssp, x, c);
        if (c[2] % 2 == 0) {
            structured++;
            per[vkat_search_shard_of(ssp.raw_count, x, 4)]++;
        }
    }
    for (int s = 0; s < 4; s++)
        CHECK_MSG(per[s] > structured / 4 * 90 / 100 && per[s] < structured / 4 * 110 / 100,
                  "shard %d holds %llu of %llu", s, (unsigned long long)per[s], (unsigned long long)structured);
    printf("valid configurations per shard of a striped space: %llu %llu %llu %llu of %llu\n",
           (unsigned long long)per[0], (unsigned long long)per[1], (unsigned long long)per[2],
           (unsigned long long)per[3], (unsigned long long)structured);

    /* Exhaustive and random: three shards evaluate every valid configuration once; the others are counted as
     * other shards', not as invalid. */
    const char *covering[] = {"exhaustive", "random"};
    r.owner = calloc(raw, 1);
    for (int k = 0; k < 2; k++) {
        memset(r.owner, 0, raw);
        r.twice = r.outside = r.submitted_invalid = 0;
        uint64_t evaluated = 0, invalid = 0;
        for (uint32_t s = 0; s < 3; s++) {
            vkat_search_stats st;
            CHECK(run_shard(&r, covering[k], s, 3, k, 0, &st) == VKAT_OK);
            uint64_t mine = 0;
            for (uint64_t x = 0; x < raw; x++)
                mine += vkat_search_shard_of(raw, x, 3) == s;
            CHECK_MSG(st.other_shard == raw - mine && st.evaluated + st.invalid == mine &&
                          st.stop == VKAT_STOP_EXHAUSTED,
                      "%s shard %u: %llu other, %llu evaluated, %llu invalid of %llu", covering[k], s,
                      (unsigned long long)st.other_shard, (unsigned long long)st.evaluated,
                      (unsigned long long)st.invalid, (unsigned long long)mine);
            evaluated += st.evaluated;
            invalid += st.invalid;
        }
        uint64_t covered = 0;
        for (uint64_t x = 0; x < raw; x++)
            covered += r.owner[x] != 0;
        CHECK_MSG(evaluated == valid && covered == valid && invalid == raw - valid && !r.twice && !r.outside &&
                      !r.submitted_invalid,
                  "%s: %llu evaluated, %llu covered of %llu valid, %llu twice, %llu outside", covering[k],
                  (unsigned long long)evaluated, (unsigned long long)covered, (unsigned long long)valid,
                  (unsigned long long)r.twice, (unsigned long long)r.outside);
    }

    /* The adaptive strategies: with the oracle they propose only their own shard's valid configurations. */
    for (size_t k = 0; vkat_strategies[k]; k++) {
        const char *name = vkat_strategies[k]->name;
        if (!strcmp(name, "exhaustive") || !strcmp(name, "random"))
            continue;
        memset(r.owner, 0, raw);
        r.twice = r.outside = r.submitted_invalid = 0;
        vkat_search_stats st;
        CHECK(run_shard(&r, name, 1, 3, 1, 40, &st) == VKAT_OK);
        CHECK_MSG(st.evaluated == 40 && st.other_shard == 0 && st.invalid == 0 && !r.outside && !r.twice,
                  "%s on shard 1/3: %llu evaluated, %llu other shard, %llu invalid, %llu outside", name,
                  (unsigned long long)st.evaluated, (unsigned long long)st.other_shard,
                  (unsigned long long)st.invalid, (unsigned long long)r.outside);
    }
    free(r.owner);
    TEST_END();
}
