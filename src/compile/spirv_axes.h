/* spirv_axes.h — internal: how many axes of gl_GlobalInvocationID a compute shader reads (spirv_axes.c). */
#ifndef VKAT_SPIRV_AXES_H
#define VKAT_SPIRV_AXES_H

#include "compile.h"

/* Sets info->global_axes_read from the module's `n` words: 1 + the highest component of gl_GlobalInvocationID the
 * shader reads (2 for .y, 3 for .z or the vector whole, `vec3(gl_GlobalInvocationID)`), 0 when it reads none. Never
 * fails: a module it cannot read leaves 0. */
void vkat_spirv_find_axes(const uint32_t *words, size_t n, vkat_spirv_info *info);

#endif
