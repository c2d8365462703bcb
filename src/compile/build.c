/* build.c — template + configuration -> validated SPIR-V, the one way it is done (see build.h). It composes the
 * stages that read files, instantiate and compile; it never touches a device and never writes anything. */
#include "build.h"
#include "include_rewrite.h"
#include "spirv_input.h"
#include "template.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

vkat_result vkat_build_spirv(const vkat_space *s, const vkat_shader_sources *src, const vkat_device_info *device,
                             vkat_compile_cache *cache, const vkat_value *env, const vkat_launch *launch,
                             int reference, vkat_spirv *out, vkat_build_times *times, vkat_error *err)
{
    vkat_build_times local = {0};
    vkat_build_times *t = times ? times : &local;
    memset(t, 0, sizeof *t);
    memset(out, 0, sizeof *out);
    const char *path = src->set.files[0].path;
    char *source = NULL;
    double t0 = vkat_now();
    if (vkat_is_spirv(src->set.files[0].text, src->set.files[0].size)) { /* compiled already: spirv_input.h */
        vkat_result r = vkat_spirv_input_build(s, path, src->set.files[0].text, src->set.files[0].size, device,
                                               launch->local_size, reference, out, err);
        t->validate_s = vkat_now() - t0;
        return r;
    }
    vkat_compile_opts opts = src->opts;
    opts.scalar_block_layout = device->feature[VKAT_FEATURE_SCALAR_BLOCK_LAYOUT];
    uint32_t api = device->api_version;
    vkat_include_text *texts = NULL;
    vkat_result r = vkat_template_for_config(s, src->set.files[0].text, path, &src->set, env, launch, reference,
                                             &source, err);
    if (r == VKAT_OK && !reference)
        r = vkat_include_rewrite(s, &src->set, env, launch->local_size, &texts, &opts.include_text_count, err);
    opts.include_texts = texts;
    t->instantiate_s = vkat_now() - t0;
    /* With or without a cache, the same compile and validation (compile_cache.c only remembers the outcome). */
    if (r == VKAT_OK)
        r = vkat_compile_cached(cache, source, path, api, &opts, out, &t->cache_hit, &t->compile_s, &t->validate_s,
                                err);
    vkat_include_texts_free(texts, opts.include_text_count);
    free(source);
    return r;
}

vkat_result vkat_build_file(const vkat_space *s, const char *path, const vkat_device_info *device,
                            vkat_compile_cache *cache, const vkat_value *env, const vkat_launch *launch, int reference,
                            vkat_spirv *out, vkat_build_times *times, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    if (times)
        memset(times, 0, sizeof *times);
    vkat_shader_sources src;
    vkat_result r = vkat_shader_sources_load(s, path, reference, &src, err);
    if (r == VKAT_OK)
        r = vkat_build_spirv(s, &src, device, cache, env, launch, reference, out, times, err);
    vkat_shader_sources_free(&src);
    return r;
}

size_t vkat_build_spec_values(const vkat_space *space, const vkat_value *env, int reference, vkat_spec_value *out,
                              size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < space->problem_count && n < cap; i++)
        if (space->problem[i].binding == VKAT_SIZE_SPEC)
            out[n++] = (vkat_spec_value){space->problem[i].spec_id, (uint32_t)env[space->problem[i].slot].i};
    for (size_t i = 0; !reference && i < space->param_count && n < cap; i++) {
        const vkat_param *p = &space->params[i];
        if (p->kind == VKAT_PARAM_SPEC)
            out[n++] = (vkat_spec_value){p->spec_id, (uint32_t)env[p->slot].i};
    }
    return n;
}
