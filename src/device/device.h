/* device.h — internal: the Vulkan instance, physical-device info and logical devices ("gpus") for tuning.
 *
 * Vulkan is loaded at run time through volk (VK_NO_PROTOTYPES): include this header, not <vulkan/vulkan.h>.
 * Device-level functions are the loader's global trampolines (volkLoadInstance), so they work for any number
 * of devices at once. */
#ifndef VKAT_DEVICE_H
#define VKAT_DEVICE_H

#include "vkautotune.h"

#include <volk.h>

struct vkat_instance {
    VkInstance instance;
    uint32_t count;
    VkPhysicalDevice *physical;
    vkat_device_info *info;
};

/* A logical device with one compute queue, made for tuning. Owned by its creator; vkat_gpu_destroy releases it.
 * The queue is used by one thread at a time. */
typedef struct vkat_gpu {
    const vkat_device_info *info;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkPhysicalDeviceMemoryProperties memory;
    /* Enabled at creation (1 = on) and asked for by the tool itself: fp16 peaks, the float64 check on the GPU.
     * Whether a space's shaders can run is asked of `info` (vkat_device_meets), not of these. */
    int float16, float64;
    int pipeline_statistics; /* VK_KHR_pipeline_executable_properties enabled: kernels capture driver statistics */
    /* Shared by every pipeline created on this device (internally synchronised, so worker threads may use it);
     * VK_NULL_HANDLE when it could not be created. */
    VkPipelineCache pipeline_cache;
} vkat_gpu;

/* Does `info` offer everything named? `extensions` are Vulkan extension names; `features` are Vulkan feature
 * member names ("shaderFloat16", "cooperativeMatrix", "shaderBFloat16Type", ...). On a miss returns 0 and
 * writes the first missing name into `missing`. An unknown feature name counts as missing. */
int vkat_device_meets(const vkat_device_info *info, const char *const *extensions, size_t extension_count,
                      const char *const *features, size_t feature_count, char *missing, size_t missing_size);

/* The VKAT_FEATURE_* of a feature name (vkat_feature_names), -1 for a name the tuner does not know. */
int vkat_feature_index(const char *name);

/* "NVIDIA", "AMD", "Intel", "Mesa", ... for a PCI or Khronos vendor id; "unknown" otherwise (a static string). */
const char *vkat_vendor_name(uint32_t vendor_id);

/* Creates a logical device on physical device `index` with one compute queue. Every known feature and tuning
 * extension the device supports is enabled, so templates need not list the common ones. */
vkat_result vkat_gpu_create(const vkat_instance *inst, uint32_t index, vkat_gpu **out, vkat_error *err);
void vkat_gpu_destroy(vkat_gpu *gpu);

/* A logical device with one compute queue and exactly the named extensions and features (feature member names as in
 * vkat_feature_names; an extension a feature's structure needs is added), as a runtime that follows an export
 * manifest would create it. VKAT_ERR_UNSUPPORTED when the device lacks one, VKAT_ERR_USAGE for an unknown name.
 * The vkat_gpu's feature flags stay 0 and it has no pipeline cache. */
vkat_result vkat_gpu_create_exact(const vkat_instance *inst, uint32_t index, const char (*extensions)[128],
                                  size_t extension_count, const char (*features)[64], size_t feature_count,
                                  vkat_gpu **out, vkat_error *err);

/* Pipeline cache persistence: `path` names a file written by vkat_gpu_save_pipeline_cache. Loading a missing
 * file, or one from another device or driver (the header's pipelineCacheUUID, vendor and device ids differ), starts
 * empty and is not an error; both return VKAT_OK unless memory or the file system fails. Saving writes atomically. */
vkat_result vkat_gpu_load_pipeline_cache(vkat_gpu *gpu, const char *path, vkat_error *err);
vkat_result vkat_gpu_save_pipeline_cache(vkat_gpu *gpu, const char *path, vkat_error *err);

/* A buffer bound to memory of the first `prefer` property set the device offers (tried in order). Out of device
 * memory is VKAT_ERR_LIMITS. On failure *buf / *mem may hold what was created: the caller destroys them. */
vkat_result vkat_gpu_make_buffer(vkat_gpu *gpu, uint64_t size, VkBufferUsageFlags usage,
                                 const VkMemoryPropertyFlags *prefer, size_t prefer_count, VkBuffer *buf,
                                 VkDeviceMemory *mem, vkat_error *err);

/* Index of a memory type with `required` flags among `type_bits`, or -1. */
int vkat_gpu_memory_type(const vkat_gpu *gpu, uint32_t type_bits, VkMemoryPropertyFlags required);

#endif
