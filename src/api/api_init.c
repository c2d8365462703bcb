/* api_init.c — vkat_space_skeleton (include/vkautotune.h): the shader compiled and reflected as it is (with the
 * macros given), then its starting space file (space_skeleton.c). What `vkautotune init` prints is the CLI's. */
#include "compile.h"
#include "define_rewrite.h"
#include "include_rewrite.h"
#include "spirv_input.h"
#include "includes.h"
#include "device.h"
#include "hlsl.h"
#include "local_size_rewrite.h"
#include "space_skeleton.h"
#include "spirv_axes.h"
#include "spirv_bound.h"
#include "spirv_index.h"
#include "template.h"
#include "util.h"

#include <ctype.h>
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
                                 "is one descriptor: the shader cannot run as written; give one of them another "
                                 "binding",
                                 si->bindings[i].set, si->bindings[i].binding, si->bindings[i].name,
                                 vkat_descriptor_kind_name(si->bindings[i].kind), si->bindings[j].name,
                                 vkat_descriptor_kind_name(si->bindings[j].kind));
    return VKAT_OK;
}

/* The macros the shader #defines itself (an integer), or a file it includes does (`set`: the shader's source set),
 * and declares its workgroup size by, per axis, with their values (0: none); a macro given with -D is not the
 * shader's own, so it is left out. */
static void size_macros(const char *source, const vkat_source_set *set, const char *const *defines,
                        size_t define_count, char macros[3][VKAT_SIZE_MACRO_CAP], uint32_t values[3])
{
    char names[3][64];
    long sizing = vkat_include_sizing(set); /* the file that declares the size: an included one, where not the shader */
    vkat_local_size_names(sizing > 0 ? set->files[sizing].text : source, names);
    for (int k = 0; k < 3; k++) {
        macros[k][0] = 0;
        values[k] = 0;
        const char *body, *end;
        int line, given = 0;
        for (size_t i = 0; i < define_count; i++)
            given |= !strncmp(defines[i], names[k], strlen(names[k])) &&
                     (defines[i][strlen(names[k])] == '=' || !defines[i][strlen(names[k])]);
        if (!names[k][0] || given || strlen(names[k]) >= VKAT_SIZE_MACRO_CAP)
            continue;
        long f = vkat_define_find(source, names[k], &body, &end, &line) ? 0 : vkat_include_defining(set, names[k]);
        if (f < 0 || (f > 0 && !vkat_define_find(set->files[f].text, names[k], &body, &end, &line)))
            continue;
        char *stop;
        unsigned long v = strtoul(body, &stop, 0);
        if (stop > body && (stop == end || ((*stop == 'u' || *stop == 'U') && stop + 1 == end)) && v > 0 && v <= 1024)
            memcpy(macros[k], names[k], strlen(names[k]) + 1), values[k] = (uint32_t)v; /* it fits: see above */
    }
}

/* The module's guesses (spirv_bound.h, spirv_index.h, spirv_axes.h): init's only, not on the tuner's path, which
 * reflects every variant. */
static void guess(const vkat_spirv *m, vkat_spirv_info *si)
{
    vkat_spirv_find_bound(m->words, m->count, si);
    vkat_spirv_find_index(m->words, m->count, si);
    vkat_spirv_find_axes(m->words, m->count, si);
}

/* guess for an HLSL module: glslang's wrapper copies SV_DispatchThreadID into a parameter of the [numthreads]
 * function, which the guesses do not follow; they read a copy with it inlined (its early returns merged first, or
 * SPIRV-Tools does not inline it) and its locals in SSA form. */
static void guess_hlsl(const vkat_spirv *m, vkat_spirv_info *si)
{
    static const char *const passes[] = {"--merge-return", "--inline-entry-points-exhaustive",
                                         "--eliminate-local-single-block", "--eliminate-local-single-store",
                                         "--scalar-replacement", "--convert-local-access-chains", "--ssa-rewrite",
                                         "--eliminate-dead-code-aggressive"};
    vkat_spirv flat = {0};
    vkat_error err = {0};
    vkat_result r = vkat_spirv_run_passes(m, VK_MAKE_API_VERSION(0, 1, 3, 0), passes, VKAT_COUNTOF(passes), &flat,
                                          &err);
    guess(r ? m : &flat, si);
    vkat_spirv_free(&flat);
}

/* A copy of the compiled module m with its LocalSize set to size (spirv_input.h); nonzero where it cannot be. */
static int module_at_size(const vkat_spirv *m, const uint32_t size[3], const char *path, vkat_spirv *out)
{
    vkat_error err = {0};
    return vkat_spirv_input_words(path, m->words, m->count * sizeof *m->words, out, &err) != VKAT_OK ||
           vkat_spirv_set_local_size(out, size, path, &err) != VKAT_OK;
}

/* A fixed workgroup size folds gl_WorkGroupSize.x to its value, which a literal stride (`gl_NumWorkGroups.x * 256u`)
 * also is: the stride is the dispatch's invocations at every size only if, built at another size, it still is. The
 * GLSL `text` is compiled again at it, a compiled module (text NULL) has its LocalSize set. */
static int stride_follows_size(const char *text, const vkat_spirv *module, const char *path,
                               const vkat_compile_opts *opts, const vkat_spirv_info *si)
{
    uint32_t other[3] = {si->local_size[0] == 64 ? 128 : 64, 1, 1};
    char *moved = NULL;
    int count = 0, follows = 0, built = 0;
    vkat_spirv m = {0};
    vkat_error err = {0};
    vkat_spirv_info *at = malloc(sizeof *at);
    if (!text && at)
        built = !module_at_size(module, other, path, &m);
    else if (text && at && !vkat_local_size_rewrite(text, other, &moved, &count) && moved)
        built = !vkat_compile_glsl_opts(moved, path, VK_MAKE_API_VERSION(0, 1, 3, 0), opts, &m, &err);
    if (built && !vkat_spirv_reflect(&m, NULL, 0, at, &err)) {
        guess(&m, at);
        follows = at->grid_stride;
    }
    free(at);
    free(moved);
    vkat_spirv_free(&m);
    return follows;
}

/* glslang's words for what OpenGL's GLSL allows and Vulkan's does not: uniforms outside a block, atomic counters, a
 * resource without a binding. */
static int opengl_only(const char *message)
{
    return strstr(message, "when using GLSL for Vulkan") || strstr(message, "layout(binding=X)");
}

/* The shader by Vulkan's rules, else, where only OpenGL's GLSL allows what it does, by OpenGL's (opts->opengl_rules
 * set). Where those fail too, their error is the one reported: the shader is OpenGL's, so that is what is wrong. */
static vkat_result compile_either_rules(const char *text, const char *path, vkat_compile_opts *opts, vkat_spirv *m,
                                        vkat_error *err)
{
    vkat_result r = vkat_compile_glsl_opts(text, path, VK_MAKE_API_VERSION(0, 1, 3, 0), opts, m, err);
    if (!r || !err || !opengl_only(err->message))
        return r;
    opts->opengl_rules = VKAT_RULES_OPENGL;
    r = vkat_compile_glsl_opts(text, path, VK_MAKE_API_VERSION(0, 1, 3, 0), opts, m, err);
    if (r)
        opts->opengl_rules = VKAT_RULES_VULKAN;
    return r;
}

/* m reflected into si, one kind of resource per binding. Where the shader has two kinds at one binding, which only
 * OpenGL's binding points (one set per kind) allow, it is compiled again into m by OpenGL's rules with each kind's
 * bindings apart; the first refusal stands where that does not part them. */
static vkat_result reflect_bindings(const char *text, const char *path, vkat_compile_opts *opts, vkat_spirv *m,
                                    vkat_spirv_info *si, vkat_error *err)
{
    vkat_result r = vkat_spirv_reflect(m, NULL, 0, si, err);
    if (r || !(r = one_kind_per_binding(si, path, err)) || opts->opengl_rules == VKAT_RULES_OPENGL_APART)
        return r;
    vkat_compile_opts apart_opts = *opts;
    apart_opts.opengl_rules = VKAT_RULES_OPENGL_APART;
    vkat_spirv apart = {0};
    vkat_error again = {0};
    if (vkat_compile_glsl_opts(text, path, VK_MAKE_API_VERSION(0, 1, 3, 0), &apart_opts, &apart, &again) ||
        vkat_spirv_reflect(&apart, NULL, 0, si, &again) || one_kind_per_binding(si, path, &again)) {
        vkat_spirv_free(&apart);
        vkat_spirv_reflect(m, NULL, 0, si, &again); /* si as the refusal describes it */
        return r;
    }
    vkat_spirv_free(m);
    *m = apart;
    opts->opengl_rules = VKAT_RULES_OPENGL_APART;
    return VKAT_OK;
}

/* Has push member i bytes that no [push] value can give (compile.h's push leaves)? Its first such leaf in *leaf
 * (NULL: the member itself, of no known layout). */
static int push_member_unfillable(const vkat_spirv_info *si, uint32_t i, const vkat_block_member **leaf)
{
    const vkat_block_member *m = &si->push_members[i];
    *leaf = NULL;
    if (m->kind == 'p' || m->leaf || m->kind == 'f' || m->kind == 'i')
        return 0; /* a buffer address is refused by init's comment and the tuner's check with their own words */
    if (!(si->push_leaves_of & (1u << i)))
        return 1;
    for (uint32_t k = 0; k < si->push_leaf_count; k++) {
        const vkat_block_member *l = &si->push_leaves[k];
        if (si->push_leaf_parent[k] == i && !l->leaf && l->kind != 'f' && l->kind != 'i') {
            *leaf = l;
            return 1;
        }
    }
    return 0;
}

/* The shader's line declaring each push member (its name as a word, in order, after `push_constant`'s `{`), for
 * init's placeholders; a member of bytes no [push] value can give is said on the log too, with its file and line,
 * since the space init writes then does not tune until they are given. */
static void push_member_lines(const char *source, const char *path, vkat_spirv_info *si)
{
    const char *at = source ? strstr(source, "push_constant") : NULL, *from = at ? strchr(at, '{') : NULL;
    for (uint32_t i = 0; i < si->push_member_count && i < 32; i++) {
        const char *name = si->push_members[i].name, *hit = NULL;
        size_t n = strlen(name);
        for (const char *p = from; n && p && !hit && (p = strstr(p, name)); p += n)
            if (!isalnum((unsigned char)p[-1]) && p[-1] != '_' && !isalnum((unsigned char)p[n]) && p[n] != '_')
                hit = p;
        int line = hit ? 1 : 0;
        for (const char *p = source; hit && p < hit; p++)
            line += *p == '\n';
        si->push_member_line[i] = line;
        from = hit ? hit + n : from;
        const vkat_block_member *leaf;
        if (!push_member_unfillable(si, i, &leaf))
            continue;
        char where[32] = "";
        if (line)
            snprintf(where, sizeof where, ":%d", line);
        vkat_log(VKAT_LOG_WARN, "%s%s: the push-constant block's '%s%s%s' (%u bytes at offset %u) has no [push] form "
                 "(int32, uint32 or float32 values): init writes a commented placeholder, and the tuner refuses the "
                 "space until its words are given", path, where, name[0] ? name : "a member",
                 leaf && leaf->name[0] ? "." : "", leaf ? leaf->name : "", leaf ? leaf->size : si->push_members[i].size,
                 leaf ? leaf->offset : si->push_members[i].offset);
    }
}

/* An HLSL file of several kernels (Unity's `#pragma kernel A` ... files): init reads the first; the log names the
 * others and how to tune one. */
static void note_other_kernels(const char *source, const char *path)
{
    char first[128], name[128], others[512] = "";
    if (!vkat_hlsl_entry(source, 0, first, sizeof first))
        return;
    for (unsigned i = 1; vkat_hlsl_entry(source, i, name, sizeof name); i++)
        snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s", others[0] ? ", " : "", name);
    if (others[0])
        vkat_log(VKAT_LOG_WARN, "%s holds several kernels: init read the first, %s; the others (%s) are tuned by "
                 "giving `entry = NAME` in [kernel]", path, first, others);
}

/* A compiled module as init's shader (spirv_input.h): its words, and its one compute entry point's name into
 * entry. -D macros cannot reach it. */
static vkat_result module_shader(const char *path, const char *bytes, size_t size, size_t define_count,
                                 vkat_spirv *m, char *entry, size_t entry_size, vkat_error *err)
{
    if (define_count)
        return vkat_fail(err, VKAT_ERR_USAGE, path, 0, "a compiled SPIR-V module takes no -D macros (they need its "
                         "source); its specialization constants are what can be tuned");
    vkat_result r = vkat_spirv_input_words(path, bytes, size, m, err);
    size_t n = r ? 0 : vkat_spirv_compute_entries(m, entry, entry_size);
    if (!r && n > 1)
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "the module has %zu compute entry points (%s); init reads a "
                      "module of one", n, entry);
    else if (!r && n == 0)
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "the module has no compute entry point (GLCompute)");
    return r;
}

vkat_result vkat_space_skeleton(const char *shader_path, const char *template_ref, const char *const *include_dirs,
                                const char *const *include_refs, size_t include_dir_count,
                                const char *const *defines, size_t define_count, char **text, vkat_error *err)
{
    *text = NULL;
    size_t size = 0;
    char *source = vkat_read_file(shader_path, &size), *defined = NULL, entry[256] = "";
    if (!source)
        return vkat_fail(err, VKAT_ERR_IO, shader_path, 0, "cannot read the shader: %s", strerror(errno));
    int module = vkat_is_spirv(source, size);
    vkat_result r = module ? VKAT_OK : vkat_shader_text_check(shader_path, source, size, err);
    char *section = NULL; /* the compute stage of a file of tagged stages: -D goes after its #version */
    if (!r && !module && !(r = vkat_template_compute_section(source, shader_path, &section, err)) && section)
        free(source), source = section;
    /* without #version (its build adds one), as version 450: what glslang assumes here too */
    int hlsl = !r && !module && vkat_is_hlsl(shader_path, source); /* HLSL: no #version (hlsl.h) */
    if (hlsl)
        note_other_kernels(source, shader_path);
    int glsl_version = !r && !module && !hlsl && !vkat_template_has_version(source) ? 450 : 0;
    char *versioned = NULL;
    if (glsl_version && define_count && vkat_template_add_version(source, glsl_version, &versioned))
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    char macros[3][VKAT_SIZE_MACRO_CAP] = {"", "", ""};
    uint32_t macro_values[3] = {0, 0, 0};
    vkat_source_set set = {0};
    vkat_error unread = {0}; /* a shader that cannot be read fails below; one without includes is a set of one */
    if (!r && !module)
        vkat_source_set_load(shader_path, include_dirs, include_dir_count, &set, &unread);
    if (!module)
        size_macros(source, &set, defines, define_count, macros, macro_values);
    vkat_source_set_free(&set);
    if (!r && !module && define_count)
        r = with_defines(versioned ? versioned : source, shader_path, defines, define_count, &defined, err);
    free(versioned);
    vkat_compile_opts opts = {include_dirs, include_dir_count, 0, VKAT_SPIRV_OPT_NONE};
    vkat_spirv m = {0};
    if (!r)
        r = module ? module_shader(shader_path, source, size, define_count, &m, entry, sizeof entry, err)
                   : compile_either_rules(defined ? defined : source, shader_path, &opts, &m, err);
    vkat_spirv_info *si = r ? NULL : malloc(sizeof *si);
    if (!r && !si)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!r)
        r = module ? vkat_spirv_reflect(&m, NULL, 0, si, err)
                   : reflect_bindings(defined ? defined : source, shader_path, &opts, &m, si, err);
    if (!r && module)
        r = one_kind_per_binding(si, shader_path, err);
    if (!r) {
        (hlsl ? guess_hlsl : guess)(&m, si);
        si->opengl_rules = opts.opengl_rules;
    }
    if (!r)
        push_member_lines(module ? NULL : source, shader_path, si);
    vkat_spirv same = {0};
    if (!r && module) {
        si->module_template = 1;
        si->module_size_constant = module_at_size(&m, si->local_size, shader_path, &same);
    }
    vkat_spirv_free(&same);
    if (!r && si->grid_stride && si->local_size_spec[0] < 0)
        si->grid_stride = stride_follows_size(module ? NULL : defined ? defined : source, &m, shader_path, &opts, si);
    free(source);
    free(defined);
    if (!r) {
        /* the kernel's name: the shader's file name without its extensions */
        const char *base = strrchr(shader_path, '/');
        base = base ? base + 1 : shader_path;
        char name[64];
        size_t n = strcspn(base, ".");
        snprintf(name, sizeof name, "%.*s", (int)(n ? n : strlen(base)), base);
        for (int k = 0; k < 3; k++) /* the module's own size: a macro redefined in an #if branch is not it */
            if (macro_values[k] != si->local_size[k])
                macros[k][0] = 0;
        if (!(*text = vkat_space_skeleton_text(si, name, template_ref, include_refs ? include_refs : include_dirs,
                                               include_dir_count, entry[0] ? entry : NULL, defines, define_count,
                                               (const char (*)[VKAT_SIZE_MACRO_CAP])macros, glsl_version)))
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    free(si);
    vkat_spirv_free(&m);
    return r;
}
