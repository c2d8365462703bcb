/* device_key.h — internal: device identity, the one definition of "the same device". A results row, a peaks entry
 * and an export's choice of rows name their device by a vkat_device_key; identical GPUs of one host (those that
 * share one search) are devices whose keys are equal. Pure data: no Vulkan calls, no printing. */
#ifndef VKAT_DEVICE_KEY_H
#define VKAT_DEVICE_KEY_H

#include "vkautotune.h"

/* vkat_device_key (who measured) is public: include/vkautotune.h. */

void vkat_device_key_from_info(const vkat_device_info *info, vkat_device_key *key);

/* Same device and driver: name, vendor and device ids, driver version and driver UUID (the key the results, the
 * peaks and the grouping of identical GPUs use). */
int vkat_device_key_equal(const vkat_device_key *a, const vkat_device_key *b);

/* vkat_device_key_equal on the keys of two devices found here: may they share one search? */
int vkat_device_identical(const vkat_device_info *a, const vkat_device_info *b);

#endif
