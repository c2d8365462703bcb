/* gemm_check.h — the fp64 GEMM reference that bench/gemm_verify checks an exported GEMM with: inputs in their
 * element types and the reference at sampled elements of C. Pure host code: no Vulkan, no printing. */
#ifndef VKAT_GEMM_CHECK_H
#define VKAT_GEMM_CHECK_H

#include "vkautotune.h"

#include <stdint.h>

/* C[M][N] = A[M][K] * B, row-major; B is K x N (bt = 0) or stored transposed, N x K (bt = 1). Element types are
 * float32, float16 or bfloat16, or for an integer GEMM int8/uint8 A and B with an int32/uint32 C (exact). */
typedef struct gemm_shape {
    uint64_t m, n, k;
    int bt;
    vkat_elem_type a_type, b_type, c_type;
} gemm_shape;

/* 1 for the element types a GEMM here may use (float32, float16, bfloat16; int8, uint8, int32, uint32). */
int gemm_type_supported(vkat_elem_type t);
/* 1 for the integer ones. */
int gemm_type_integer(vkat_elem_type t);
/* NULL when the three types go together (all floating-point; or 8-bit integer A and B with a 32-bit integer C),
 * else what is wrong with them. */
const char *gemm_shape_problem(const gemm_shape *s);

/* Writes `count` elements of `type` at `dst`: seeded, uniform in [-1, 1), rounded to nearest even in `type`; an
 * 8-bit integer type takes its whole range. */
void gemm_fill_random(void *dst, vkat_elem_type type, uint64_t count, uint64_t seed);

/* Element `index` of a buffer of `type`, widened exactly to double. */
double gemm_load(const void *buf, vkat_elem_type type, uint64_t index);

/* The fp64 dot product of A's row i and B's column j over the stored (rounded) values, and its scale
 * sum_k |a_ik b_kj|, the magnitude that rounding errors of any summation order are proportional to. */
void gemm_reference(const gemm_shape *s, const void *a, const void *b, uint64_t i, uint64_t j, double *ref,
                    double *scale);

typedef struct gemm_check_result {
    uint64_t checked;     /* elements compared */
    uint64_t nonfinite;   /* NaN or Inf in C where the reference is finite (unwritten elements stay NaN) */
    double max_rel_err;   /* max |got - ref| / scale (absolute where scale is 0); INFINITY with a non-finite */
    uint64_t worst_i, worst_j;
    double worst_got, worst_ref;
} gemm_check_result;

/* Compares `samples` seeded random elements of C, plus its four corners, with gemm_reference. */
void gemm_check_sampled(const gemm_shape *s, const void *a, const void *b, const void *c, uint64_t samples,
                        uint64_t seed, gemm_check_result *out);

/* The default tolerance on max_rel_err for these element types (gemm_check.c says why; 0 for integers). */
double gemm_default_tolerance(const gemm_shape *s);

#endif
