/* image_format.h — the image formats a [buffers] entry can name (`rgba8, image(W, H), random(0, 1), in`): the GLSL
 * layout qualifier, the Vulkan format the workspace creates, the SPIR-V format the shader declares, and how a
 * texel's components are stored (an image is uploaded, reset and read back as W x H x D texels of `channels`
 * elements of `component`, tightly packed, so the check compares it like a buffer). */
#ifndef VKAT_IMAGE_FORMAT_H
#define VKAT_IMAGE_FORMAT_H

#include "vkautotune.h"

#include <stddef.h>
#include <stdint.h>

typedef struct vkat_image_format {
    const char *name;      /* as GLSL's layout qualifier: "rgba8", "r32f" */
    uint32_t vk_format;    /* VkFormat */
    uint32_t spirv_format; /* SpvImageFormat */
    vkat_elem_type component;
    uint32_t channels;
} vkat_image_format;

/* NULL for a name vkautotune does not know. */
const vkat_image_format *vkat_image_format_find(const char *name);
/* The format a shader declares (SpvImageFormat); NULL for Unknown and for formats vkautotune does not know. */
const vkat_image_format *vkat_image_format_from_spirv(uint32_t spirv_format);
/* What a shader reads the format's components as: 'f' floats (float, half and UNORM formats), 'i' signed and 'u'
 * unsigned integers. */
char vkat_image_format_reads_as(const vkat_image_format *f);
/* Whether its components are UNORM (8 or 16 bits): floats in [0, 1], stored rounded. */
int vkat_image_format_is_unorm(const vkat_image_format *f);
/* "rgba32f, rgba16f, ..." for messages. */
const char *vkat_image_format_names(void);

#endif
