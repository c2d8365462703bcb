/* peaks.h — internal: what a device can do at best, measured by vkautotune itself.
 *
 * Memory bandwidth (a vec4 copy kernel), fp32 and fp16 arithmetic throughput (independent FMA chains) and
 * host<->device transfer bandwidth both ways (copies between a host-visible staging buffer and device-local
 * memory). Results are the best sample (the minimum time) of a few timed ones: a peak is what the device reaches,
 * not what it usually does. Sizes are chosen per device type so that a CPU device (lavapipe) takes a few seconds
 * and a GPU enough work to fill it. The store caches them per device and driver (store.h, vkat_peaks). */
#ifndef VKAT_PEAKS_H
#define VKAT_PEAKS_H

#include "store.h"

/* Measures every peak on device `device_index` (a logical device is created and destroyed here). A figure the
 * device cannot measure (fp16 without shaderFloat16) is NaN, not an error. out->device is filled from the device's
 * info; out->created is left empty for the store. Not for concurrent use on the same device. */
vkat_result vkat_peaks_measure(const vkat_instance *inst, uint32_t device_index, vkat_peaks *out, vkat_error *err);

/* The lower bound on a row's time from its device's peaks (a roofline): max(flops / fp32 peak, bytes / memory
 * peak), each term only when both the metric and the peak are known. Returns the fraction of that bound the row
 * reaches (bound / median), or NaN when nothing is known. Uses the fp32 figure: the shipped kernels are fp32. */
double vkat_peaks_fraction(const vkat_peaks *peaks, const vkat_row *row);

/* Seconds to move `bytes_in` host -> device and `bytes_out` device -> host at the measured link bandwidth;
 * NaN when the needed figure is unknown. */
double vkat_peaks_transfer_s(const vkat_peaks *peaks, double bytes_in, double bytes_out);

#endif
