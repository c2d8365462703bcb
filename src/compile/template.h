/* template.h — internal: turns a GLSL template into the source of one variant.
 *
 * The template is plain GLSL. Values enter as #define lines inserted right after its #version line, followed by
 * a `#line` directive, so glslang's error messages carry the template's own line numbers. Specialization-constant
 * parameters are not defined here: the template declares them (layout(constant_id = N) const int NAME = ...;) and
 * the runner supplies their values at pipeline creation. */
#ifndef VKAT_TEMPLATE_H
#define VKAT_TEMPLATE_H

#include "includes.h"
#include "space.h"

typedef struct vkat_define {
    const char *name;
    vkat_value value;
    const char *text; /* when not NULL, the macro's text instead of `value` (type macros: "float16_t") */
} vkat_define;

/* Inserts the defines after #version. `path` is for messages only. A template without a #version line is
 * VKAT_ERR_TEMPLATE ("PATH:1: template has no #version line"). *out is malloc'ed; caller frees. */
vkat_result vkat_template_instantiate(const char *source, const char *path, const vkat_define *defines, size_t count,
                                      char **out, vkat_error *err);

/* Does `source` have a #version line? */
int vkat_template_has_version(const char *source);

/* `source` as GLSL `version` where it has no #version line of its own (its build adds one: glslc's -std=450, MNN's
 * shader build): *out is `#version N`, `#line 1` and the source, so that messages keep its line numbers.
 * VKAT_ERR_NOMEM only. */
vkat_result vkat_template_add_version(const char *source, int version, char **out);

/* When `source` has an #include line but does not name GL_GOOGLE_include_directive, *out is the source with
 * `#extension GL_GOOGLE_include_directive : enable` and a #line after its #version line (as glslc enables it for
 * every shader); else *out is NULL. VKAT_ERR_NOMEM only. */
vkat_result vkat_template_enable_includes(const char *source, char **out);

/* The compute stage of a file that tags its stages as other engines' loaders cut them: `#shader compute`
 * (TheCherno-style engines), `#type compute` (Hazel), `#pragma stage compute`, `#pragma shader_stage(compute)`
 * (shaderc) or Godot's `#[compute]` (after its `#[versions]` section). *out is the source with the tag lines, the
 * other stages' sections, Godot's `#[versions]` section and `#VERSION_DEFINES` lines blanked (never removed, so that
 * messages keep the file's line numbers; lines before the first tag are kept as shared), or NULL where the source
 * has no tag. Tags but no compute stage, or two compute sections: VKAT_ERR_TEMPLATE at `path` and the tag's line.
 * Applying it again to its output changes nothing. */
vkat_result vkat_template_compute_section(const char *source, const char *path, char **out, vkat_error *err);

/* The defines for one variant: the problem sizes bound to #define, every VKAT_PARAM_DEFINE parameter (text ones as
 * their text), the space's [defines], and VKAT_LOCAL_SIZE_X/Y/Z from the launch; for the reference (`reference`
 * set) the same without parameters. `includes` (the template's source set, or NULL for `source` alone) says which
 * replace_defines macros an included file #defines instead (include_rewrite.h rewrites those). */
vkat_result vkat_template_for_config(const vkat_space *s, const char *source, const char *path,
                                     const vkat_source_set *includes, const vkat_value *env,
                                     const vkat_launch *launch, int reference, char **out, vkat_error *err);

/* A parameter's value as its #define writes it (a text parameter's text, a number as a GLSL literal) in buf, or
 * NULL for a value that is not a finite number. */
const char *vkat_template_param_value(const vkat_param *p, vkat_value v, char *buf, size_t size);

#endif
