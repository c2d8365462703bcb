/* shader_sources.c — the files of a space's shader and the check that the space's #defines do not replace a name
 * the shader declares. It reads text only: no compile, no device.
 *
 * The declaration scan is deliberately small: a name counts as declared where it follows a GLSL type keyword
 * (`uint M`, `const uint M = 64`, `uint M, N, K;` in a push-constant block, a function parameter), outside comments
 * and outside an `#ifndef NAME` / `#if !defined(NAME)` branch (which expects the name to be #defined from outside). */
#include "shader_sources.h"
#include "spirv_input.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- Which names the space #defines ------------------------------------------------------------------------- */

typedef struct defined_name {
    const char *name;
    const char *what; /* "problem size", "parameter", "[defines] macro" */
    const char *fix;
    int line;
} defined_name;

static size_t defined_names(const vkat_space *s, int reference, defined_name *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < s->problem_count && n < cap; i++)
        if (s->problem[i].binding == VKAT_SIZE_DEFINE)
            out[n++] = (defined_name){s->problem[i].name, "problem size", "write '@spec(N)' (its constant_id), "
                                      "'@push' or '@none' after its value in [problem]", s->problem[i].line};
    for (size_t i = 0; !reference && i < s->param_count && n < cap; i++)
        if (s->params[i].kind == VKAT_PARAM_DEFINE)
            out[n++] = (defined_name){s->params[i].name, "parameter", "write '@spec(N)' (its constant_id) after its "
                                      "values", s->params[i].line};
    for (size_t i = 0; i < s->define_count && n < cap; i++)
        out[n++] = (defined_name){s->defines[i].name, "[defines] macro", "rename or remove it", s->defines[i].line};
    return n;
}

/* ---- Scanning GLSL text ------------------------------------------------------------------------------------- */

static int is_type_keyword(const char *token, size_t n)
{
    static const char *const scalars[] = {"void", "bool", "int", "uint", "float", "double", "atomic_uint", NULL};
    char t[64];
    if (n >= sizeof t)
        return 0;
    memcpy(t, token, n);
    t[n] = 0;
    for (size_t i = 0; scalars[i]; i++)
        if (strcmp(t, scalars[i]) == 0)
            return 1;
    /* vectors and matrices with any prefix (vec4, ivec3, f16vec4, u8vec2, mat4, dmat2x3, f16mat2), and the
     * explicit-width scalars (float16_t, uint8_t, bfloat16_t, int64_t) */
    if ((strstr(t, "vec") || strstr(t, "mat")) && isdigit((unsigned char)t[n - 1]) && n <= 8)
        return 1;
    return n >= 4 && strcmp(t + n - 2, "_t") == 0 && isdigit((unsigned char)t[n - 3]);
}

typedef struct cond_frame {
    char guard[64]; /* NAME of an `#ifndef NAME` / `#if !defined(NAME)`; "" otherwise */
    int in_else;
} cond_frame;

/* The name of `#ifndef NAME` or `#if !defined(NAME)` / `#if !defined NAME` in a directive's text (after '#'). */
static void guard_of(const char *d, const char *end, char *out, size_t size)
{
    out[0] = 0;
    while (d < end && isspace((unsigned char)*d))
        d++;
    const char *name = NULL;
    if (end - d > 6 && strncmp(d, "ifndef", 6) == 0) {
        name = d + 6;
    } else if (end - d > 2 && strncmp(d, "if", 2) == 0 && !isalnum((unsigned char)d[2])) {
        const char *p = d + 2;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p < end && *p == '!') {
            p++;
            while (p < end && isspace((unsigned char)*p))
                p++;
            if (end - p > 7 && strncmp(p, "defined", 7) == 0)
                name = p + 7;
        }
    }
    if (!name)
        return;
    while (name < end && (isspace((unsigned char)*name) || *name == '('))
        name++;
    size_t n = 0;
    while (name + n < end && (isalnum((unsigned char)name[n]) || name[n] == '_'))
        n++;
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), name);
}

static int guarded(const cond_frame *stack, size_t depth, const char *name)
{
    for (size_t i = 0; i < depth && i < 64; i++)
        if (!stack[i].in_else && strcmp(stack[i].guard, name) == 0)
            return 1;
    return 0;
}

/* Finds the first declaration of one of `names` in `text`; returns its index and sets *line, else -1. */
static int find_declaration(const char *text, size_t size, const defined_name *names, size_t count, int *line)
{
    const char *p = text, *end = text + size;
    int ln = 1, at_line_start = 1, decl = 0, decl_depth = 0, depth = 0, prev_type = 0, prev_comma = 0;
    int prev_ident = 0; /* `coopmat<float, gl_ScopeSubgroup, FM, ...>`: '<' after a name opens type arguments */
    cond_frame stack[64];
    size_t sp = 0;
    while (p < end) {
        char c = *p;
        if (c == '\n') {
            ln++;
            at_line_start = 1;
            p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
            continue;
        }
        if (c == '/' && p + 1 < end && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
                ln += *p == '\n';
            p += 2;
            continue;
        }
        if (isspace((unsigned char)c)) {
            p++;
            continue;
        }
        if (c == '#' && at_line_start) {
            const char *e = p;
            while (e < end && *e != '\n') {
                if (*e == '\\' && e + 1 < end && e[1] == '\n')
                    e++, ln++;
                e++;
            }
            const char *d = p + 1;
            while (d < e && isspace((unsigned char)*d))
                d++;
            if (e - d >= 2 && strncmp(d, "if", 2) == 0) {
                if (sp < 64)
                    guard_of(d, e, stack[sp].guard, sizeof stack[sp].guard), stack[sp].in_else = 0;
                sp++;
            } else if (e - d >= 5 && strncmp(d, "endif", 5) == 0) {
                if (sp)
                    sp--;
            } else if (e - d >= 4 && (strncmp(d, "else", 4) == 0 || strncmp(d, "elif", 4) == 0)) {
                if (sp && sp <= 64)
                    stack[sp - 1].in_else = 1;
            }
            p = e;
            continue;
        }
        at_line_start = 0;
        if (isalpha((unsigned char)c) || c == '_') {
            const char *t = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            size_t n = (size_t)(p - t);
            if ((prev_type || (prev_comma && decl && depth == decl_depth))) {
                for (size_t i = 0; i < count; i++)
                    if (strlen(names[i].name) == n && strncmp(t, names[i].name, n) == 0 &&
                        !guarded(stack, sp, names[i].name)) {
                        *line = ln;
                        return (int)i;
                    }
            }
            prev_type = is_type_keyword(t, n);
            prev_ident = 1;
            if (prev_type && !decl && depth == 0) {
                decl = 1;
                decl_depth = depth;
            }
            prev_comma = 0;
            continue;
        }
        if (c == '(' || c == '[' || (c == '<' && prev_ident))
            depth++;
        else if ((c == ')' || c == ']' || c == '>') && depth > 0)
            depth--;
        else if (c == ';' || c == '{' || c == '}')
            decl = 0;
        prev_comma = c == ',';
        prev_type = prev_ident = 0;
        p++;
    }
    return -1;
}

vkat_result vkat_check_define_clashes(const vkat_space *s, const vkat_source_set *set, int reference,
                                      vkat_error *err)
{
    if (set->count && vkat_is_spirv(set->files[0].text, set->files[0].size)) {
        /* A compiled module: no #define reaches it. A parameter may still be read by the space (local_size,
         * groups), but a [defines] macro or a rewritten #define line is meant for the shader alone. */
        if (s->replace_define_count && !reference)
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, s->replace_defines_line,
                             "replace_defines: the template %s is a compiled SPIR-V module, which has no #define "
                             "lines to rewrite", set->files[0].path);
        if (s->opengl_rules && !reference)
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, s->opengl_rules_line,
                             "opengl_rules: the template %s is a compiled SPIR-V module, past the GLSL rules it was "
                             "compiled by; remove the key", set->files[0].path);
        if (s->define_count)
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, s->defines[0].line,
                             "[defines] '%s': the template %s is a compiled SPIR-V module, which no #define reaches; "
                             "remove it", s->defines[0].name, set->files[0].path);
        return VKAT_OK;
    }
    defined_name names[256];
    size_t count = defined_names(s, reference, names, VKAT_COUNTOF(names));
    for (size_t f = 0; count && f < set->count; f++) {
        int line = 0;
        int i = find_declaration(set->files[f].text, set->files[f].size, names, count, &line);
        if (i < 0)
            continue;
        return vkat_fail(err, VKAT_ERR_TEMPLATE, set->files[f].path, line,
                         "the shader declares '%s' here, but the space #defines it (%s:%d, %s), which would replace "
                         "the declared name with its value; %s",
                         names[i].name, s->path, names[i].line, names[i].what, names[i].fix);
    }
    return VKAT_OK;
}

vkat_result vkat_shader_sources_load(const vkat_space *s, const char *path, int reference, vkat_shader_sources *out,
                                     vkat_error *err)
{
    memset(out, 0, sizeof *out);
    vkat_result r = vkat_source_set_load(path, (const char *const *)s->include_dirs, s->include_dir_count, &out->set,
                                         err);
    if (r != VKAT_OK)
        return r;
    out->opts.include_dirs = (const char *const *)s->include_dirs;
    out->opts.include_dir_count = s->include_dir_count;
    out->opts.sources_hash = vkat_source_set_hash(&out->set);
    out->opts.spirv_opt = vkat_spirv_opt_from_env();
    out->opts.opengl_rules = s->opengl_rules;
    if (s->template_path && !strcmp(path, s->template_path)) /* a reference file of its own: its first kernel */
        out->opts.entry = s->entry;
    return vkat_check_define_clashes(s, &out->set, reference, err);
}

void vkat_shader_sources_free(vkat_shader_sources *src)
{
    if (!src)
        return;
    vkat_source_set_free(&src->set);
    memset(&src->opts, 0, sizeof src->opts);
}
