/* api_space.c — the public header's view of a loaded space (include/vkautotune.h): read-only accessors over the
 * internal vkat_space, so that callers never see its layout, plus the library's version. Loading, problems and
 * everything else a space does stay in space/; this file only answers questions about one. */
#include "space.h"

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
