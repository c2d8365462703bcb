/* device_exact.c — a logical device with exactly the extensions and features named (device.h,
 * vkat_gpu_create_exact): what a runtime that follows an export manifest enables, where vkat_gpu_create enables
 * everything the device has. A variant that runs on such a device runs in that runtime. */
#include "device_features.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 32 /* extensions or features named at most */

static int device_offers(const char *ext, const VkExtensionProperties *props, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(props[i].extensionName, ext))
            return 1;
    return 0;
}

/* ---- Device ------------------------------------------------------------------------------------------------ */

static vkat_result create_exact(const vkat_instance *inst, uint32_t index, const char (*extensions)[128],
                                size_t extension_count, const char (*features)[64], size_t feature_count, vkat_gpu *g,
                                vkat_error *err)
{
    const vkat_device_info *d = &inst->info[index];
    if (d->compute_queue_family == UINT32_MAX)
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s has no compute queue", d->name);
    if (extension_count > MAX_NAMES || feature_count > MAX_NAMES)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "more than %d extensions or features", MAX_NAMES);
    g->info = d;
    g->physical = inst->physical[index];
    g->queue_family = d->compute_queue_family;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &g->memory);

    uint32_t next = 0;
    VkResult vr = vkEnumerateDeviceExtensionProperties(g->physical, NULL, &next, NULL);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties *offered = calloc(next ? next : 1, sizeof *offered);
    if (!offered)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vr = vkEnumerateDeviceExtensionProperties(g->physical, NULL, &next, offered);
    vkat_result r = VKAT_OK;
    const char *enable[2 * MAX_NAMES];
    uint32_t enable_count = 0;
    unsigned used = 0, known = vkat_feature_structs_known(d);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkEnumerateDeviceExtensionProperties");
        goto done;
    }
    for (size_t i = 0; i < extension_count; i++) {
        if (!device_offers(extensions[i], offered, next)) {
            r = vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s does not offer %s", d->name, extensions[i]);
            goto done;
        }
        enable[enable_count++] = extensions[i];
    }
    vkat_feature_chain have, on;
    for (size_t i = 0; i < feature_count; i++) {
        int s;
        if (!vkat_feature_member(&have, features[i], &s)) {
            r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown feature '%s'", features[i]);
            goto done;
        }
        const char *ext = vkat_feature_struct_extension(s);
        if (!(known & (1u << s))) {
            r = vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s lacks %s (it needs %s)", d->name, features[i],
                          ext ? ext : "a newer Vulkan version");
            goto done;
        }
        /* A feature structure of an extension is only valid with the extension enabled, listed or not. */
        int listed = 0;
        for (uint32_t x = 0; ext && x < enable_count; x++)
            listed |= !strcmp(enable[x], ext);
        if (ext && !listed)
            enable[enable_count++] = ext;
        used |= 1u << s;
    }

    /* Read what the device supports for the structures involved, then enable exactly the named members. */
    vkat_feature_chain_init(&have, used);
    vkGetPhysicalDeviceFeatures2(g->physical, &have.core);
    vkat_feature_chain_init(&on, used);
    for (size_t i = 0; i < feature_count; i++) {
        int s;
        if (!*vkat_feature_member(&have, features[i], &s)) {
            r = vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s lacks the feature %s", d->name, features[i]);
            goto done;
        }
        *vkat_feature_member(&on, features[i], &s) = VK_TRUE;
    }

    r = vkat_gpu_open_device(g, &on.core, enable, enable_count, err);
done:
    free(offered);
    return r;
}

vkat_result vkat_gpu_create_exact(const vkat_instance *inst, uint32_t index, const char (*extensions)[128],
                                  size_t extension_count, const char (*features)[64], size_t feature_count,
                                  vkat_gpu **out, vkat_error *err)
{
    *out = NULL;
    if (index >= inst->count)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "device index %u out of range", index);
    vkat_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_result r = create_exact(inst, index, extensions, extension_count, features, feature_count, g, err);
    if (r != VKAT_OK) {
        vkat_gpu_destroy(g);
        return r;
    }
    *out = g;
    return VKAT_OK;
}
