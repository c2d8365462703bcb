/* api_init.c — vkat_space_skeleton (include/vkautotune.h): the shader compiled and reflected as it is (with the
 * macros given), then its starting space file (space_skeleton.c). What `vkautotune init` prints is the CLI's. */
#include "compile.h"
#include "includes.h"
#include "device.h"
#include "space_skeleton.h"
#include "spirv_bound.h"
#include "spirv_index.h"
#include "template.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEFINES 64

/* The shader's source with `defines` ("NAME=VALUE" or "NAME": 1) after its #version line; *out malloc'ed. */
static vkat_result with_defines(const char *source, const char *path, const char *const *defines, size_t count,
                                char **out, vkat_error *err)
{
    if (count > MAX_DEFINES)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "at most %d macros", MAX_DEFINES);
    vkat_define d[MAX_DEFINES];
    char *names[MAX_DEFINES] = {0};
    vkat_result r = VKAT_OK;
    for (size_t i = 0; i < count && !r; i++) {
        const char *eq = strchr(defines[i], '=');
        names[i] = vkat_strndup(defines[i], eq ? (size_t)(eq - defines[i]) : strlen(defines[i]));
        if (!names[i])
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        else if (!names[i][0])
            r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "a macro needs a name: '%s' (expected NAME=VALUE)",
                          defines[i]);
        d[i] = (vkat_define){names[i], {0}, eq ? eq + 1 : "1"};
    }
    if (!r)
        r = vkat_template_instantiate(source, path, d, count, out, err);
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    return r;
}

/* A Vulkan binding is one descriptor: two variables of different kinds in one set and binding (an OpenGL shader's
 * image unit 0 beside its buffer binding 0, which OpenGL keeps apart) cannot be bound as written. Said here, naming
 * both, rather than as a clash of the two [buffers] entries init would write. */
static vkat_result one_kind_per_binding(const vkat_spirv_info *si, const char *path, vkat_error *err)
{
    for (uint32_t i = 0; i < si->binding_count; i++)
        for (uint32_t j = i + 1; j < si->binding_count; j++)
            if (si->bindings[i].set == si->bindings[j].set && si->bindings[i].binding == si->bindings[j].binding &&
                si->bindings[i].kind != si->bindings[j].kind)
                return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0,
                                 "set %u, binding %u holds both '%s' (a %s) and '%s' (a %s), but a Vulkan binding "
                                 "is one descriptor (OpenGL keeps image units and buffer bindings apart, Vulkan does "
                                 "not): the shader cannot run as written; give one of them another binding",
                                 si->bindings[i].set, si->bindings[i].binding, si->bindings[i].name,
                                 vkat_descriptor_kind_name(si->bindings[i].kind), si->bindings[j].name,
                                 vkat_descriptor_kind_name(si->bindings[j].kind));
    return VKAT_OK;
}

vkat_result vkat_space_skeleton(const char *shader_path, const char *template_ref, const char *const *include_dirs,
                                size_t include_dir_count, const char *const *defines, size_t define_count,
                                char **text, vkat_error *err)
{
    *text = NULL;
    size_t size = 0;
    char *source = vkat_read_file(shader_path, &size), *defined = NULL;
    if (!source)
        return vkat_fail(err, VKAT_ERR_IO, shader_path, 0, "cannot read the shader: %s", strerror(errno));
    vkat_result r = vkat_shader_text_check(shader_path, source, size, err);
    /* without #version (its build adds one), as version 450: what glslang assumes here too */
    int glsl_version = !r && !vkat_template_has_version(source) ? 450 : 0;
    char *versioned = NULL;
    if (glsl_version && define_count && vkat_template_add_version(source, glsl_version, &versioned))
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!r && define_count)
        r = with_defines(versioned ? versioned : source, shader_path, defines, define_count, &defined, err);
    free(versioned);
    vkat_compile_opts opts = {include_dirs, include_dir_count, 0, VKAT_SPIRV_OPT_NONE};
    vkat_spirv m = {0};
    if (!r)
        r = vkat_compile_glsl_opts(defined ? defined : source, shader_path, VK_MAKE_API_VERSION(0, 1, 3, 0), &opts, &m,
                                   err);
    free(source);
    free(defined);
    vkat_spirv_info *si = r ? NULL : malloc(sizeof *si);
    if (!r && !si)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!r)
        r = vkat_spirv_reflect(&m, NULL, 0, si, err);
    if (!r)
        r = one_kind_per_binding(si, shader_path, err);
    if (!r) { /* init's guesses only: not on the tuner's path, which reflects every variant */
        vkat_spirv_find_bound(m.words, m.count, si);
        vkat_spirv_find_index(m.words, m.count, si);
    }
    if (!r) {
        /* the kernel's name: the shader's file name without its extensions */
        const char *base = strrchr(shader_path, '/');
        base = base ? base + 1 : shader_path;
        char name[64];
        size_t n = strcspn(base, ".");
        snprintf(name, sizeof name, "%.*s", (int)(n ? n : strlen(base)), base);
        if (!(*text = vkat_space_skeleton_text(si, name, template_ref, defines, define_count, glsl_version)))
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    free(si);
    vkat_spirv_free(&m);
    return r;
}
