/* device_features.c — feature structures as one chain, and feature names to their members (device_features.h). */
#include "device_features.h"
#include "util.h"

#include <stddef.h>
#include <string.h>

/* Every name the space format accepts (vkat_feature_names); offsets are of the VkBool32 within its structure. */
static const struct {
    const char *name;
    int s;
    size_t offset;
} known_features[] = {
    {"shaderInt16", VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt16)},
    {"shaderInt64", VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt64)},
    {"shaderFloat64", VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderFloat64)},
    {"storageBuffer16BitAccess", VKAT_FS_V11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess)},
    {"shaderFloat16", VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderFloat16)},
    {"shaderInt8", VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderInt8)},
    {"storageBuffer8BitAccess", VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, storageBuffer8BitAccess)},
    {"subgroupSizeControl", VKAT_FS_V13, offsetof(VkPhysicalDeviceVulkan13Features, subgroupSizeControl)},
    {"cooperativeMatrix", VKAT_FS_COOPMAT, offsetof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix)},
    {"cooperativeMatrixWorkgroupScope", VKAT_FS_COOPMAT2,
     offsetof(VkPhysicalDeviceCooperativeMatrix2FeaturesNV, cooperativeMatrixWorkgroupScope)},
    {"shaderBFloat16Type", VKAT_FS_BF16, offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16Type)},
    {"shaderBFloat16CooperativeMatrix", VKAT_FS_BF16,
     offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16CooperativeMatrix)},
};

/* The core version or extension each structure needs before it may be chained. */
static const struct {
    uint32_t api;
    const char *extension;
} struct_needs[VKAT_FS_COUNT] = {
    [VKAT_FS_CORE] = {VK_API_VERSION_1_1, NULL},
    [VKAT_FS_V11] = {VK_API_VERSION_1_2, NULL},
    [VKAT_FS_V12] = {VK_API_VERSION_1_2, NULL},
    [VKAT_FS_V13] = {VK_API_VERSION_1_3, NULL},
    [VKAT_FS_COOPMAT] = {0, "VK_KHR_cooperative_matrix"},
    [VKAT_FS_COOPMAT2] = {0, "VK_NV_cooperative_matrix2"},
    [VKAT_FS_BF16] = {0, "VK_KHR_shader_bfloat16"},
    [VKAT_FS_PIPELINE_EXEC] = {0, "VK_KHR_pipeline_executable_properties"},
};

static void *struct_of(vkat_feature_chain *c, int s)
{
    void *p[VKAT_FS_COUNT] = {&c->core, &c->v11, &c->v12, &c->v13, &c->coopmat, &c->coopmat2, &c->bf16,
                              &c->pipeline_exec};
    return p[s];
}

unsigned vkat_feature_structs_known(const vkat_device_info *d)
{
    unsigned known = 0;
    for (int s = 0; s < VKAT_FS_COUNT; s++)
        if (d->api_version >= struct_needs[s].api &&
            (!struct_needs[s].extension || vkat_device_has_extension(d, struct_needs[s].extension)))
            known |= 1u << s;
    return known;
}

const char *vkat_feature_struct_extension(int s)
{
    return s >= 0 && s < VKAT_FS_COUNT ? struct_needs[s].extension : NULL;
}

void vkat_feature_chain_init(vkat_feature_chain *c, unsigned used)
{
    memset(c, 0, sizeof *c);
    c->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    c->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    c->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    c->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    c->coopmat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR;
    c->coopmat2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV;
    c->bf16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR;
    c->pipeline_exec.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR;
    VkBaseOutStructure *tail = (VkBaseOutStructure *)&c->core;
    for (int s = VKAT_FS_CORE + 1; s < VKAT_FS_COUNT; s++)
        if (used & (1u << s)) {
            tail->pNext = struct_of(c, s);
            tail = tail->pNext;
        }
}

VkBool32 *vkat_feature_member(vkat_feature_chain *c, const char *name, int *s)
{
    for (size_t f = 0; f < VKAT_COUNTOF(known_features); f++)
        if (!strcmp(known_features[f].name, name)) {
            *s = known_features[f].s;
            return (VkBool32 *)((char *)struct_of(c, *s) + known_features[f].offset);
        }
    return NULL;
}
