/* gemm_check.c — inputs and the fp64 reference for bench/gemm_verify (gemm_check.h). Everything is deterministic
 * from the seeds, so a failing run can be repeated exactly. */
#include "gemm_check.h"
#include "check.h"

#include <math.h>
#include <string.h>

int gemm_type_supported(vkat_elem_type t)
{
    return t == VKAT_FLOAT32 || t == VKAT_FLOAT16 || t == VKAT_BFLOAT16 || gemm_type_integer(t);
}

int gemm_type_integer(vkat_elem_type t)
{
    return t == VKAT_INT8 || t == VKAT_UINT8 || t == VKAT_INT32 || t == VKAT_UINT32;
}

const char *gemm_shape_problem(const gemm_shape *s)
{
    int ia = gemm_type_integer(s->a_type), ib = gemm_type_integer(s->b_type), ic = gemm_type_integer(s->c_type);
    if (ia != ib || ia != ic)
        return "A, B and C must be all floating-point or all integer";
    /* 8-bit products summed over K stay below 2^53 for any K a buffer can hold, so the reference is exact. */
    if (ia && (vkat_elem_type_size(s->a_type) != 1 || vkat_elem_type_size(s->b_type) != 1))
        return "an integer GEMM here takes 8-bit A and B (int32 or uint32 C)";
    if (ic && vkat_elem_type_size(s->c_type) != 4)
        return "an integer GEMM here writes a 32-bit C";
    return NULL;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

void gemm_fill_random(void *dst, vkat_elem_type type, uint64_t count, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (uint64_t i = 0; i < count; i++) {
        if (type == VKAT_INT8 || type == VKAT_UINT8) { /* the whole range: -128..127 or 0..255 */
            ((uint8_t *)dst)[i] = (uint8_t)(xorshift(&s) >> 56);
            continue;
        }
        /* x / 2^23 - 1 with a 24-bit x is exact in float32, so the one rounding is the conversion to `type`
         * (never double -> float -> half, which could round twice). */
        float v = (float)(xorshift(&s) >> 40) * 0x1p-23f - 1.0f;
        if (type == VKAT_FLOAT16)
            ((uint16_t *)dst)[i] = vkat_float_to_half(v);
        else if (type == VKAT_BFLOAT16)
            ((uint16_t *)dst)[i] = vkat_float_to_bf16(v);
        else
            ((float *)dst)[i] = v;
    }
}

double gemm_load(const void *buf, vkat_elem_type type, uint64_t index)
{
    if (type == VKAT_INT8)
        return ((const int8_t *)buf)[index];
    if (type == VKAT_UINT8)
        return ((const uint8_t *)buf)[index];
    if (type == VKAT_INT32 || type == VKAT_UINT32) {
        uint32_t u;
        memcpy(&u, (const unsigned char *)buf + 4 * index, sizeof u);
        return type == VKAT_INT32 ? (double)(int32_t)u : (double)u;
    }
    if (type == VKAT_FLOAT16)
        return vkat_half_to_float(((const uint16_t *)buf)[index]);
    if (type == VKAT_BFLOAT16)
        return vkat_bf16_to_float(((const uint16_t *)buf)[index]);
    float f;
    memcpy(&f, (const unsigned char *)buf + 4 * index, sizeof f);
    return f;
}

void gemm_reference(const gemm_shape *s, const void *a, const void *b, uint64_t i, uint64_t j, double *ref,
                    double *scale)
{
    double acc = 0, mag = 0;
    for (uint64_t x = 0; x < s->k; x++) {
        double p = gemm_load(a, s->a_type, i * s->k + x) *
                   gemm_load(b, s->b_type, s->bt ? j * s->k + x : x * s->n + j);
        acc += p;
        mag += fabs(p);
    }
    *ref = acc;
    *scale = mag;
}

static void check_one(const gemm_shape *s, const void *a, const void *b, const void *c, uint64_t i, uint64_t j,
                      gemm_check_result *r)
{
    double ref, scale;
    gemm_reference(s, a, b, i, j, &ref, &scale);
    double got = gemm_load(c, s->c_type, i * s->n + j);
    double err = isfinite(got) ? fabs(got - ref) / (scale > 0 ? scale : 1.0) : INFINITY;
    if (!isfinite(got))
        r->nonfinite++;
    if (r->checked++ == 0 || err > r->max_rel_err || (isnan(err) && !isnan(r->max_rel_err))) {
        r->max_rel_err = err;
        r->worst_i = i, r->worst_j = j, r->worst_got = got, r->worst_ref = ref;
    }
}

void gemm_check_sampled(const gemm_shape *s, const void *a, const void *b, const void *c, uint64_t samples,
                        uint64_t seed, gemm_check_result *out)
{
    memset(out, 0, sizeof *out);
    if (!s->m || !s->n)
        return;
    /* The corners catch edge tiles and the last element; random positions catch wrong tiles and strides. */
    check_one(s, a, b, c, 0, 0, out);
    check_one(s, a, b, c, 0, s->n - 1, out);
    check_one(s, a, b, c, s->m - 1, 0, out);
    check_one(s, a, b, c, s->m - 1, s->n - 1, out);
    uint64_t st = seed * 0x9e3779b97f4a7c15ull + 7;
    for (uint64_t t = 0; t < samples; t++) {
        uint64_t i = xorshift(&st) % s->m, j = xorshift(&st) % s->n;
        check_one(s, a, b, c, i, j, out);
    }
}

/* The reference uses the same rounded inputs as the kernel, so input rounding does not count; what remains is the
 * kernel's accumulation (and output) rounding, measured against sum |a b|, which bounds it for any summation order:
 *  - fp32 inputs: products and sums in fp32 give errors of a few fp32 ulps (2^-24 = 6e-8) of the scale in
 *    practice (the worst case, K ulps, is not reached by random data). 1e-5 is ~100x that and still sees one
 *    missing product in K = 14336 (1/K = 7e-5) or a TF32-rounded (10-bit) input path.
 *  - 16-bit inputs: their products are exact in fp32, so an fp32 accumulator is as accurate as above, but the
 *    cooperative-matrix hardware such kernels run on may align or accumulate in fewer bits. 1e-3 allows for that
 *    yet sees a dropped K tile (16 of 4096 products: 4e-3), where the 1e-2 often used for 16-bit data would not.
 *  - a 16-bit C adds its own rounding, at most its unit roundoff of |c| <= scale: 2^-11 (fp16), 2^-8 (bf16).
 *  - integers (8-bit in, 32-bit out) are exact: 0. */
double gemm_default_tolerance(const gemm_shape *s)
{
    if (gemm_type_integer(s->c_type))
        return 0;
    double tol = s->a_type == VKAT_FLOAT32 && s->b_type == VKAT_FLOAT32 ? 1e-5 : 1e-3;
    if (s->c_type == VKAT_FLOAT16)
        tol += 0x1p-11;
    else if (s->c_type == VKAT_BFLOAT16)
        tol += 0x1p-8;
    return tol;
}
