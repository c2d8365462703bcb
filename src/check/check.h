/* check.h — internal: compares a variant's output with the reference's, element type aware.
 * Pure host code: no Vulkan. */
#ifndef VKAT_CHECK_H
#define VKAT_CHECK_H

#include "vkautotune.h"

typedef struct vkat_check_opts {
    double rel_l2_tolerance;  /* ||got - ref||_2 / ||ref||_2 (absolute L2 when ||ref|| == 0) */
    double max_abs_tolerance; /* max |got - ref|; INFINITY disables */
} vkat_check_opts;

typedef struct vkat_check_report {
    int ok;
    double rel_l2, max_abs;
    uint64_t nonfinite;  /* NaN/Inf in got where ref is finite */
    uint64_t unwritten;  /* elements still holding the poison pattern where ref does not */
    uint64_t first_bad;  /* index of the first wrong element, UINT64_MAX when none */
    char reason[256];    /* "rel L2 3.2e-02 > 1e-05", "12 unwritten elements (first at 40)", ... */
} vkat_check_report;

/* Compares `count` elements of `type`. Integer types must match exactly; float types use the tolerances.
 * `poison` is one element's poison bytes (vkat_poison_element). */
void vkat_check_compare(vkat_elem_type type, const void *got, const void *ref, uint64_t count, const void *poison,
                        const vkat_check_opts *opts, vkat_check_report *out);

/* Sorts `count` elements of `type` in place by value (NaNs last): the order both sides of an unordered comparison
 * ([check] compare.NAME = unordered) share, in which a float computed a rounding apart from the reference's still
 * lands beside it. VKAT_ERR_NOMEM when the scratch space is not there (the data is then unchanged). */
vkat_result vkat_check_sort_elements(vkat_elem_type type, void *data, uint64_t count);

/* 1 when every byte of `data` (`bytes` long; NULL or 0 bytes: none) is zero: an output that says nothing of what a
 * kernel computed, since a kernel that does nothing writes it too. */
int vkat_check_all_zero(const void *data, uint64_t bytes);

/* Conversions used by checks and buffer fills. */
/* 1 for the types compared by tolerance (floats and 8-bit UNORM), 0 for those compared exactly (integers). */
int vkat_check_is_float(vkat_elem_type t);

float vkat_half_to_float(uint16_t h);
uint16_t vkat_float_to_half(float f);
float vkat_bf16_to_float(uint16_t b);
uint16_t vkat_float_to_bf16(float f);

#endif
