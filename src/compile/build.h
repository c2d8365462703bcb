/* build.h — internal: the one path from a template and a configuration to validated SPIR-V.
 *
 * Every module vkautotune makes goes through here: the tuner's variants (through the compile cache), the
 * reference, each pass of a sequence, and `vkautotune compile`. The steps are always the same: the shader's files
 * (shader_sources.h: includes, the #define-clash check), the #defines of the configuration (template.h), glslang
 * and SPIRV-Tools (compile.h). Export does not build: it writes the modules the store kept when they were
 * measured (store.h, vkat_store_get_spirv). */
#ifndef VKAT_BUILD_H
#define VKAT_BUILD_H

#include "compile.h"
#include "shader_sources.h"
#include "space.h"

/* Where a build's time went (seconds), for the run's stage times. */
typedef struct vkat_build_times {
    double instantiate_s, compile_s, validate_s; /* compile_s and validate_s 0 on a cache hit */
    int cache_hit;
} vkat_build_times;

/* Instantiates the root of `src` (loaded with vkat_shader_sources_load for this space) for `env` and `launch`
 * (`reference`: the reference's #defines, without parameters), compiles it through `cache` (NULL: no cache) and
 * validates it for `device` (its api_version; the scalar block layout where it has scalarBlockLayout, which the
 * tuner enables wherever supported). *out is the caller's (vkat_spirv_free); zeroed on failure. Errors
 * name the template's path and line. `times` may be NULL. Thread-safe for distinct outputs. */
vkat_result vkat_build_spirv(const vkat_space *s, const vkat_shader_sources *src, const vkat_device_info *device,
                             vkat_compile_cache *cache, const vkat_value *env, const vkat_launch *launch,
                             int reference, vkat_spirv *out, vkat_build_times *times, vkat_error *err);

/* The same, loading the files of `path` (the space's template, its reference, a pass's template) first. */
vkat_result vkat_build_file(const vkat_space *s, const char *path, const vkat_device_info *device,
                            vkat_compile_cache *cache, const vkat_value *env, const vkat_launch *launch, int reference,
                            vkat_spirv *out, vkat_build_times *times, vkat_error *err);

/* The specialization constants of the configuration in `env`, as a pipeline (or a reflection) takes them: problem
 * sizes bound to @spec, then (unless for the reference) @spec parameters; at most `cap`. Returns the count. */
size_t vkat_build_spec_values(const vkat_space *space, const vkat_value *env, int reference, vkat_spec_value *out,
                              size_t cap);

#endif
