/* sequence.c — compiles a space's sequence of dispatches for one configuration and makes it one kernel.
 *
 * Steps that instantiate to the same source share one module (the compile cache sees them as one), and steps with
 * the same module and specialization constants share one pipeline: a 12-pass reduction whose passes differ only in
 * push constants compiles once and creates one pipeline. It must not print; the tuner and export own the outcome. */
#include "sequence.h"
#include "build.h"
#include "descriptors.h"
#include "includes.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

void vkat_sequence_free(vkat_sequence *q)
{
    if (!q)
        return;
    for (size_t i = 0; i < q->module_count; i++)
        vkat_spirv_free(&q->modules[i]);
    free(q->modules);
    free(q->module_paths);
    free(q->module_of);
    free(q->workgroup_size);
    free(q->steps);
    memset(q, 0, sizeof *q);
}

static size_t step_spec(const vkat_step *st, vkat_spec_value *out)
{
    for (size_t k = 0; k < st->spec_count; k++)
        out[k] = (vkat_spec_value){st->spec_id[k], st->spec_value[k]};
    return st->spec_count;
}

size_t vkat_sequence_spec(const vkat_sequence *q, size_t i, vkat_spec_value *out)
{
    return step_spec(&q->steps[i], out);
}

/* The space's buffers are the only descriptors there are (each in its slot: set 0 and its position unless placed);
 * the workgroup size the pass (or else [dispatch] / [check]) states is the module's. */
static vkat_result check_module_bindings(const vkat_space *s, const vkat_spirv *m, const vkat_step *st,
                                         const char *path, int reference, uint32_t workgroup_size[3],
                                         vkat_error *err)
{
    vkat_spec_value spec[VKAT_MAX_STEP_SPEC];
    size_t n = step_spec(st, spec);
    vkat_spirv_info si;
    vkat_result r = vkat_spirv_reflect(m, spec, n, &si, err);
    if (!r)
        memcpy(workgroup_size, si.local_size, sizeof si.local_size);
    if (!r)
        r = vkat_check_bindings(s, path, &si, err);
    if (!r)
        r = vkat_check_push_block(s, path, &si, err);
    const vkat_expr *given = st->pass->local_size[0];
    char section[160];
    if (given)
        snprintf(section, sizeof section, "[%s%s]", reference ? "check.pass." : "pass.", st->pass->name);
    else
        snprintf(section, sizeof section, "%s", reference ? "[check]" : "[dispatch]");
    if (!given)
        given = reference ? s->ref_local_size[0] : s->local_size[0];
    if (!r)
        r = vkat_check_local_size(s, section, given, st->local_size, path, &si, err);
    return r;
}

/* Instantiates and compiles step `st`'s template into *m. */
static vkat_result compile_step(const vkat_space *s, const vkat_device_info *device, vkat_compile_cache *cache,
                                const vkat_value *env, int reference, const vkat_step *st, vkat_spirv *m, int *hit,
                                vkat_sequence *q, vkat_error *err)
{
    /* The pass's shader with its includes and the space's define-clash check, as for a single dispatch. */
    vkat_launch launch = {0};
    memcpy(launch.local_size, st->local_size, sizeof launch.local_size);
    vkat_build_times t;
    vkat_result r = vkat_build_file(s, st->template_path, device, cache, env, &launch, reference, m,
                                    &t, err);
    *hit = t.cache_hit;
    double c = t.compile_s, v = t.validate_s;
    q->compile_s += c;
    q->validate_s += v;
    if (r && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", st->template_path);
    return r;
}

static int same_module(const vkat_spirv *a, const vkat_spirv *b)
{
    return a->count == b->count && memcmp(a->words, b->words, a->count * sizeof *a->words) == 0;
}

vkat_result vkat_sequence_templates_hash(const vkat_space *s, uint64_t *hash, vkat_error *err)
{
    for (size_t i = 0; i < s->pass_count; i++) {
        const char *path = s->passes[i].template_path;
        int seen = !path || !strcmp(path, s->template_path);
        for (size_t j = 0; !seen && j < i; j++)
            seen = s->passes[j].template_path && !strcmp(s->passes[j].template_path, path);
        if (seen)
            continue;
        /* with every file it includes, as the [kernel] template's hash */
        vkat_source_set set;
        if (vkat_source_set_load(path, (const char *const *)s->include_dirs, s->include_dir_count, &set, err) !=
            VKAT_OK)
            return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot read the template of pass '%s'", s->passes[i].name);
        uint64_t h = vkat_source_set_hash(&set);
        vkat_source_set_free(&set);
        *hash = XXH64(&h, sizeof h, *hash);
    }
    return VKAT_OK;
}

int vkat_sequence_same_modules(const vkat_sequence *a, const vkat_sequence *b)
{
    if (a->module_count != b->module_count)
        return 0;
    for (size_t i = 0; i < a->module_count; i++)
        if (!same_module(&a->modules[i], &b->modules[i]))
            return 0;
    return 1;
}

vkat_result vkat_sequence_compile(const vkat_space *s, const vkat_device_info *device, vkat_compile_cache *cache,
                                  const vkat_value *env, int reference, vkat_sequence *q, vkat_error *err)
{
    memset(q, 0, sizeof *q);
    vkat_result r = vkat_space_steps(s, env, reference, &q->steps, &q->step_count, err);
    if (r)
        return r;
    q->module_of = calloc(q->step_count, sizeof *q->module_of);
    q->modules = calloc(q->step_count, sizeof *q->modules);
    q->module_paths = calloc(q->step_count, sizeof *q->module_paths);
    q->workgroup_size = calloc(q->step_count, sizeof *q->workgroup_size);
    if (!q->module_of || !q->modules || !q->module_paths || !q->workgroup_size)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    q->all_cached = 1;
    XXH64_hash_t h = 0;
    for (size_t i = 0; i < q->step_count && !r; i++) {
        vkat_spirv m = {0};
        int hit = 0;
        if ((r = compile_step(s, device, cache, env, reference, &q->steps[i], &m, &hit, q, err)))
            break;
        q->all_cached &= hit;
        size_t k = 0;
        while (k < q->module_count && !same_module(&q->modules[k], &m))
            k++;
        if (k == q->module_count) {
            q->modules[k] = m;
            q->module_paths[k] = (char *)q->steps[i].template_path;
            q->module_count++;
        } else {
            vkat_spirv_free(&m);
        }
        q->module_of[i] = (uint32_t)k;
        r = check_module_bindings(s, &q->modules[k], &q->steps[i], q->steps[i].template_path, reference,
                                  q->workgroup_size[i], err);
        uint64_t mh = vkat_spirv_hash(&q->modules[k]);
        h = XXH64(&mh, sizeof mh, h);
    }
    q->hash = h;
    return r;
}

/* Does step j use the same pipeline as step i (same module, same specialization, same push range)? */
static int same_pipeline(const vkat_sequence *q, size_t i, size_t j)
{
    const vkat_step *a = &q->steps[i], *b = &q->steps[j];
    return q->module_of[i] == q->module_of[j] && a->push_size == b->push_size && a->spec_count == b->spec_count &&
           !memcmp(a->spec_id, b->spec_id, a->spec_count * sizeof *a->spec_id) &&
           !memcmp(a->spec_value, b->spec_value, a->spec_count * sizeof *a->spec_value);
}

vkat_result vkat_sequence_kernel(const vkat_sequence *q, vkat_workspace *ws, const char *entry, vkat_kernel **out,
                                 vkat_error *err)
{
    *out = NULL;
    vkat_kernel **kernels = calloc(q->step_count ? q->step_count : 1, sizeof *kernels);
    size_t *first = calloc(q->step_count ? q->step_count : 1, sizeof *first); /* step that made kernel k */
    vkat_sequence_step *steps = calloc(q->step_count ? q->step_count : 1, sizeof *steps);
    size_t nk = 0;
    vkat_result r = VKAT_OK;
    if (!kernels || !first || !steps)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; !r && i < q->step_count; i++) {
        size_t k = 0;
        while (k < nk && !same_pipeline(q, first[k], i))
            k++;
        if (k == nk) {
            vkat_spec_value spec[VKAT_MAX_STEP_SPEC];
            size_t ns = vkat_sequence_spec(q, i, spec);
            r = vkat_kernel_create(ws, &q->modules[q->module_of[i]], entry, spec, ns, q->steps[i].push_size,
                                   &kernels[nk], err);
            if (r) {
                if (err && !err->file[0])
                    snprintf(err->file, sizeof err->file, "%s", q->steps[i].template_path);
                break;
            }
            first[nk++] = i;
        }
        steps[i].kernel = (uint32_t)k;
        memcpy(steps[i].groups, q->steps[i].groups, sizeof steps[i].groups);
        memcpy(steps[i].push, q->steps[i].push, sizeof steps[i].push);
        steps[i].remapped = q->steps[i].remapped;
        memcpy(steps[i].binding_buffer, q->steps[i].binding_buffer, sizeof steps[i].binding_buffer);
    }
    if (!r)
        r = vkat_kernel_create_sequence(ws, kernels, nk, steps, q->step_count, out, err);
    else
        for (size_t k = 0; k < nk; k++)
            vkat_kernel_destroy(kernels[k]);
    free(kernels);
    free(first);
    free(steps);
    return r;
}
