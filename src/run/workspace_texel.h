/* workspace_texel.h — internal to bench.c: the views of a workspace entry that is a texel buffer (a storage texel
 * buffer, imageBuffer, or a uniform texel buffer, samplerBuffer / textureBuffer).
 *
 * Unlike an image, a texel buffer is a buffer: the workspace fills, poisons, guards, restores and reads it as any
 * other, and the kernel sees its data through a VkBufferView of the entry's format. An output's view in the
 * workspace's sets covers its back guard too, as a storage buffer's range does (an overrun lands in the guard even
 * where the driver bounds accesses by the view); the exact sets' view covers the data alone, for a kernel that
 * takes the buffer's size (imageSize, textureSize). */
#ifndef VKAT_WORKSPACE_TEXEL_H
#define VKAT_WORKSPACE_TEXEL_H

#include "bench.h"

typedef struct vkat_ws_texel {
    VkBufferView view;       /* the data and the back guard (the workspace's sets) */
    VkBufferView exact_view; /* the data alone (the exact sets); the same view when there is no guard */
} vkat_ws_texel;

/* Bytes of one texel of the entry's format. */
uint64_t vkat_ws_texel_bytes(const vkat_buffer_spec *spec);
/* The most bytes one view can cover: maxTexelBufferElements texels. */
uint64_t vkat_ws_texel_range_limit(const vkat_gpu *gpu, const vkat_buffer_spec *spec);
/* What can be refused before anything is allocated: the format's buffer features for the use (uniform or storage
 * texel buffer) and the view's texels (`range` bytes, data and guard) against maxTexelBufferElements. */
vkat_result vkat_ws_texel_check(const vkat_gpu *gpu, const vkat_buffer_spec *spec, uint64_t range, vkat_error *err);
VkBufferUsageFlags vkat_ws_texel_usage(const vkat_buffer_spec *spec);
VkDescriptorType vkat_ws_texel_descriptor_type(const vkat_buffer_spec *spec);
/* The views over `buffer` from byte `offset` (the data's start, after the front guard): `data` bytes, and `data +
 * back` bytes (back: the guard after the data, 0 for none). */
vkat_result vkat_ws_texel_create(vkat_gpu *gpu, const vkat_buffer_spec *spec, VkBuffer buffer, uint64_t offset,
                                 uint64_t data, uint64_t back, vkat_ws_texel *t, vkat_error *err);
void vkat_ws_texel_destroy(VkDevice dev, vkat_ws_texel *t);

#endif
