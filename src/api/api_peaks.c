/* api_peaks.c — vkat_device_peaks (include/vkautotune.h): a device's peaks from the store's cache, or measured now
 * (device/peaks.c) and cached. The policy of when a cache entry is good enough lives here, once, for the peaks,
 * tune and compare commands alike. */
#include "device_key.h"
#include "peaks.h"
#include "util.h"

/* How many of the device's cooperative-matrix shapes the tensor-core peak can measure. */
static uint32_t measurable_shapes(const vkat_device_info *dev)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < dev->coopmat_count && i < VKAT_MAX_COOPMAT_SHAPES; i++)
        n += (uint32_t)vkat_coopmat_peak_supported(&dev->coopmat[i]);
    return n;
}

int vkat_device_peaks(vkat_store *store, const vkat_instance *inst, uint32_t index, int refresh, vkat_peaks *out,
                      vkat_error *err)
{
    const vkat_device_info *dev = vkat_instance_device(inst, index);
    vkat_device_key key;
    vkat_device_key_from_info(dev, &key);
    if (!refresh) {
        int found = vkat_store_get_peaks(store, &key, out, err);
        if (found < 0)
            return -1;
        /* A cache written before tensor-core peaks existed has none for a device that lists shapes: measure. */
        if (found && (out->coopmat_count > 0 || measurable_shapes(dev) == 0))
            return 1;
    }
    vkat_log(VKAT_LOG_INFO, "measuring the peaks of %s (cached in the database afterwards)", dev->name);
    if (vkat_peaks_measure(inst, index, out, err) != VKAT_OK)
        return -1;
    if (vkat_store_put_peaks(store, out, err) != VKAT_OK)
        return -1;
    return 0;
}
