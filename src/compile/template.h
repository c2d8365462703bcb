/* template.h — internal: turns a GLSL template into the source of one variant.
 *
 * The template is plain GLSL. Values enter as #define lines inserted right after its #version line, followed by
 * a `#line` directive, so glslang's error messages carry the template's own line numbers. Specialization-constant
 * parameters are not defined here: the template declares them (layout(constant_id = N) const int NAME = ...;) and
 * the runner supplies their values at pipeline creation. */
#ifndef VKAT_TEMPLATE_H
#define VKAT_TEMPLATE_H

#include "space.h"

typedef struct vkat_define {
    const char *name;
    vkat_value value;
} vkat_define;

/* Inserts the defines after #version. `path` is for messages only. A template without a #version line is
 * VKAT_ERR_TEMPLATE ("PATH:1: template has no #version line"). *out is malloc'ed; caller frees. */
vkat_result vkat_template_instantiate(const char *source, const char *path, const vkat_define *defines, size_t count,
                                      char **out, vkat_error *err);

/* The defines for one variant: every problem size, every VKAT_PARAM_DEFINE parameter, and VKAT_LOCAL_SIZE_X/Y/Z
 * from the launch; for the reference (`reference` set) problem sizes and local sizes only. */
vkat_result vkat_template_for_config(const vkat_space *s, const char *source, const char *path,
                                     const vkat_value *env, const vkat_launch *launch, int reference, char **out,
                                     vkat_error *err);

#endif
