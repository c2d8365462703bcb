/* peaks.h — internal: what a device can do at best, measured by vkautotune itself.
 *
 * Memory bandwidth (a vec4 copy kernel), fp32 and fp16 arithmetic throughput (independent FMA chains) and
 * host<->device transfer bandwidth both ways (copies between a host-visible staging buffer and device-local
 * memory). Results are the best sample (the minimum time) of a few timed ones: a peak is what the device reaches,
 * not what it usually does. Sizes are chosen per device type so that a CPU device (lavapipe) takes a few seconds
 * and a GPU enough work to fill it. The store caches them per device and driver (store.h, vkat_peaks). */
#ifndef VKAT_PEAKS_H
#define VKAT_PEAKS_H

#include "device.h"
#include "store.h"

/* Measures every peak on device `device_index` (a logical device is created and destroyed here). A figure the
 * device cannot measure (fp16 without shaderFloat16) is NaN, not an error. out->device is filled from the device's
 * info; out->created is left empty for the store. Not for concurrent use on the same device. */
vkat_result vkat_peaks_measure(const vkat_instance *inst, uint32_t device_index, vkat_peaks *out, vkat_error *err);

/* vkat_peaks_fraction: include/vkautotune.h. */

/* ---- Cooperative-matrix (tensor-core) peaks: peaks_coopmat.c ---- */

/* Measures every subgroup-scope shape gpu->info lists whose types the peak shader can declare into out->coopmat
 * (none listed: out->coopmat_count = 0, not an error). Only a lost device or a timeout is an error; a variant the
 * driver refuses is logged at debug level and skipped. */
vkat_result vkat_peaks_measure_coopmat(vkat_gpu *gpu, vkat_peaks *out, vkat_error *err);

/* 1 when the peak shader handles shape `s` (subgroup scope, not saturating, every type one GLSL can declare). */
int vkat_coopmat_peak_supported(const vkat_coopmat_shape *s);

/* The GLSL of the peak shader for shape `s`: `accumulators` independent coopMatMulAdd chains per subgroup,
 * `subgroups` subgroups of `subgroup_size` per workgroup; push constant `rounds` (4 multiply-adds per chain each).
 * VKAT_ERR_UNSUPPORTED for a shape vkat_coopmat_peak_supported refuses, VKAT_ERR_LIMITS when `size` is short. */
vkat_result vkat_coopmat_peak_glsl(const vkat_coopmat_shape *s, uint32_t accumulators, uint32_t subgroups,
                                   uint32_t subgroup_size, char *buf, size_t size, vkat_error *err);

/* vkat_coopmat_peak_format: include/vkautotune.h. */

/* vkat_peaks_tensor_tflops, vkat_peaks_transfer_s: include/vkautotune.h. */

#endif
