/* image_format.c — the table behind image_format.h. Only formats whose texels are whole components of a type the
 * workspace can initialise and the check can compare (32/16-bit floats, 8/16-bit UNORM, 32/8-bit integers). */
#include "image_format.h"

#include <spirv/unified1/spirv.h>
#include <string.h>
#include <vulkan/vulkan_core.h>

static const vkat_image_format formats[] = {
    {"rgba32f", VK_FORMAT_R32G32B32A32_SFLOAT, SpvImageFormatRgba32f, VKAT_FLOAT32, 4},
    {"rg32f", VK_FORMAT_R32G32_SFLOAT, SpvImageFormatRg32f, VKAT_FLOAT32, 2},
    {"r32f", VK_FORMAT_R32_SFLOAT, SpvImageFormatR32f, VKAT_FLOAT32, 1},
    {"rgba16f", VK_FORMAT_R16G16B16A16_SFLOAT, SpvImageFormatRgba16f, VKAT_FLOAT16, 4},
    {"rg16f", VK_FORMAT_R16G16_SFLOAT, SpvImageFormatRg16f, VKAT_FLOAT16, 2},
    {"r16f", VK_FORMAT_R16_SFLOAT, SpvImageFormatR16f, VKAT_FLOAT16, 1},
    {"rgba8", VK_FORMAT_R8G8B8A8_UNORM, SpvImageFormatRgba8, VKAT_UNORM8, 4},
    {"rg8", VK_FORMAT_R8G8_UNORM, SpvImageFormatRg8, VKAT_UNORM8, 2},
    {"r8", VK_FORMAT_R8_UNORM, SpvImageFormatR8, VKAT_UNORM8, 1},
    {"rgba16", VK_FORMAT_R16G16B16A16_UNORM, SpvImageFormatRgba16, VKAT_UNORM16, 4},
    {"rg16", VK_FORMAT_R16G16_UNORM, SpvImageFormatRg16, VKAT_UNORM16, 2},
    {"r16", VK_FORMAT_R16_UNORM, SpvImageFormatR16, VKAT_UNORM16, 1},
    {"rgba32ui", VK_FORMAT_R32G32B32A32_UINT, SpvImageFormatRgba32ui, VKAT_UINT32, 4},
    {"rg32ui", VK_FORMAT_R32G32_UINT, SpvImageFormatRg32ui, VKAT_UINT32, 2},
    {"r32ui", VK_FORMAT_R32_UINT, SpvImageFormatR32ui, VKAT_UINT32, 1},
    {"rgba32i", VK_FORMAT_R32G32B32A32_SINT, SpvImageFormatRgba32i, VKAT_INT32, 4},
    {"rg32i", VK_FORMAT_R32G32_SINT, SpvImageFormatRg32i, VKAT_INT32, 2},
    {"r32i", VK_FORMAT_R32_SINT, SpvImageFormatR32i, VKAT_INT32, 1},
    {"rgba8ui", VK_FORMAT_R8G8B8A8_UINT, SpvImageFormatRgba8ui, VKAT_UINT8, 4},
    {"r8ui", VK_FORMAT_R8_UINT, SpvImageFormatR8ui, VKAT_UINT8, 1},
    {"rgba8i", VK_FORMAT_R8G8B8A8_SINT, SpvImageFormatRgba8i, VKAT_INT8, 4},
    {"r8i", VK_FORMAT_R8_SINT, SpvImageFormatR8i, VKAT_INT8, 1},
};

const vkat_image_format *vkat_image_format_find(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

const vkat_image_format *vkat_image_format_from_spirv(uint32_t spirv_format)
{
    for (size_t i = 0; spirv_format != SpvImageFormatUnknown && i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].spirv_format == spirv_format)
            return &formats[i];
    return NULL;
}

const char *vkat_image_format_names(void)
{
    return "rgba32f, rg32f, r32f, rgba16f, rg16f, r16f, rgba8, rg8, r8, rgba16, rg16, r16, rgba32ui, rg32ui, r32ui, "
           "rgba32i, rg32i, r32i, rgba8ui, r8ui, rgba8i, r8i";
}

int vkat_image_format_is_unorm(const vkat_image_format *f)
{
    return f->component == VKAT_UNORM8 || f->component == VKAT_UNORM16;
}

char vkat_image_format_reads_as(const vkat_image_format *f)
{
    return f->component == VKAT_INT32 || f->component == VKAT_INT8     ? 'i'
           : f->component == VKAT_UINT32 || f->component == VKAT_UINT8 ? 'u'
                                                                       : 'f';
}
