/* workspace_texel.c — see workspace_texel.h. */
#include "workspace_texel.h"
#include "util.h"

#include <string.h>

uint64_t vkat_ws_texel_bytes(const vkat_buffer_spec *spec)
{
    return (uint64_t)spec->texel->channels * vkat_elem_type_size(spec->texel->component);
}

uint64_t vkat_ws_texel_range_limit(const vkat_gpu *gpu, const vkat_buffer_spec *spec)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu->physical, &props);
    return (uint64_t)props.limits.maxTexelBufferElements * vkat_ws_texel_bytes(spec);
}

vkat_result vkat_ws_texel_check(const vkat_gpu *gpu, const vkat_buffer_spec *spec, uint64_t range, vkat_error *err)
{
    const char *name = spec->name ? spec->name : "?";
    const char *kind = spec->uniform ? "uniform" : "storage";
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, (VkFormat)spec->texel->vk_format, &fp);
    VkFormatFeatureFlags use = spec->uniform ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
                                             : VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    if (!(fp.bufferFeatures & use))
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0,
                         "texel buffer '%s': the device cannot use format %s for a %s texel buffer (its buffer "
                         "features lack %s_TEXEL_BUFFER)",
                         name, spec->texel->name, kind, spec->uniform ? "UNIFORM" : "STORAGE");
    uint64_t bytes = vkat_ws_texel_bytes(spec), limit = vkat_ws_texel_range_limit(gpu, spec);
    if (range > limit)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                         "texel buffer '%s' needs a view of %llu texels%s, beyond the device's maxTexelBufferElements "
                         "of %llu",
                         name, (unsigned long long)(range / bytes),
                         range / bytes > spec->count / spec->texel->channels ? " (a guard after its data included)"
                                                                              : "",
                         (unsigned long long)(limit / bytes));
    return VKAT_OK;
}

VkBufferUsageFlags vkat_ws_texel_usage(const vkat_buffer_spec *spec)
{
    /* and a storage buffer's: the device check (check_gpu.c) reads an output's data as one */
    return (spec->uniform ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT) |
           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
}

VkDescriptorType vkat_ws_texel_descriptor_type(const vkat_buffer_spec *spec)
{
    return spec->uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

static vkat_result make_view(VkDevice dev, const vkat_buffer_spec *spec, VkBuffer buffer, uint64_t offset,
                             uint64_t range, VkBufferView *out, vkat_error *err)
{
    VkBufferViewCreateInfo ci = {VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    ci.buffer = buffer;
    ci.format = (VkFormat)spec->texel->vk_format;
    ci.offset = offset;
    ci.range = range;
    VkResult vr = vkCreateBufferView(dev, &ci, NULL, out);
    if (vr != VK_SUCCESS) {
        *out = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateBufferView");
    }
    return VKAT_OK;
}

vkat_result vkat_ws_texel_create(vkat_gpu *gpu, const vkat_buffer_spec *spec, VkBuffer buffer, uint64_t offset,
                                 uint64_t data, uint64_t back, vkat_ws_texel *t, vkat_error *err)
{
    memset(t, 0, sizeof *t);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu->physical, &props);
    uint64_t align = props.limits.minTexelBufferOffsetAlignment, bytes = vkat_ws_texel_bytes(spec);
    /* The front guard (64 KiB, or none) is a multiple of every alignment the specification allows (at most 256),
     * and the guards of a multiple of the texel: a view that could not start there is the workspace's bug. */
    if ((align && offset % align) || data % bytes || back % bytes)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0,
                         "texel buffer '%s': a view from byte %llu of %llu + %llu bytes does not fit format %s "
                         "(minTexelBufferOffsetAlignment %llu)",
                         spec->name, (unsigned long long)offset, (unsigned long long)data, (unsigned long long)back,
                         spec->texel->name, (unsigned long long)align);
    vkat_result r = make_view(gpu->device, spec, buffer, offset, data + back, &t->view, err);
    if (!r && back)
        r = make_view(gpu->device, spec, buffer, offset, data, &t->exact_view, err);
    else if (!r)
        t->exact_view = t->view;
    return r;
}

void vkat_ws_texel_destroy(VkDevice dev, vkat_ws_texel *t)
{
    if (t->exact_view && t->exact_view != t->view)
        vkDestroyBufferView(dev, t->exact_view, NULL);
    if (t->view)
        vkDestroyBufferView(dev, t->view, NULL);
    memset(t, 0, sizeof *t);
}
