/* spirv_bound.h — internal: the size a compute shader bounds its invocations by (spirv_bound.c). */
#ifndef VKAT_SPIRV_BOUND_H
#define VKAT_SPIRV_BOUND_H

#include "compile.h"

/* Sets info->bound_push_member and info->bound_spec_id (-1 each when none) and each binding's bounded_by_buffer
 * from the module's `n` words; info->bindings must be read already. Never fails: a module it cannot follow leaves
 * -1, -1 and 0s. */
void vkat_spirv_find_bound(const uint32_t *words, size_t n, vkat_spirv_info *info);

#endif
