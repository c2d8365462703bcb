/* api_space.c — the public header's view of a loaded space (include/vkautotune.h): read-only accessors over the
 * internal vkat_space, so that callers never see its layout, plus the library's version. Loading, problems and
 * everything else a space does stay in space/; this file only answers questions about one. */
#include "space.h"
#include "util.h"

#include <stdlib.h>

int vkat_version(void)
{
    return VKAT_VERSION;
}

const char *vkat_version_string(void)
{
    return VKAT_VERSION_STRING;
}

const char *vkat_space_path(const vkat_space *space)
{
    return space->path;
}

const char *vkat_space_kernel_name(const vkat_space *space)
{
    return space->name;
}

size_t vkat_space_param_count(const vkat_space *space)
{
    return space->param_count;
}

size_t vkat_space_constraint_count(const vkat_space *space)
{
    return space->constraint_count;
}

const char *vkat_space_constraint(const vkat_space *space, size_t index, int *line)
{
    if (index >= space->constraint_count)
        return NULL;
    if (line)
        *line = space->constraints[index].line;
    return space->constraints[index].name;
}

size_t vkat_space_pass_count(const vkat_space *space)
{
    return space->pass_count;
}

vkat_result vkat_space_transfer_bytes(vkat_space *space, const char *problem, double *in, double *out, vkat_error *err)
{
    *in = *out = 0;
    if (problem && *problem) {
        vkat_result r = vkat_space_set_problem(space, problem, err);
        if (r)
            return r;
    }
    vkat_value *env = vkat_space_env_create(space, NULL);
    uint32_t *choice = calloc(space->param_count ? space->param_count : 1, sizeof *choice);
    vkat_launch launch = {0};
    vkat_result r = VKAT_OK;
    if (!env || !choice) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    /* Buffer sizes depend on the problem, not on the parameters: the first configuration serves. */
    vkat_space_env_apply(space, choice, env);
    if ((r = vkat_space_launch(space, env, 0, &launch, err)))
        goto done;
    for (size_t b = 0; b < space->buffer_count; b++) {
        double bytes = (double)launch.buffer_counts[b] * (double)vkat_elem_type_size(space->buffers[b].type);
        if (space->buffers[b].dir & VKAT_DIR_IN)
            *in += bytes;
        if (space->buffers[b].dir & VKAT_DIR_OUT)
            *out += bytes;
    }
done:
    vkat_launch_free(&launch);
    free(env);
    free(choice);
    return r;
}
