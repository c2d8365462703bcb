/* spirv_input.h — internal: a compiled SPIR-V module as the template, for a shader built by another compiler
 * (DXC, Slang, glslc at build time) whose GLSL source is not at hand or never existed.
 *
 * Nothing is compiled: the variants of a module differ in its specialization constants, its push constants and the
 * dispatch, and with replace_local_size in its LocalSize execution mode, patched in the words. #define values do
 * not reach it (a #define parameter can still shape the space's own expressions: [dispatch] local_size = WG_X). */
#ifndef VKAT_SPIRV_INPUT_H
#define VKAT_SPIRV_INPUT_H

#include "compile.h"
#include "space.h"

#include <stddef.h>

/* Do `bytes` start with SPIR-V's magic number, in either byte order? */
int vkat_is_spirv(const void *bytes, size_t size);

/* The module in `bytes` as host-order words (a big-endian file swapped). VKAT_ERR_TEMPLATE at `path` for a size that
 * is not whole words or a header cut short. */
vkat_result vkat_spirv_input_words(const char *path, const void *bytes, size_t size, vkat_spirv *out,
                                   vkat_error *err);

/* The names of the module's GLCompute entry points, "a, b", into buf; how many there are. */
size_t vkat_spirv_compute_entries(const vkat_spirv *m, char *buf, size_t size);

/* Sets every LocalSize execution mode to size[0..2]. VKAT_ERR_TEMPLATE at `path` when the module's workgroup size
 * does not come from LocalSize alone: a WorkgroupSize built-in constant that its code may read, or LocalSizeId of
 * constants (which specialization constants, not this, tune). */
vkat_result vkat_spirv_set_local_size(vkat_spirv *m, const uint32_t size[3], const char *path, vkat_error *err);

/* One variant of the module `bytes` (the template file at `path`): the words, the local size patched when the
 * space has replace_local_size and this is not the reference, validated for `device` (its api_version and scalar
 * block layout); VKAT_ERR_TEMPLATE when the module has no GLCompute entry point of the space's entry name (main by
 * default), naming those it has. */
vkat_result vkat_spirv_input_build(const vkat_space *s, const char *path, const void *bytes, size_t size,
                                   const vkat_device_info *device, const uint32_t local_size[3], int reference,
                                   vkat_spirv *out, vkat_error *err);

#endif
