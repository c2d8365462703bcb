/* workspace_image.c — see workspace_image.h. */
#include "workspace_image.h"
#include "util.h"

#include <string.h>

static VkImageType image_type(const vkat_buffer_spec *spec)
{
    return spec->dims == 1 ? VK_IMAGE_TYPE_1D : spec->dims == 3 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D;
}

static VkImageUsageFlags image_usage(const vkat_buffer_spec *spec)
{
    return (spec->sampled ? VK_IMAGE_USAGE_SAMPLED_BIT : VK_IMAGE_USAGE_STORAGE_BIT) |
           VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
}

static int is_integer_format(const vkat_image_format *f)
{
    return f->component != VKAT_FLOAT32 && f->component != VKAT_FLOAT16 && f->component != VKAT_UNORM8 &&
           f->component != VKAT_UNORM16;
}

vkat_result vkat_ws_image_check(const vkat_gpu *gpu, const vkat_buffer_spec *spec, vkat_error *err)
{
    const char *name = spec->name ? spec->name : "?";
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, (VkFormat)spec->image->vk_format, &fp);
    VkFormatFeatureFlags use = spec->sampled ? VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT
                                             : VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT,
                         copy = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((fp.optimalTilingFeatures & (use | copy)) != (use | copy))
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0,
                         "image '%s': the device cannot use format %s as a %s image (its optimal-tiling features "
                         "lack %s)",
                         name, spec->image->name, spec->sampled ? "sampled" : "storage",
                         !(fp.optimalTilingFeatures & use) ? (spec->sampled ? "SAMPLED_IMAGE" : "STORAGE_IMAGE")
                                                           : "TRANSFER_SRC and TRANSFER_DST");
    VkImageFormatProperties ip;
    VkResult vr = vkGetPhysicalDeviceImageFormatProperties(gpu->physical, (VkFormat)spec->image->vk_format,
                                                           image_type(spec), VK_IMAGE_TILING_OPTIMAL,
                                                           image_usage(spec), 0, &ip);
    if (vr != VK_SUCCESS)
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0,
                         "image '%s': the device offers no %uD %s image of format %s (%s)", name, spec->dims,
                         spec->sampled ? "sampled" : "storage", spec->image->name, vkat_vk_result_name(vr));
    const uint32_t limit[3] = {ip.maxExtent.width, ip.maxExtent.height, ip.maxExtent.depth};
    static const char *const axis[3] = {"width", "height", "depth"};
    for (int k = 0; k < 3; k++)
        if (spec->extent[k] > limit[k])
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "image '%s' has %s %u, beyond the device's %u for a %uD image of format %s", name,
                             axis[k], spec->extent[k], limit[k], spec->dims, spec->image->name);
    return VKAT_OK;
}

vkat_result vkat_ws_image_create(vkat_gpu *gpu, const vkat_buffer_spec *spec, vkat_ws_image *img, vkat_error *err)
{
    VkDevice dev = gpu->device;
    memset(img, 0, sizeof *img);
    img->extent = (VkExtent3D){spec->extent[0], spec->extent[1], spec->extent[2]};
    VkImageCreateInfo ci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = image_type(spec);
    ci.format = (VkFormat)spec->image->vk_format;
    ci.extent = img->extent;
    ci.mipLevels = 1;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = image_usage(spec);
    ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkResult vr = vkCreateImage(dev, &ci, NULL, &img->image);
    if (vr != VK_SUCCESS) {
        img->image = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateImage");
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, img->image, &req);
    int type = vkat_gpu_memory_type(gpu, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        type = vkat_gpu_memory_type(gpu, req.memoryTypeBits, 0);
    if (type < 0)
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "image '%s': no memory type can hold it", spec->name);
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = (uint32_t)type;
    if ((vr = vkAllocateMemory(dev, &ai, NULL, &img->memory)) != VK_SUCCESS) {
        img->memory = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkAllocateMemory (an image)");
    }
    if ((vr = vkBindImageMemory(dev, img->image, img->memory, 0)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkBindImageMemory");
    VkImageViewCreateInfo vi = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = img->image;
    vi.viewType = spec->dims == 1 ? VK_IMAGE_VIEW_TYPE_1D : spec->dims == 3 ? VK_IMAGE_VIEW_TYPE_3D
                                                                            : VK_IMAGE_VIEW_TYPE_2D;
    vi.format = ci.format;
    vi.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if ((vr = vkCreateImageView(dev, &vi, NULL, &img->view)) != VK_SUCCESS) {
        img->view = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateImageView");
    }
    if (!spec->sampled)
        return VKAT_OK;
    /* Bilinear where the format allows it (what a blur or a downsample samples with), nearest otherwise; edges
     * clamp. The reference samples through the same sampler, so the check compares like with like. */
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, ci.format, &fp);
    int linear = !is_integer_format(spec->image) &&
                 (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
    VkSamplerCreateInfo si = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = si.minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = 0;
    if ((vr = vkCreateSampler(dev, &si, NULL, &img->sampler)) != VK_SUCCESS) {
        img->sampler = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateSampler");
    }
    return VKAT_OK;
}

void vkat_ws_image_destroy(VkDevice dev, vkat_ws_image *img)
{
    if (img->sampler)
        vkDestroySampler(dev, img->sampler, NULL);
    if (img->view)
        vkDestroyImageView(dev, img->view, NULL);
    if (img->image)
        vkDestroyImage(dev, img->image, NULL);
    if (img->memory)
        vkFreeMemory(dev, img->memory, NULL);
    memset(img, 0, sizeof *img);
}

VkDescriptorType vkat_ws_image_descriptor_type(const vkat_buffer_spec *spec)
{
    return spec->sampled ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
}

VkDescriptorImageInfo vkat_ws_image_descriptor(const vkat_ws_image *img)
{
    return (VkDescriptorImageInfo){img->sampler, img->view, VK_IMAGE_LAYOUT_GENERAL};
}

void vkat_ws_image_record_init(VkCommandBuffer cmd, const vkat_ws_image *img)
{
    VkImageMemoryBarrier b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = img->image;
    b.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &b);
}

void vkat_ws_image_record_copy(VkCommandBuffer cmd, const vkat_ws_image *img, VkBuffer buffer, uint64_t offset,
                               int to_image)
{
    VkBufferImageCopy region = {0};
    region.bufferOffset = offset;
    region.imageSubresource = (VkImageSubresourceLayers){VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = img->extent;
    if (to_image)
        vkCmdCopyBufferToImage(cmd, buffer, img->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    else
        vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_GENERAL, buffer, 1, &region);
}
