/* vkautotune_runtime_check.h — internal to the runtime library (not installed): the tuner's generated inputs and
 * its comparison of two candidates' outputs (vkautotune_runtime_check.c). */
#ifndef VKAUTOTUNE_RUNTIME_CHECK_H
#define VKAUTOTUNE_RUNTIME_CHECK_H

#include "vkautotune_runtime.h"

/* Not part of the shared library's interface. */
#if defined(__GNUC__) && !defined(_WIN32)
#define VKAT_RT_INTERNAL __attribute__((visibility("hidden")))
#else
#define VKAT_RT_INTERNAL
#endif

/* Fills `bytes` bytes of binding b's element type with `fill` (NULL, or a type the runtime does not know: zeros);
 * RANDOM draws from a hash of (seed, index), so every candidate gets the same data. */
VKAT_RT_INTERNAL void vkat_rt_fill_buffer(unsigned char *dst, size_t bytes, const vkat_rt_binding *b,
                                          const vkat_rt_fill *fill, uint64_t seed);

/* The 4 bytes of a push constant or a field for `problem` (problem_count sizes, the variant's; `tuned`: it is the
 * tuned problem): its formula's value, or its tuned bits when it has none (VKAT_RT_ERR_NO_FORMULA for another
 * problem); VKAT_RT_ERR_EVAL when the value does not fit its type. */
VKAT_RT_INTERNAL vkat_rt_result vkat_rt_value_bits(const vkat_rt_push_constant *p, const int64_t *problem,
                                                   uint32_t problem_count, int tuned, uint32_t *bits);

/* Writes fill's fields over `bytes` bytes of a filled buffer, for `problem` as vkat_rt_value_bits takes it;
 * VKAT_RT_ERR_ARGUMENT for a field past the end. */
VKAT_RT_INTERNAL vkat_rt_result vkat_rt_fill_fields(unsigned char *dst, size_t bytes, const vkat_rt_fill *fill,
                                                    const int64_t *problem, uint32_t problem_count, int tuned);

/* Compares `bytes` bytes of a candidate's output (got) with the reference's: floats (float32, float16, bfloat16) by
 * relative L2 error and largest absolute difference, within twice chk's tolerances (each may be off the exact result
 * by the tolerance); a NaN or infinity must match exactly; other types bit for bit. *rel_l2 and *max_abs get the
 * differences; `why` (why_size bytes) what differs when they do not agree. Returns 1 when they agree. */
VKAT_RT_INTERNAL int vkat_rt_outputs_agree(const unsigned char *ref, const unsigned char *got, size_t bytes,
                                           const vkat_rt_binding *b, const vkat_rt_check *chk, double *rel_l2,
                                           double *max_abs, char *why, size_t why_size);

#endif
