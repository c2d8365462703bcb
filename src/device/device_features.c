/* device_features.c — feature structures as one chain, and feature names to their members (device_features.h). */
#include "device_features.h"
#include "util.h"

#include <stddef.h>
#include <string.h>

const char *const vkat_feature_names[VKAT_FEATURE_COUNT + 1] = {
    [VKAT_FEATURE_SHADER_FLOAT16] = "shaderFloat16",
    [VKAT_FEATURE_SHADER_INT8] = "shaderInt8",
    [VKAT_FEATURE_SHADER_INT16] = "shaderInt16",
    [VKAT_FEATURE_SHADER_INT64] = "shaderInt64",
    [VKAT_FEATURE_SHADER_FLOAT64] = "shaderFloat64",
    [VKAT_FEATURE_STORAGE_BUFFER_16BIT] = "storageBuffer16BitAccess",
    [VKAT_FEATURE_STORAGE_BUFFER_8BIT] = "storageBuffer8BitAccess",
    [VKAT_FEATURE_SUBGROUP_SIZE_CONTROL] = "subgroupSizeControl",
    [VKAT_FEATURE_BFLOAT16] = "shaderBFloat16Type",
    [VKAT_FEATURE_BFLOAT16_COOPMAT] = "shaderBFloat16CooperativeMatrix",
    [VKAT_FEATURE_COOPMAT] = "cooperativeMatrix",
    [VKAT_FEATURE_COOPMAT2_WORKGROUP_SCOPE] = "cooperativeMatrixWorkgroupScope",
    [VKAT_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS] = "cooperativeMatrixFlexibleDimensions",
    [VKAT_FEATURE_COOPMAT2_REDUCTIONS] = "cooperativeMatrixReductions",
    [VKAT_FEATURE_COOPMAT2_CONVERSIONS] = "cooperativeMatrixConversions",
    [VKAT_FEATURE_COOPMAT2_PER_ELEMENT] = "cooperativeMatrixPerElementOperations",
    [VKAT_FEATURE_COOPMAT2_TENSOR_ADDRESSING] = "cooperativeMatrixTensorAddressing",
    [VKAT_FEATURE_COOPMAT2_BLOCK_LOADS] = "cooperativeMatrixBlockLoads",
    [VKAT_FEATURE_MAINTENANCE4] = "maintenance4",
    [VKAT_FEATURE_BUFFER_FLOAT32_ATOMIC_ADD] = "shaderBufferFloat32AtomicAdd",
    [VKAT_FEATURE_SHARED_FLOAT32_ATOMIC_ADD] = "shaderSharedFloat32AtomicAdd",
    [VKAT_FEATURE_BUFFER_INT64_ATOMICS] = "shaderBufferInt64Atomics",
    [VKAT_FEATURE_SHARED_INT64_ATOMICS] = "shaderSharedInt64Atomics",
    [VKAT_FEATURE_STORAGE_IMAGE_EXTENDED_FORMATS] = "shaderStorageImageExtendedFormats",
    [VKAT_FEATURE_SCALAR_BLOCK_LAYOUT] = "scalarBlockLayout",
    [VKAT_FEATURE_COUNT] = NULL,
};

#define NV2(member) {VKAT_FS_COOPMAT2, offsetof(VkPhysicalDeviceCooperativeMatrix2FeaturesNV, member)}

/* Where each feature lives: its structure and the offset of its VkBool32 there. */
static const struct {
    int s;
    size_t offset;
} feature_member[VKAT_FEATURE_COUNT] = {
    [VKAT_FEATURE_SHADER_FLOAT16] = {VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderFloat16)},
    [VKAT_FEATURE_SHADER_INT8] = {VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderInt8)},
    [VKAT_FEATURE_SHADER_INT16] = {VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt16)},
    [VKAT_FEATURE_SHADER_INT64] = {VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt64)},
    [VKAT_FEATURE_SHADER_FLOAT64] = {VKAT_FS_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderFloat64)},
    [VKAT_FEATURE_STORAGE_BUFFER_16BIT] = {VKAT_FS_V11,
                                           offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess)},
    [VKAT_FEATURE_STORAGE_BUFFER_8BIT] = {VKAT_FS_V12,
                                          offsetof(VkPhysicalDeviceVulkan12Features, storageBuffer8BitAccess)},
    [VKAT_FEATURE_SUBGROUP_SIZE_CONTROL] = {VKAT_FS_V13,
                                            offsetof(VkPhysicalDeviceVulkan13Features, subgroupSizeControl)},
    [VKAT_FEATURE_BFLOAT16] = {VKAT_FS_BF16, offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16Type)},
    [VKAT_FEATURE_BFLOAT16_COOPMAT] = {VKAT_FS_BF16, offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR,
                                                              shaderBFloat16CooperativeMatrix)},
    [VKAT_FEATURE_COOPMAT] = {VKAT_FS_COOPMAT,
                              offsetof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix)},
    [VKAT_FEATURE_COOPMAT2_WORKGROUP_SCOPE] = NV2(cooperativeMatrixWorkgroupScope),
    [VKAT_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS] = NV2(cooperativeMatrixFlexibleDimensions),
    [VKAT_FEATURE_COOPMAT2_REDUCTIONS] = NV2(cooperativeMatrixReductions),
    [VKAT_FEATURE_COOPMAT2_CONVERSIONS] = NV2(cooperativeMatrixConversions),
    [VKAT_FEATURE_COOPMAT2_PER_ELEMENT] = NV2(cooperativeMatrixPerElementOperations),
    [VKAT_FEATURE_COOPMAT2_TENSOR_ADDRESSING] = NV2(cooperativeMatrixTensorAddressing),
    [VKAT_FEATURE_COOPMAT2_BLOCK_LOADS] = NV2(cooperativeMatrixBlockLoads),
    [VKAT_FEATURE_MAINTENANCE4] = {VKAT_FS_V13, offsetof(VkPhysicalDeviceVulkan13Features, maintenance4)},
    [VKAT_FEATURE_BUFFER_FLOAT32_ATOMIC_ADD] = {VKAT_FS_ATOMIC_FLOAT,
                                                offsetof(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
                                                         shaderBufferFloat32AtomicAdd)},
    [VKAT_FEATURE_SHARED_FLOAT32_ATOMIC_ADD] = {VKAT_FS_ATOMIC_FLOAT,
                                                offsetof(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
                                                         shaderSharedFloat32AtomicAdd)},
    [VKAT_FEATURE_BUFFER_INT64_ATOMICS] = {VKAT_FS_V12,
                                           offsetof(VkPhysicalDeviceVulkan12Features, shaderBufferInt64Atomics)},
    [VKAT_FEATURE_SHARED_INT64_ATOMICS] = {VKAT_FS_V12,
                                           offsetof(VkPhysicalDeviceVulkan12Features, shaderSharedInt64Atomics)},
    [VKAT_FEATURE_STORAGE_IMAGE_EXTENDED_FORMATS] = {VKAT_FS_CORE,
                                                     offsetof(VkPhysicalDeviceFeatures2,
                                                              features.shaderStorageImageExtendedFormats)},
    [VKAT_FEATURE_SCALAR_BLOCK_LAYOUT] = {VKAT_FS_V12, offsetof(VkPhysicalDeviceVulkan12Features, scalarBlockLayout)},
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
    [VKAT_FS_ATOMIC_FLOAT] = {0, "VK_EXT_shader_atomic_float"},
};

static void *struct_of(vkat_feature_chain *c, int s)
{
    void *p[VKAT_FS_COUNT] = {&c->core, &c->v11,  &c->v12,           &c->v13,
                              &c->coopmat, &c->coopmat2, &c->bf16, &c->pipeline_exec, &c->atomic_float};
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
    c->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    VkBaseOutStructure *tail = (VkBaseOutStructure *)&c->core;
    for (int s = VKAT_FS_CORE + 1; s < VKAT_FS_COUNT; s++)
        if (used & (1u << s)) {
            tail->pNext = struct_of(c, s);
            tail = tail->pNext;
        }
}

int vkat_feature_index(const char *name)
{
    for (int f = 0; f < VKAT_FEATURE_COUNT; f++)
        if (!strcmp(vkat_feature_names[f], name))
            return f;
    return -1;
}

VkBool32 *vkat_feature_member(vkat_feature_chain *c, const char *name, int *s)
{
    int f = vkat_feature_index(name);
    if (f < 0)
        return NULL;
    *s = feature_member[f].s;
    return (VkBool32 *)((char *)struct_of(c, *s) + feature_member[f].offset);
}

void vkat_feature_chain_read(vkat_feature_chain *c, unsigned used, unsigned char *feature)
{
    for (int f = 0; f < VKAT_FEATURE_COUNT; f++) {
        int s = feature_member[f].s;
        feature[f] = (used & (1u << s)) && *(VkBool32 *)((char *)struct_of(c, s) + feature_member[f].offset);
    }
}
