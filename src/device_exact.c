/* device_exact.c — a logical device with exactly the extensions and features named (device.h,
 * vkat_gpu_create_exact): what a runtime that follows an export manifest enables, where vkat_gpu_create enables
 * everything the device has. A variant that runs on such a device runs in that runtime. */
#include "device.h"
#include "util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 32 /* extensions or features named at most */

/* ---- Features: names to members of the structures that hold them ---------------------------------------------- */

enum { S_CORE, S_V11, S_V12, S_V13, S_COOPMAT, S_COOPMAT2, S_BF16, S_COUNT };

typedef struct feature_chain {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat;
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2;
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16;
} feature_chain;

/* Every name the space format accepts (vkat_feature_names); offsets are of the VkBool32 within its structure. */
static const struct {
    const char *name;
    int s;
    size_t offset;
} known_features[] = {
    {"shaderInt16", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt16)},
    {"shaderInt64", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt64)},
    {"shaderFloat64", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderFloat64)},
    {"storageBuffer16BitAccess", S_V11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess)},
    {"shaderFloat16", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderFloat16)},
    {"shaderInt8", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderInt8)},
    {"storageBuffer8BitAccess", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, storageBuffer8BitAccess)},
    {"subgroupSizeControl", S_V13, offsetof(VkPhysicalDeviceVulkan13Features, subgroupSizeControl)},
    {"cooperativeMatrix", S_COOPMAT, offsetof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix)},
    {"cooperativeMatrixWorkgroupScope", S_COOPMAT2,
     offsetof(VkPhysicalDeviceCooperativeMatrix2FeaturesNV, cooperativeMatrixWorkgroupScope)},
    {"shaderBFloat16Type", S_BF16, offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16Type)},
    {"shaderBFloat16CooperativeMatrix", S_BF16,
     offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16CooperativeMatrix)},
};

/* The core version or extension each structure needs before it may be chained. */
static const struct {
    uint32_t api;
    const char *extension;
} struct_needs[S_COUNT] = {
    [S_CORE] = {VK_API_VERSION_1_1, NULL},
    [S_V11] = {VK_API_VERSION_1_2, NULL},
    [S_V12] = {VK_API_VERSION_1_2, NULL},
    [S_V13] = {VK_API_VERSION_1_3, NULL},
    [S_COOPMAT] = {0, "VK_KHR_cooperative_matrix"},
    [S_COOPMAT2] = {0, "VK_NV_cooperative_matrix2"},
    [S_BF16] = {0, "VK_KHR_shader_bfloat16"},
};

static void *struct_of(feature_chain *c, int s)
{
    void *p[S_COUNT] = {&c->core, &c->v11, &c->v12, &c->v13, &c->coopmat, &c->coopmat2, &c->bf16};
    return p[s];
}

/* Zeroed structures for the set bits of `used`, chained behind c->core. */
static void chain_init(feature_chain *c, unsigned used)
{
    memset(c, 0, sizeof *c);
    c->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    c->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    c->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    c->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    c->coopmat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR;
    c->coopmat2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV;
    c->bf16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR;
    VkBaseOutStructure *tail = (VkBaseOutStructure *)&c->core;
    for (int s = S_CORE + 1; s < S_COUNT; s++)
        if (used & (1u << s)) {
            tail->pNext = struct_of(c, s);
            tail = tail->pNext;
        }
}

static VkBool32 *member_of(feature_chain *c, size_t f)
{
    return (VkBool32 *)((char *)struct_of(c, known_features[f].s) + known_features[f].offset);
}

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
    size_t wanted[MAX_NAMES];
    unsigned used = 0;
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
    for (size_t i = 0; i < feature_count; i++) {
        size_t f = 0;
        while (f < VKAT_COUNTOF(known_features) && strcmp(known_features[f].name, features[i]))
            f++;
        if (f == VKAT_COUNTOF(known_features)) {
            r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown feature '%s'", features[i]);
            goto done;
        }
        int s = known_features[f].s;
        const char *ext = struct_needs[s].extension;
        if (d->api_version < struct_needs[s].api || (ext && !device_offers(ext, offered, next))) {
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
        wanted[i] = f;
        used |= 1u << s;
    }

    /* Read what the device supports for the structures involved, then enable exactly the named members. */
    feature_chain have, on;
    chain_init(&have, used);
    vkGetPhysicalDeviceFeatures2(g->physical, &have.core);
    chain_init(&on, used);
    for (size_t i = 0; i < feature_count; i++) {
        if (!*member_of(&have, wanted[i])) {
            r = vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s lacks the feature %s", d->name, features[i]);
            goto done;
        }
        *member_of(&on, wanted[i]) = VK_TRUE;
    }

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = g->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &on.core;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = enable_count;
    dci.ppEnabledExtensionNames = enable_count ? enable : NULL;
    vr = vkCreateDevice(g->physical, &dci, NULL, &g->device);
    if (vr != VK_SUCCESS) {
        g->device = VK_NULL_HANDLE;
        r = vkat_fail_vk(err, vr, "vkCreateDevice");
        goto done;
    }
    vkGetDeviceQueue(g->device, g->queue_family, 0, &g->queue);
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
