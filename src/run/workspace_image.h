/* workspace_image.h — internal to bench.c: the image of a workspace entry that is one (a storage image, or a
 * sampled image read through its own sampler), kept in VK_IMAGE_LAYOUT_GENERAL.
 *
 * Its texels mirror the entry's buffer: the workspace fills, poisons, restores and reads that buffer as for any
 * other entry, and these copy it into the image after a reset or an upload and the image back into it before a
 * read. So initial data, poison and the check are the buffers' own, and the image is what the kernel sees. */
#ifndef VKAT_WORKSPACE_IMAGE_H
#define VKAT_WORKSPACE_IMAGE_H

#include "bench.h"

typedef struct vkat_ws_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkSampler sampler; /* sampled images only */
    VkExtent3D extent;
} vkat_ws_image;

/* What can be refused before anything is allocated: the format's support for the use (storage or sampled, and
 * transfers) and the extent against the device's image limits. */
vkat_result vkat_ws_image_check(const vkat_gpu *gpu, const vkat_buffer_spec *spec, vkat_error *err);
vkat_result vkat_ws_image_create(vkat_gpu *gpu, const vkat_buffer_spec *spec, vkat_ws_image *img, vkat_error *err);
void vkat_ws_image_destroy(VkDevice dev, vkat_ws_image *img);

VkDescriptorType vkat_ws_image_descriptor_type(const vkat_buffer_spec *spec);
/* The descriptor of the image, as the kernel binds it. */
VkDescriptorImageInfo vkat_ws_image_descriptor(const vkat_ws_image *img);

/* Records the first transition of the image, from UNDEFINED to GENERAL (once, before any copy). */
void vkat_ws_image_record_init(VkCommandBuffer cmd, const vkat_ws_image *img);
/* Records a copy between the image and `buffer` (its tightly packed texels from byte `offset`): into the image
 * (to_image) or out of it. The caller's barriers order it against dispatches and other copies. */
void vkat_ws_image_record_copy(VkCommandBuffer cmd, const vkat_ws_image *img, VkBuffer buffer, uint64_t offset,
                               int to_image);

#endif
