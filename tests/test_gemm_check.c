/* test_gemm_check.c — src/check/gemm_check.c, the host side of bench/gemm_verify: inputs rounded to nearest even in
 * their 16-bit types, the fp64 reference for both B layouts, and an error measure that passes an fp32-accumulated
 * GEMM of 16-bit inputs but fails a dropped product, a wrong layout and unwritten elements. No device: lavapipe has
 * no bfloat16, so this is where the bf16 path is tested (the fp16 one also runs end to end, tests/bench). */
#include "gemm_check.h"
#include "check.h"
#include "test.h"

#include <stdint.h>

static void test_rounding(void)
{
    /* Ties go to even: 1 + half an ulp stays 1, 1 + 3 half-ulps goes up to 1 + 2 ulps. */
    CHECK(vkat_float_to_bf16(1.0f + 0x1p-8f) == 0x3f80);
    CHECK(vkat_float_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3f82);
    CHECK(vkat_float_to_half(1.0f + 0x1p-11f) == 0x3c00);
    CHECK(vkat_float_to_half(1.0f + 3 * 0x1p-11f) == 0x3c02);

    enum { COUNT = 4096 };
    static float f32[COUNT];
    static uint16_t f16[COUNT], bf16[COUNT];
    gemm_fill_random(f32, VKAT_FLOAT32, COUNT, 7);
    gemm_fill_random(f16, VKAT_FLOAT16, COUNT, 7);
    gemm_fill_random(bf16, VKAT_BFLOAT16, COUNT, 7);
    int in_range = 1, exact = 1, rounded = 1, nearest = 1;
    for (int i = 0; i < COUNT; i++) {
        double x = f32[i];
        in_range &= x >= -1.0 && x < 1.0;
        exact &= x * 0x1p23 == (double)(int64_t)(x * 0x1p23); /* one rounding only: the float is the exact value */
        rounded &= f16[i] == vkat_float_to_half(f32[i]) && bf16[i] == vkat_float_to_bf16(f32[i]);
        /* within half an ulp: 2^-11 (fp16) and 2^-8 (bf16) of |x|, or the fp16 subnormal spacing near zero */
        nearest &= fabs(gemm_load(f16, VKAT_FLOAT16, (uint64_t)i) - x) <= fmax(fabs(x) * 0x1p-11, 0x1p-25) &&
                   fabs(gemm_load(bf16, VKAT_BFLOAT16, (uint64_t)i) - x) <= fabs(x) * 0x1p-8;
    }
    CHECK(in_range);
    CHECK(exact);
    CHECK(rounded);
    CHECK(nearest);
}

static void test_reference(void)
{
    /* A = [1 -2; 3 4], B = [5 6; 7 8] (K x N), and the same B stored transposed. */
    uint16_t a[4], b[4], bt[4];
    const float av[4] = {1, -2, 3, 4}, bv[4] = {5, 6, 7, 8}, btv[4] = {5, 7, 6, 8};
    for (int i = 0; i < 4; i++) {
        a[i] = vkat_float_to_bf16(av[i]);
        b[i] = vkat_float_to_half(bv[i]);
        bt[i] = vkat_float_to_half(btv[i]);
    }
    gemm_shape s = {2, 2, 2, 0, VKAT_BFLOAT16, VKAT_FLOAT16, VKAT_FLOAT32};
    double ref, scale;
    gemm_reference(&s, a, b, 0, 0, &ref, &scale);
    CHECK(ref == 1 * 5 - 2 * 7 && scale == 5 + 14);
    gemm_reference(&s, a, b, 1, 1, &ref, &scale);
    CHECK(ref == 3 * 6 + 4 * 8 && scale == 18 + 32);
    s.bt = 1;
    gemm_reference(&s, a, bt, 0, 1, &ref, &scale);
    CHECK(ref == 1 * 6 - 2 * 8 && scale == 6 + 16);
}

/* C = A * B the way a kernel does it: fp32 products and sums in K order, stored in `c_type`. */
static void kernel_like(const gemm_shape *s, const void *a, const void *b, void *c, uint64_t skip_k)
{
    for (uint64_t i = 0; i < s->m; i++)
        for (uint64_t j = 0; j < s->n; j++) {
            float acc = 0;
            for (uint64_t x = 0; x < s->k; x++)
                if (x != skip_k)
                    acc = fmaf((float)gemm_load(a, s->a_type, i * s->k + x),
                               (float)gemm_load(b, s->b_type, s->bt ? j * s->k + x : x * s->n + j), acc);
            if (s->c_type == VKAT_BFLOAT16)
                ((uint16_t *)c)[i * s->n + j] = vkat_float_to_bf16(acc);
            else
                ((float *)c)[i * s->n + j] = acc;
        }
}

static void test_check(void)
{
    enum { M = 40, N = 24, K = 512 };
    static uint16_t a[M * K], b[K * N], c16[M * N];
    static float c[M * N];
    gemm_shape s = {M, N, K, 0, VKAT_BFLOAT16, VKAT_BFLOAT16, VKAT_FLOAT32};
    gemm_fill_random(a, VKAT_BFLOAT16, M * K, 1);
    gemm_fill_random(b, VKAT_BFLOAT16, K * N, 2);
    gemm_check_result r;
    double tol = gemm_default_tolerance(&s);
    CHECK(tol == 1e-3);

    for (int bt = 0; bt <= 1; bt++) {
        s.bt = bt;
        kernel_like(&s, a, b, c, UINT64_MAX);
        gemm_check_sampled(&s, a, b, c, 500, 3, &r);
        CHECK(r.checked == 504 && r.nonfinite == 0);
        CHECK_MSG(r.max_rel_err < 1e-6, "bt %d: fp32 accumulation of bf16 inputs: %g", bt, r.max_rel_err);
        /* The same C claimed with the other layout of B: wrong everywhere. */
        s.bt = !bt;
        gemm_check_sampled(&s, a, b, c, 500, 3, &r);
        CHECK_MSG(r.max_rel_err > 0.1, "bt %d read as %d: %g", bt, !bt, r.max_rel_err);
    }

    /* One product of 512 missing: about 1/512 of the scale, above even the 16-bit inputs' tolerance. */
    s.bt = 0;
    kernel_like(&s, a, b, c, 100);
    gemm_check_sampled(&s, a, b, c, 500, 3, &r);
    CHECK_MSG(r.max_rel_err > tol, "a missing product: %g", r.max_rel_err);

    /* An unwritten element (NaN poison) in a corner, which every check looks at. */
    kernel_like(&s, a, b, c, UINT64_MAX);
    c[M * N - 1] = NAN;
    gemm_check_sampled(&s, a, b, c, 0, 3, &r);
    CHECK(r.checked == 4 && r.nonfinite == 1 && isinf(r.max_rel_err) && r.worst_i == M - 1 && r.worst_j == N - 1);

    /* A bfloat16 C: its rounding (up to 2^-8 of |c|) passes the default tolerance, not fp32's. */
    s.c_type = VKAT_BFLOAT16;
    kernel_like(&s, a, b, c16, UINT64_MAX);
    gemm_check_sampled(&s, a, b, c16, 500, 3, &r);
    CHECK_MSG(r.max_rel_err <= gemm_default_tolerance(&s) && r.max_rel_err > 1e-5, "bf16 C: %g", r.max_rel_err);

    gemm_shape f32 = {M, N, K, 0, VKAT_FLOAT32, VKAT_FLOAT32, VKAT_FLOAT32};
    CHECK(gemm_default_tolerance(&f32) == 1e-5);
}

/* int8 x int8 -> int32: the whole input range, exact sums, tolerance 0, and the operand types that go together. */
static void test_integer(void)
{
    enum { M = 8, N = 6, K = 300 };
    static int8_t a[M * K], b[K * N];
    static int32_t c[M * N];
    gemm_shape s = {M, N, K, 0, VKAT_INT8, VKAT_INT8, VKAT_INT32};
    CHECK(gemm_shape_problem(&s) == NULL && gemm_default_tolerance(&s) == 0);
    gemm_fill_random(a, VKAT_INT8, M * K, 3);
    gemm_fill_random(b, VKAT_INT8, K * N, 4);
    int lo = 0, hi = 0;
    for (int i = 0; i < M * K; i++) {
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
    }
    CHECK(lo < -120 && hi > 120); /* signed, the whole range */
    CHECK(gemm_load(a, VKAT_INT8, 0) == (double)a[0]);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int32_t acc = 0;
            for (int x = 0; x < K; x++)
                acc += a[i * K + x] * b[x * N + j];
            c[i * N + j] = acc;
        }
    gemm_check_result r;
    gemm_check_sampled(&s, a, b, c, 64, 1, &r);
    CHECK(r.checked == 68 && r.max_rel_err == 0 && r.nonfinite == 0);
    c[3 * N + 2] += 1; /* one off by one: seen, however large the sum */
    gemm_check_sampled(&s, a, b, c, 400, 1, &r);
    CHECK(r.max_rel_err > 0 && r.worst_i == 3 && r.worst_j == 2);
    gemm_shape mixed = {M, N, K, 0, VKAT_INT8, VKAT_INT8, VKAT_FLOAT32};
    CHECK_STR(gemm_shape_problem(&mixed), "A, B and C must be all floating-point or all integer");
    gemm_shape wide = {M, N, K, 0, VKAT_INT32, VKAT_INT32, VKAT_INT32};
    CHECK(gemm_shape_problem(&wide) != NULL);
    gemm_shape narrow_c = {M, N, K, 0, VKAT_UINT8, VKAT_UINT8, VKAT_UINT8};
    CHECK(gemm_shape_problem(&narrow_c) != NULL);
    gemm_shape floats = {M, N, K, 1, VKAT_FLOAT16, VKAT_FLOAT16, VKAT_FLOAT32};
    CHECK(gemm_shape_problem(&floats) == NULL && gemm_default_tolerance(&floats) > 0);
}

int main(void)
{
    test_integer();
    test_rounding();
    test_reference();
    test_check();
    TEST_END();
}
