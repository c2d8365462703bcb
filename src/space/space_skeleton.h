/* space_skeleton.h — internal: a starting space file from a shader's reflected interface (`vkautotune init`). */
#ifndef VKAT_SPACE_SKELETON_H
#define VKAT_SPACE_SKELETON_H

#include "compile.h"

#define VKAT_SIZE_MACRO_CAP 48

/* The space file's text (malloc'ed; NULL when out of memory) for a module whose interface is `si` (reflected
 * without specialization), named `kernel_name`, its template written as `template_ref` and its include directories
 * as include_refs[0..include_ref_count) ([kernel] include_dirs), its entry point `entry` (NULL: main), compiled
 * with `defines`
 * ("NAME=VALUE" or "NAME", which become one-value parameters). macros[axis] (NULL: none) names the macro the shader
 * #defines itself as that axis's workgroup size ("" for none), its value the module's. */
char *vkat_space_skeleton_text(const vkat_spirv_info *si, const char *kernel_name, const char *template_ref,
                               const char *const *include_refs, size_t include_ref_count, const char *entry,
                               const char *const *defines, size_t define_count,
                               const char (*macros)[VKAT_SIZE_MACRO_CAP], int glsl_version);

#endif
