/* check_gpu.h — internal: compares a variant's outputs with the reference on the device, so that a check of a large
 * output reads back a few kilobytes of partial sums instead of the whole buffer.
 *
 * The device only ever says "clearly correct": for floats, no unwritten element, no NaN/Inf where the reference is
 * finite, every reference NaN/Inf matched, and both tolerances met by more than rounding; for integers, every
 * element equal to the reference's. Anything else is for the host check
 * (check.c), which alone explains failures, so reasons read the same whichever side looked first. The canary is not
 * this module's business: vkat_workspace_read_canary reads it.
 *
 * Thread-safety: as the workspace it borrows (one thread: the one that runs its kernels). */
#ifndef VKAT_CHECK_GPU_H
#define VKAT_CHECK_GPU_H

#include "bench.h"
#include "check.h"

typedef struct vkat_gpu_check vkat_gpu_check;

/* Can `gpu` compare buffers of `type`? Float types (float32, float16, bfloat16) on a device with shaderFloat64:
 * the sums are float64, as the host's, so that large float32 buffers do not lose the error in rounding. Integer
 * types (compared exactly) on any device. */
int vkat_gpu_check_supported(const vkat_gpu *gpu, vkat_elem_type type);

/* Prepares the device-side check of the workspace's buffers i with use[i] != 0 (the caller picks outputs that
 * vkat_gpu_check_supported allows): uploads reference[i] (buffers[i].count elements, caller-owned, only read here)
 * into a device-local buffer and builds the comparison pipeline of its element type. A buffer for which no device
 * memory is left stays with the host (vkat_gpu_check_covers says 0); that is not an error. The check borrows `ws`:
 * destroy the check first. */
vkat_result vkat_gpu_check_create(vkat_workspace *ws, const vkat_buffer_spec *buffers, size_t count,
                                  void *const *reference, const int *use, vkat_gpu_check **out, vkat_error *err);
void vkat_gpu_check_destroy(vkat_gpu_check *gc); /* NULL-safe */

/* Does the check cover buffer `index`? 0 for a NULL check. */
int vkat_gpu_check_covers(const vkat_gpu_check *gc, size_t index);

typedef struct vkat_gpu_check_report {
    int ok;          /* 1: clearly correct, the verdict stands; 0: let the host check decide and explain */
    double rel_l2, max_abs; /* as vkat_check_compare computes them (sums in another order: equal within rounding) */
    uint64_t unwritten, nonfinite, ref_mismatch; /* as in vkat_check_report; ref_mismatch: reference NaN/Inf missed */
    uint64_t wrong; /* integer outputs: elements that differ from the reference, unwritten ones aside; 0 for floats */
} vkat_gpu_check_report;

/* Compares buffer `index` (covered) as the last kernel left it with its reference. Errors are the device's
 * (VKAT_ERR_TIMEOUT, VKAT_ERR_DEVICE_LOST, ...). */
vkat_result vkat_gpu_check_compare(vkat_gpu_check *gc, size_t index, const vkat_check_opts *opts,
                                   vkat_gpu_check_report *out, vkat_error *err);

#endif
