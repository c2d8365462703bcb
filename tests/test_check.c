/* test_check.c — float16/bfloat16 conversions (against an exhaustive nearest-value oracle and the compiler's
 * _Float16 when it has one) and vkat_check_compare's verdicts and reasons for every kind of wrong output. */
#include "check.h"
#include "test.h"

#include <stdint.h>

static uint32_t fbits(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    return x;
}

static float bitsf(uint32_t x)
{
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint64_t rng_state = 0x1234567887654321ull;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Is `h` the round-to-nearest-even 16-bit encoding of f? Checked against its neighbours in the same sign's
 * magnitude order, with values decoded by `dec` (exact in double). */
static int is_nearest_even(float f, uint16_t h, float (*dec)(uint16_t), uint16_t inf)
{
    uint16_t sign = h & 0x8000u, mag = h & 0x7fffu;
    if (!!signbit(f) != (sign != 0))
        return 0;
    double x = fabs((double)f);
    double v = fabs((double)dec(h));
    /* Candidates: mag-1 and mag+1 (when finite or Inf). */
    for (int dm = -1; dm <= 1; dm += 2) {
        int m = (int)mag + dm;
        if (m < 0 || m > inf)
            continue;
        double w = fabs((double)dec((uint16_t)m));
        if (m == inf)
            continue; /* overflow handled by the caller's own checks */
        if (fabs(w - x) < fabs(v - x))
            return 0;
        if (fabs(w - x) == fabs(v - x) && (mag & 1))
            return 0; /* a tie must pick the even encoding */
    }
    return 1;
}

static void test_half(void)
{
    /* Every half decodes and re-encodes to itself (NaNs stay NaN). */
    int roundtrip_bad = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        float f = vkat_half_to_float((uint16_t)h);
        uint16_t back = vkat_float_to_half(f);
        int is_nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
        if (is_nan ? !(isnan(f) && (back & 0x7c00u) == 0x7c00u && (back & 0x3ffu)) : back != h)
            roundtrip_bad++;
    }
    CHECK_MSG(roundtrip_bad == 0, "%d half values do not round-trip", roundtrip_bad);

    CHECK(vkat_half_to_float(0x3c00) == 1.0f);
    CHECK(vkat_half_to_float(0xc000) == -2.0f);
    CHECK(vkat_half_to_float(0x7bff) == 65504.0f);
    CHECK(vkat_half_to_float(0x0001) == ldexpf(1.0f, -24)); /* smallest subnormal */
    CHECK(vkat_half_to_float(0x0400) == ldexpf(1.0f, -14)); /* smallest normal */
    CHECK(isinf(vkat_half_to_float(0x7c00)) && vkat_half_to_float(0xfc00) < 0);
    CHECK(isnan(vkat_half_to_float(0x7e01)));
    CHECK(signbit(vkat_half_to_float(0x8000)));

    CHECK(vkat_float_to_half(1.0f) == 0x3c00);
    CHECK(vkat_float_to_half(65504.0f) == 0x7bff);
    CHECK(vkat_float_to_half(65520.0f) == 0x7c00); /* halfway to the next power: rounds to Inf */
    CHECK(vkat_float_to_half(65519.0f) == 0x7bff);
    CHECK(vkat_float_to_half(1e10f) == 0x7c00);
    CHECK(vkat_float_to_half(-INFINITY) == 0xfc00);
    CHECK((vkat_float_to_half(NAN) & 0x7e00) == 0x7e00);
    CHECK(vkat_float_to_half(bitsf(0x7f800001u)) != 0x7c00); /* a NaN with only low payload bits is not Inf */
    CHECK(vkat_float_to_half(ldexpf(1.0f, -25)) == 0x0000);  /* tie between 0 and the smallest subnormal: even */
    CHECK(vkat_float_to_half(ldexpf(1.5f, -25)) == 0x0001);
    CHECK(vkat_float_to_half(ldexpf(3.0f, -25)) == 0x0002); /* 1.5 subnormal ulps: tie rounds to even (2) */
    CHECK(vkat_float_to_half(ldexpf(1.0f, -26)) == 0x0000);
    CHECK(vkat_float_to_half(-ldexpf(1.0f, -30)) == 0x8000);
    CHECK(vkat_float_to_half(bitsf(0x00000001u)) == 0x0000);       /* float32 subnormal */
    CHECK(vkat_float_to_half(1.0f + ldexpf(1.0f, -11)) == 0x3c00); /* tie: 1.0 is even */
    CHECK(vkat_float_to_half(1.0f + ldexpf(3.0f, -11)) == 0x3c02); /* tie: up to even */
    CHECK(vkat_float_to_half(ldexpf(1023.5f, -24)) == 0x0400);     /* largest subnormal rounds up to normal */

    int oracle_bad = 0, compiler_bad = 0;
    for (int i = 0; i < 200000; i++) {
        /* Exponents around half's range, all mantissas. */
        uint32_t x = (uint32_t)rng();
        uint32_t exp = 127 - 28 + (uint32_t)(rng() % 46);
        x = (x & 0x807fffffu) | (exp << 23);
        if (i % 7 == 0)
            x &= 0xffffe000u | (1u << 12); /* make exact ties common */
        float f = bitsf(x);
        uint16_t h = vkat_float_to_half(f);
        if (fabsf(f) < 65520.0f && !is_nearest_even(f, h, vkat_half_to_float, 0x7c00))
            oracle_bad++;
#ifdef __FLT16_MAX__
        _Float16 c = (_Float16)f;
        uint16_t cb;
        memcpy(&cb, &c, 2);
        if (cb != h)
            compiler_bad++;
#endif
    }
    CHECK_MSG(oracle_bad == 0, "%d float->half conversions are not nearest-even", oracle_bad);
    CHECK_MSG(compiler_bad == 0, "%d float->half conversions differ from _Float16", compiler_bad);
    (void)fbits;
}

static void test_bf16(void)
{
    CHECK(vkat_float_to_bf16(1.0f) == 0x3f80);
    CHECK(vkat_bf16_to_float(0x3f80) == 1.0f);
    CHECK(vkat_bf16_to_float(0xc040) == -3.0f);
    CHECK(vkat_float_to_bf16(bitsf(0x3f808000u)) == 0x3f80); /* tie: even stays */
    CHECK(vkat_float_to_bf16(bitsf(0x3f818000u)) == 0x3f82); /* tie: odd rounds up */
    CHECK(vkat_float_to_bf16(bitsf(0x3f808001u)) == 0x3f81);
    CHECK(vkat_float_to_bf16(bitsf(0x7f7fffffu)) == 0x7f80); /* FLT_MAX rounds to Inf */
    CHECK(vkat_float_to_bf16(INFINITY) == 0x7f80);
    CHECK(vkat_float_to_bf16(bitsf(0x7f800001u)) != 0x7f80 &&
          isnan(vkat_bf16_to_float(vkat_float_to_bf16(bitsf(0x7f800001u)))));
    CHECK(vkat_float_to_bf16(bitsf(0x00008000u)) == 0x0000); /* subnormal tie to even */
    CHECK(vkat_float_to_bf16(bitsf(0x00018000u)) == 0x0002);
    CHECK(vkat_float_to_bf16(-0.0f) == 0x8000);
    int bad = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        float f = vkat_bf16_to_float((uint16_t)b);
        uint16_t back = vkat_float_to_bf16(f);
        if (isnan(f) ? !isnan(vkat_bf16_to_float(back)) : back != b)
            bad++;
    }
    CHECK_MSG(bad == 0, "%d bf16 values do not round-trip", bad);
    int oracle_bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint32_t x = (uint32_t)rng();
        if (i % 5 == 0)
            x = (x & 0xffff0000u) | 0x8000u;
        float f = bitsf(x);
        if (!isfinite(f) || fabsf(f) >= bitsf(0x7f7f8000u))
            continue;
        if (!is_nearest_even(f, vkat_float_to_bf16(f), vkat_bf16_to_float, 0x7f80))
            oracle_bad++;
    }
    CHECK_MSG(oracle_bad == 0, "%d float->bf16 conversions are not nearest-even", oracle_bad);
}

static void test_compare_float32(void)
{
    enum { N = 1000 };
    static float ref[N], got[N];
    uint32_t poison_bits = 0x7fc0dead;
    float poison;
    memcpy(&poison, &poison_bits, 4);
    for (int i = 0; i < N; i++)
        ref[i] = got[i] = (float)(i % 17) - 8.0f + 0.25f;
    vkat_check_opts opts = {1e-5, INFINITY};
    vkat_check_report r;

    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(r.ok && r.rel_l2 == 0 && r.max_abs == 0 && r.first_bad == UINT64_MAX);
    CHECK_CONTAINS(r.reason, "ok");
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, NULL, &r);
    CHECK(r.ok);

    /* Small noise passes the L2 tolerance; a big error at one element fails it and is named. */
    got[10] += 1e-6f;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK_MSG(r.ok, "%s", r.reason);
    got[123] += 1.0f;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(!r.ok && r.rel_l2 > 1e-5 && r.first_bad == 123 && r.unwritten == 0 && r.nonfinite == 0);
    CHECK(fabs(r.max_abs - 1.0) < 1e-6);
    CHECK_CONTAINS(r.reason, "rel L2");
    CHECK_CONTAINS(r.reason, "element 123");
    /* A max-abs tolerance catches what the loose L2 tolerance lets through. */
    vkat_check_opts loose = {1.0, 0.5};
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &loose, &r);
    CHECK(!r.ok && r.first_bad == 123);
    CHECK_CONTAINS(r.reason, "max abs");
    got[123] = ref[123];

    /* NaN/Inf in the output. */
    got[5] = NAN;
    got[700] = -INFINITY;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(!r.ok && r.nonfinite == 2 && r.first_bad == 5);
    CHECK_CONTAINS(r.reason, "2 NaN/Inf");
    got[5] = ref[5];
    got[700] = ref[700];

    /* Poison where the reference wrote a value: unwritten, reported before anything else. */
    for (int i = 40; i < 52; i++)
        got[i] = poison;
    got[900] += 3.0f;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 12 && r.nonfinite == 0 && r.first_bad == 40);
    CHECK_MSG(strncmp(r.reason, "12 unwritten elements (first at 40)", 35) == 0, "%s", r.reason);
    CHECK_CONTAINS(r.reason, "rel L2");
    for (int i = 0; i < N; i++)
        got[i] = poison;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == N);
    CHECK_CONTAINS(r.reason, "all 1000 elements unwritten");
    memcpy(got, ref, sizeof got);

    /* The reference's own NaN/Inf must be matched in kind. */
    ref[3] = got[3] = NAN;
    ref[4] = got[4] = INFINITY;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK_MSG(r.ok, "%s", r.reason);
    got[4] = 1.0f;
    vkat_check_compare(VKAT_FLOAT32, got, ref, N, &poison, &opts, &r);
    CHECK(!r.ok && r.first_bad == 4);
    CHECK_CONTAINS(r.reason, "reference's NaN/Inf");

    /* An all-zero reference: absolute L2. */
    float z[4] = {0, 0, 0, 0}, g[4] = {0, 0, 3, 4};
    vkat_check_compare(VKAT_FLOAT32, g, z, 4, &poison, &opts, &r);
    CHECK(!r.ok && fabs(r.rel_l2 - 5.0) < 1e-12);
    vkat_check_compare(VKAT_FLOAT32, z, z, 4, &poison, &opts, &r);
    CHECK(r.ok);
    vkat_check_compare(VKAT_FLOAT32, z, z, 0, &poison, &opts, &r);
    CHECK(r.ok);
}

static void test_compare_half(void)
{
    uint16_t ref[64], got[64], poison = 0x7e01, bpoison = 0x7fc1;
    for (int i = 0; i < 64; i++)
        ref[i] = got[i] = vkat_float_to_half((float)i * 0.5f);
    vkat_check_opts opts = {1e-3, INFINITY};
    vkat_check_report r;
    vkat_check_compare(VKAT_FLOAT16, got, ref, 64, &poison, &opts, &r);
    CHECK(r.ok);
    got[7] = poison;
    vkat_check_compare(VKAT_FLOAT16, got, ref, 64, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 1 && r.nonfinite == 0 && r.first_bad == 7);
    got[7] = 0x7e00; /* a NaN that is not the poison: the kernel wrote a NaN */
    vkat_check_compare(VKAT_FLOAT16, got, ref, 64, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 0 && r.nonfinite == 1);
    got[7] = ref[7];
    got[9] = vkat_float_to_half(vkat_half_to_float(ref[9]) + 1.0f);
    vkat_check_compare(VKAT_FLOAT16, got, ref, 64, &poison, &opts, &r);
    CHECK(!r.ok && r.first_bad == 9);

    for (int i = 0; i < 64; i++)
        ref[i] = got[i] = vkat_float_to_bf16((float)i);
    got[63] = bpoison;
    vkat_check_compare(VKAT_BFLOAT16, got, ref, 64, &bpoison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 1 && r.first_bad == 63);
}

static void test_compare_ints(void)
{
    int32_t ref[100], got[100];
    uint32_t poison = 0xDEADBEEFu;
    for (int i = 0; i < 100; i++)
        ref[i] = got[i] = i * 3 - 50;
    vkat_check_report r;
    vkat_check_opts opts = {1.0, INFINITY}; /* tolerances do not apply to integers */
    vkat_check_compare(VKAT_INT32, got, ref, 100, &poison, &opts, &r);
    CHECK(r.ok);
    got[20] += 1;
    got[30] += 1;
    vkat_check_compare(VKAT_INT32, got, ref, 100, &poison, &opts, &r);
    CHECK(!r.ok && r.first_bad == 20 && r.max_abs == 1.0);
    CHECK_CONTAINS(r.reason, "2 elements differ (first at 20: got 11, want 10)");
    got[20] = ref[20];
    got[30] = ref[30];
    memcpy(&got[99], &poison, 4);
    vkat_check_compare(VKAT_UINT32, got, ref, 100, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 1 && r.first_bad == 99);
    CHECK_CONTAINS(r.reason, "1 unwritten elements (first at 99)");

    uint8_t bref[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 200}, bgot[10], bpoison = 0xAD;
    memcpy(bgot, bref, 10);
    vkat_check_compare(VKAT_UINT8, bgot, bref, 10, &bpoison, NULL, &r);
    CHECK(r.ok);
    bgot[9] = 199;
    vkat_check_compare(VKAT_UINT8, bgot, bref, 10, &bpoison, NULL, &r);
    CHECK(!r.ok);
    CHECK_CONTAINS(r.reason, "got 199, want 200");
    vkat_check_compare(VKAT_INT8, bgot, bref, 10, &bpoison, NULL, &r);
    CHECK_CONTAINS(r.reason, "got -57, want -56");
}

/* A buffer large enough to be compared in slices on several threads: the counts, the first bad element, the worst
 * element and the norm must be what one straightforward pass finds. */
static void test_compare_large(void)
{
    const uint64_t n = 3000001;
    float *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    if (!ref || !got) {
        CHECK_MSG(0, "out of memory");
        free(ref);
        free(got);
        return;
    }
    uint32_t x = 12345;
    for (uint64_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        ref[i] = (float)((double)(x >> 8) / (1 << 24) - 0.5);
        got[i] = ref[i];
    }
    got[100] += 1e-3f;
    got[900000] += 0.5f;
    got[1700000] = NAN;
    uint32_t poison_bits = 0x7fc0dead; /* a quiet NaN, as bench.c poisons float32 */
    uint8_t poison[4];
    memcpy(poison, &poison_bits, 4);
    memcpy(&got[2500000], poison, 4);
    double diff2 = 0, ref2 = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (i == 1700000 || i == 2500000)
            continue;
        double d = (double)got[i] - (double)ref[i];
        diff2 += d * d;
        ref2 += (double)ref[i] * (double)ref[i];
    }
    vkat_check_opts o = {1e-5, INFINITY};
    vkat_check_report r;
    vkat_check_compare(VKAT_FLOAT32, got, ref, n, poison, &o, &r);
    CHECK(!r.ok);
    CHECK(r.unwritten == 1 && r.nonfinite == 1);
    CHECK_MSG(r.first_bad == 1700000, "first bad %llu", (unsigned long long)r.first_bad);
    CHECK(fabs(r.max_abs - fabs((double)got[900000] - (double)ref[900000])) < 1e-12);
    CHECK_MSG(fabs(r.rel_l2 - sqrt(diff2) / sqrt(ref2)) <= 1e-12 * r.rel_l2, "rel L2 %.17g vs %.17g", r.rel_l2,
              sqrt(diff2) / sqrt(ref2));
    CHECK_CONTAINS(r.reason, "1 unwritten elements (first at 2500000)");
    CHECK_CONTAINS(r.reason, "(first at 1700000)");
    /* The same buffer without the planted faults passes. */
    got[100] = ref[100];
    got[900000] = ref[900000];
    got[1700000] = ref[1700000];
    got[2500000] = ref[2500000];
    vkat_check_compare(VKAT_FLOAT32, got, ref, n, poison, &o, &r);
    CHECK(r.ok && r.rel_l2 == 0 && r.first_bad == UINT64_MAX);
    free(ref);
    free(got);
}

/* 8-bit UNORM compares as the floats it stands for (byte / 255) under the tolerances; a byte equal to the poison is
 * one value among 256, so it is judged by its value (wrong when far from the reference's), never "unwritten". */
static void test_compare_unorm8(void)
{
    uint8_t ref[64], got[64], poison = 0xAD;
    for (int i = 0; i < 64; i++)
        ref[i] = (uint8_t)(4 * i);
    memcpy(got, ref, sizeof got);
    vkat_check_opts opts = {1e-2, 1.5 / 255};
    vkat_check_report r;
    got[3] += 1; /* one step of rounding */
    vkat_check_compare(VKAT_UNORM8, got, ref, 64, &poison, &opts, &r);
    CHECK_MSG(r.ok && fabs(r.max_abs - 1 / 255.0) < 1e-12, "%s", r.reason);
    ref[43] = poison + 1, got[43] = poison; /* the poison's byte, one step from the reference: correct */
    vkat_check_compare(VKAT_UNORM8, got, ref, 64, &poison, &opts, &r);
    CHECK_MSG(r.ok && r.unwritten == 0, "%s", r.reason);
    got[10] = poison; /* far from the reference's 40 */
    vkat_check_compare(VKAT_UNORM8, got, ref, 64, &poison, &opts, &r);
    CHECK(!r.ok && r.unwritten == 0 && r.first_bad == 10);
    CHECK_CONTAINS(r.reason, "got 0.678431373, want 0.156862745");
}

/* [check] compare.NAME = unordered: both sides sorted, then compared as usual. Floats sort by value, so 1.0000001
 * from a variant still pairs with the reference's 1.0 (by bytes, little-endian, 1.5 would have come between them);
 * integers by their bytes, equal ones together; a different collection still fails. */
static void test_sort_unordered(void)
{
    float ref[4] = {1.5f, -2.0f, 1.0f, 3.0f}, got[4] = {3.0f, 1.0000001f, 1.5f, -2.0f};
    uint32_t poison_bits = 0x7fc0dead;
    float poison;
    memcpy(&poison, &poison_bits, 4);
    vkat_check_opts opts = {1e-5, INFINITY};
    vkat_check_report r;
    CHECK(vkat_check_sort_elements(VKAT_FLOAT32, ref, 4) == VKAT_OK);
    CHECK(vkat_check_sort_elements(VKAT_FLOAT32, got, 4) == VKAT_OK);
    CHECK(ref[0] == -2.0f && ref[1] == 1.0f && ref[2] == 1.5f && ref[3] == 3.0f);
    vkat_check_compare(VKAT_FLOAT32, got, ref, 4, &poison, &opts, &r);
    CHECK_MSG(r.ok, "%s", r.reason);

    uint32_t iref[6] = {7, 70000, 3, 7, 0x01000000, 2}, igot[6] = {2, 7, 0x01000000, 3, 70000, 7};
    uint32_t ipoison = 0xdeadbeef;
    CHECK(vkat_check_sort_elements(VKAT_UINT32, iref, 6) == VKAT_OK);
    CHECK(vkat_check_sort_elements(VKAT_UINT32, igot, 6) == VKAT_OK);
    vkat_check_compare(VKAT_UINT32, igot, iref, 6, &ipoison, NULL, &r);
    CHECK_MSG(r.ok, "%s", r.reason);
    uint32_t iother[6] = {2, 7, 0x01000000, 3, 70000, 8}; /* one element differs */
    CHECK(vkat_check_sort_elements(VKAT_UINT32, iother, 6) == VKAT_OK);
    vkat_check_compare(VKAT_UINT32, iother, iref, 6, &ipoison, NULL, &r);
    CHECK(!r.ok);
    uint16_t h[3] = {0x3c00, 0xc000, 0x3e00}; /* 1.0, -2.0, 1.5 in fp16 */
    CHECK(vkat_check_sort_elements(VKAT_FLOAT16, h, 3) == VKAT_OK);
    CHECK(h[0] == 0xc000 && h[1] == 0x3c00 && h[2] == 0x3e00);
    CHECK(vkat_check_sort_elements(VKAT_FLOAT32, got, 1) == VKAT_OK && vkat_check_sort_elements(VKAT_FLOAT32, got, 0) ==
                                                                            VKAT_OK);
}

int main(void)
{
    test_half();
    test_compare_unorm8();
    test_bf16();
    test_compare_float32();
    test_compare_half();
    test_compare_large();
    test_compare_ints();
    test_sort_unordered();
    TEST_END();
}
