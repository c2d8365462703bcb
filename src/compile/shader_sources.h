/* shader_sources.h — internal: a space's shader as the files it is made of, checked before anything compiles.
 *
 * Loads the template (or the reference) with everything it includes, fills the compile options (include
 * directories, the files' hash for the compile cache) and refuses a #define the space would insert that replaces an
 * identifier the shader declares (`layout(constant_id = 0) const uint M` with problem size M #defined turns into
 * `const uint 256`, which glslang reports only as "unexpected INTCONSTANT"). */
#ifndef VKAT_SHADER_SOURCES_H
#define VKAT_SHADER_SOURCES_H

#include "compile.h"
#include "includes.h"
#include "space.h"

typedef struct vkat_shader_sources {
    vkat_source_set set;
    vkat_compile_opts opts; /* points into the space (include_dirs): valid while both live */
} vkat_shader_sources;

/* Loads `path` (the space's template or reference; `reference` says which #defines it gets) and checks it: VKAT_ERR_IO
 * when it cannot be read, VKAT_ERR_TEMPLATE for a #define that would replace a declared name, with the declaration's
 * file:line and the space's. Free with vkat_shader_sources_free, also after an error. */
vkat_result vkat_shader_sources_load(const vkat_space *s, const char *path, int reference, vkat_shader_sources *out,
                                     vkat_error *err);
void vkat_shader_sources_free(vkat_shader_sources *src);

/* The check alone, over any loaded set. */
vkat_result vkat_check_define_clashes(const vkat_space *s, const vkat_source_set *set, int reference,
                                      vkat_error *err);

#endif
