/* api_compile.c — vkat_space_compile (include/vkautotune.h): one configuration built the tuner's way
 * (vkat_tune_build: instantiate, compile, validate) for a device that need not be present, and the result as an
 * opaque object. What `vkautotune compile` prints about it is the CLI's. */
#include "build.h"
#include "compile.h"
#include "descriptors.h"
#include "sequence.h"
#include "tune.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

struct vkat_compiled {
    vkat_spirv spirv;
    long failed_constraint; /* -1: every constraint holds */
    size_t module_count;    /* a sequence's distinct modules, every one built and validated (0: no passes) */
    char config[512];
};

/* The configuration's choice and env (both malloc'ed for the caller), and the first constraint it fails (-1: none).
 * Parameters `config` does not name are completed by vkat_space_complete_config. */
static vkat_result prepare_config(const vkat_space *space, const vkat_device_info *device, const char *config,
                                  uint32_t **choice_out, vkat_value **env_out, long *failed_out, vkat_error *err)
{
    vkat_value *env = vkat_space_env_create(space, device);
    size_t np = space->param_count ? space->param_count : 1;
    uint32_t *choice = calloc(np, sizeof *choice);
    bool *named = calloc(np, sizeof *named);
    vkat_result r = VKAT_OK;
    vkat_error local = {0};
    if (!err)
        err = &local;
    if (!env || !choice || !named) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    r = vkat_space_parse_named(space, config ? config : "", choice, named, err);
    if (r != VKAT_OK)
        goto fail;
    /* The first valid configuration that keeps what was named; where none is valid, the first values stay and
     * the caller learns which constraint they fail. */
    if (vkat_space_complete_config(space, env, choice, named, err) < 0) {
        r = err->code;
        goto fail;
    }
    vkat_space_env_apply(space, choice, env);
    size_t failed = 0;
    int ok = vkat_space_check(space, env, &failed, err);
    if (ok < 0) {
        r = err->code;
        goto fail;
    }
    *failed_out = ok ? -1 : (long)failed;
    *choice_out = choice;
    *env_out = env;
    free(named);
    return VKAT_OK;
fail:
    free(named);
    free(choice);
    free(env);
    return r;
}

vkat_result vkat_space_check_config(const vkat_space *space, const vkat_device_info *device, const char *config,
                                    long *failed, vkat_error *err)
{
    uint32_t *choice = NULL;
    vkat_value *env = NULL;
    vkat_result r = prepare_config(space, device, config, &choice, &env, failed, err);
    free(choice);
    free(env);
    return r;
}

vkat_result vkat_space_compile(const vkat_space *space, const vkat_device_info *device, const char *config,
                               vkat_compiled **out, vkat_error *err)
{
    *out = NULL;
    /* No device: the oldest Vulkan the tuner targets and, through a NULL device for the env, its minimum limits. */
    vkat_device_info generic = {0};
    generic.api_version = VK_MAKE_API_VERSION(0, 1, 3, 0);
    snprintf(generic.name, sizeof generic.name, "generic Vulkan 1.3");
    for (size_t i = 0; i < space->feature_count; i++) /* and what the kernel requires (a device without is skipped) */
        if (vkat_feature_index(space->features[i]) >= 0)
            generic.feature[vkat_feature_index(space->features[i])] = 1;
    vkat_compiled *c = calloc(1, sizeof *c);
    uint32_t *choice = NULL;
    vkat_value *env = NULL;
    vkat_launch launch = {0};
    vkat_result r = c ? prepare_config(space, device, config, &choice, &env, &c->failed_constraint, err)
                      : vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (r != VKAT_OK)
        goto done;
    r = vkat_tune_build(space, device ? device : &generic, choice, env, &launch, &c->spirv, err);
    if (r != VKAT_OK)
        goto done;
    /* The interface checks the tuner makes before a pipeline exists, so that compile reports them too. */
    vkat_spec_value spec[64];
    size_t spec_count = vkat_build_spec_values(space, env, 0, spec, VKAT_COUNTOF(spec));
    vkat_spirv_info si;
    r = vkat_check_kernel_module(space, &c->spirv, spec, spec_count, &launch, &si, err);
    if (r != VKAT_OK)
        goto done;
    if (vkat_space_has_sequence(space, 0)) {
        /* Every pass is built and validated too, the way the tuner builds the sequence, so that a broken later
         * pass fails here rather than as a compile error of every variant on the GPU. */
        vkat_sequence q;
        r = vkat_sequence_compile(space, device ? device : &generic, NULL, env, 0, &q, err);
        c->module_count = q.module_count;
        vkat_sequence_free(&q);
        if (r != VKAT_OK)
            goto done;
    }
    vkat_space_format_config(space, choice, c->config, sizeof c->config);
    *out = c;
    c = NULL;
done:
    vkat_launch_free(&launch);
    vkat_compiled_destroy(c);
    free(choice);
    free(env);
    return r;
}

const uint32_t *vkat_compiled_words(const vkat_compiled *compiled, size_t *count)
{
    *count = compiled->spirv.count;
    return compiled->spirv.words;
}

const char *vkat_compiled_config(const vkat_compiled *compiled)
{
    return compiled->config;
}

long vkat_compiled_failed_constraint(const vkat_compiled *compiled)
{
    return compiled->failed_constraint;
}

size_t vkat_compiled_pass_modules(const vkat_compiled *compiled)
{
    return compiled->module_count;
}

vkat_result vkat_compiled_disassemble(const vkat_compiled *compiled, char **text, vkat_error *err)
{
    return vkat_disassemble_spirv(&compiled->spirv, text, err);
}

void vkat_compiled_destroy(vkat_compiled *compiled)
{
    if (!compiled)
        return;
    vkat_spirv_free(&compiled->spirv);
    free(compiled);
}
