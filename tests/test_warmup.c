/* test_warmup.c — the rule that ends a warm-up (run/warmup.h) on made-up batch times: a clock ramp keeps it going,
 * flat times end it once the minimum has passed, and long batches compare one against one. No GPU. */
#include "test.h"
#include "warmup.h"

/* n batches of `len` seconds each, per-dispatch times from f. */
static void batches(double *per, double *at, uint32_t n, double len, double (*f)(uint32_t))
{
    for (uint32_t i = 0; i < n; i++) {
        per[i] = f(i);
        at[i] = len * (i + 1);
    }
}

static double flat(uint32_t i)
{
    (void)i;
    return 1e-3;
}

/* Clocks climbing: 4x slower at first, 1% faster every batch until warm at batch 140. */
static double ramp(uint32_t i)
{
    return i < 140 ? 1e-3 * (1 + 3.0 * (140 - i) / 140) : 1e-3;
}

/* A first batch that is slow (first use), then flat. */
static double slow_first(uint32_t i)
{
    return i == 0 ? 5e-3 : 1e-3;
}

int main(void)
{
    double per[400], at[400];

    /* Flat: not before two batches (one against one), not before the minimum, then at once. */
    batches(per, at, 400, 1e-3, flat);
    CHECK(!vkat_warmup_settled(per, at, 1, 0));
    CHECK(vkat_warmup_settled(per, at, 2, 0));
    CHECK(!vkat_warmup_settled(per, at, 19, 0.02));
    CHECK(vkat_warmup_settled(per, at, 20, 0.02));

    /* A ramp: never settled while the times fall (each batch 1 ms, windows of 10 ms), settled once they stop. */
    batches(per, at, 400, 1e-3, ramp);
    int early = 0;
    for (uint32_t n = 3; n < 140; n++)
        early |= vkat_warmup_settled(per, at, n, 0.02);
    CHECK_MSG(!early, "settled while the clocks were still climbing");
    int settled_at = 0;
    for (uint32_t n = 140; n < 400 && !settled_at; n++)
        if (vkat_warmup_settled(per, at, n, 0.02))
            settled_at = (int)n;
    CHECK_MSG(settled_at > 140 && settled_at <= 170, "settled after %d batches", settled_at);

    /* Noise within the tolerance does not keep it going; a window whose best is 1% faster does. */
    batches(per, at, 400, 1e-3, flat);
    for (uint32_t i = 10; i < 20; i++)
        per[i] = 1e-3 * (1 - 0.6 * VKAT_WARMUP_TOLERANCE);
    CHECK(vkat_warmup_settled(per, at, 20, 0.02));
    for (uint32_t i = 10; i < 20; i++)
        per[i] = 0.99e-3;
    CHECK(!vkat_warmup_settled(per, at, 20, 0.02));

    /* A slow first batch (first use of the pipeline) holds nothing up once a warm one follows it; two slow ones
     * in a row read as still falling. */
    batches(per, at, 400, 1e-3, slow_first);
    CHECK(!vkat_warmup_settled(per, at, 2, 0));
    CHECK(vkat_warmup_settled(per, at, 3, 0));
    per[1] = 4e-3;
    CHECK(!vkat_warmup_settled(per, at, 3, 0));

    /* Batches longer than the window: the last against the one before, from the second on. */
    batches(per, at, 400, 30e-3, ramp);
    CHECK(!vkat_warmup_settled(per, at, 2, 0.02) && !vkat_warmup_settled(per, at, 3, 0.02));
    batches(per, at, 400, 30e-3, flat);
    CHECK(vkat_warmup_settled(per, at, 2, 0.02));
    CHECK(!vkat_warmup_settled(per, at, 2, 0.02 + 61e-3)); /* not before the minimum, however long the batches */

    /* Samples clearly faster than the warm-up's end (the H200's plateau: 3.74 ms, then 0.81): ended early; within
     * 2 %, or slower, not; a few fast outliers do not move the median. */
    double warm[] = {0.81e-3, 0.80e-3, 0.82e-3}, same[] = {3.70e-3, 3.75e-3, 3.69e-3};
    double mixed[] = {3.7e-3, 3.8e-3, 0.8e-3};
    CHECK(vkat_warmup_ended_early(3.74e-3, warm, 3));
    CHECK(!vkat_warmup_ended_early(3.74e-3, same, 3));
    CHECK(!vkat_warmup_ended_early(3.74e-3, mixed, 3));
    CHECK(!vkat_warmup_ended_early(0, warm, 3) && !vkat_warmup_ended_early(3.74e-3, warm, 0));

    /* A fixed warm-up: the minimum is never reached before the maximum. */
    batches(per, at, 400, 1e-3, flat);
    CHECK(!vkat_warmup_settled(per, at, 199, 0.2));
    TEST_END();
}
