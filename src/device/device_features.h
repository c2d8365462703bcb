/* device_features.h — internal: the Vulkan feature structures the tuner reads and enables, as one pNext chain,
 * and feature names (as space files and manifests write them) to their VkBool32 members. Shared by
 * vkat_gpu_create (enable all that is supported) and vkat_gpu_create_exact (enable only what is named), with the
 * logical-device creation both end in. */
#ifndef VKAT_DEVICE_FEATURES_H
#define VKAT_DEVICE_FEATURES_H

#include "device.h"

enum {
    VKAT_FS_CORE, VKAT_FS_V11, VKAT_FS_V12, VKAT_FS_V13, VKAT_FS_COOPMAT, VKAT_FS_COOPMAT2, VKAT_FS_BF16,
    VKAT_FS_PIPELINE_EXEC, VKAT_FS_ATOMIC_FLOAT, VKAT_FS_COUNT
};

/* Points into itself once chained: never copy a filled one. */
typedef struct vkat_feature_chain {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat;
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2;
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pipeline_exec;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
} vkat_feature_chain;

/* The structures `d` knows (bit 1 << VKAT_FS_*): its core version has them, or it offers their extension. `d`
 * needs api_version and extensions filled. */
unsigned vkat_feature_structs_known(const vkat_device_info *d);

/* The extension structure `s` belongs to, NULL for core ones. */
const char *vkat_feature_struct_extension(int s);

/* Zeroes the chain and links the structures of `used` (bit 1 << VKAT_FS_*) behind c->core, in enum order. */
void vkat_feature_chain_init(vkat_feature_chain *c, unsigned used);

/* feature[VKAT_FEATURE_*] = the member's value in a chain of the structures `used`, as filled by
 * vkGetPhysicalDeviceFeatures2 (0 for a member of a structure not chained). */
void vkat_feature_chain_read(vkat_feature_chain *c, unsigned used, unsigned char *feature);

/* The member for a feature name ("shaderFloat16", "cooperativeMatrix", ...) and its structure (*s); NULL for a
 * name the tuner does not know. */
VkBool32 *vkat_feature_member(vkat_feature_chain *c, const char *name, int *s);

/* Creates g->device with one queue of g->queue_family (g->physical and queue_family set), `features` as the
 * chain to enable and the named extensions; fills g->queue. VK_NULL_HANDLE device on failure. The last step of both
 * device makers. */
vkat_result vkat_gpu_open_device(vkat_gpu *g, const VkPhysicalDeviceFeatures2 *features,
                                 const char *const *extensions, uint32_t extension_count, vkat_error *err);

#endif
