/* spirv_index.h — internal: how far into its buffers' run-time arrays a compute shader indexes (spirv_index.c). */
#ifndef VKAT_SPIRV_INDEX_H
#define VKAT_SPIRV_INDEX_H

#include "compile.h"

/* Sets each binding's index_multiple, index_offset and index_unknown, and info->grid_stride, from the module's `n`
 * words; info->bindings, local_size, local_size_spec and the bounds (vkat_spirv_find_bound) must be read already.
 * Never fails: a module it cannot follow leaves 0, 0 and 0s, and grid_stride 0. */
void vkat_spirv_find_index(const uint32_t *words, size_t n, vkat_spirv_info *info);

#endif
