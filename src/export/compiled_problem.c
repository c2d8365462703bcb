/* compiled_problem.c — the problem sizes a variant's module holds, read from the space's bindings and the
 * shader's identifiers (see the header for the rule). Reads text only: it never compiles. */
#include "compiled_problem.h"
#include "includes.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const local_size_names[3] = {"VKAT_LOCAL_SIZE_X", "VKAT_LOCAL_SIZE_Y", "VKAT_LOCAL_SIZE_Z"};

/* Does `name` occur as an identifier in `text` (not inside a comment or a quoted name such as an #include's)? */
static int names_identifier(const char *text, size_t size, const char *name)
{
    size_t n = strlen(name);
    const char *p = text, *end = text + size;
    while (p < end) {
        if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
                ;
            p += 2;
        } else if (*p == '"') {
            for (p++; p < end && *p != '"' && *p != '\n'; p++)
                ;
            p++;
        } else if (isalpha((unsigned char)*p) || *p == '_') {
            const char *t = p;
            while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            if ((size_t)(p - t) == n && memcmp(t, name, n) == 0)
                return 1;
        } else {
            p++;
        }
    }
    return 0;
}

static int set_names(const vkat_source_set *set, const char *name)
{
    for (size_t f = 0; f < set->count; f++)
        if (names_identifier(set->files[f].text, set->files[f].size, name))
            return 1;
    return 0;
}

/* The shader files of the variant: the [kernel] template, and each pass's own template (each once). */
static vkat_result load_shaders(const vkat_space *s, vkat_source_set **sets, size_t *count, vkat_error *err)
{
    *sets = calloc(s->pass_count + 1, sizeof **sets);
    *count = 0;
    if (!*sets)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i <= s->pass_count; i++) {
        const char *path = i == 0 ? s->template_path : s->passes[i - 1].template_path;
        int seen = !path || (i > 0 && !strcmp(path, s->template_path));
        for (size_t j = 1; !seen && j < i; j++)
            seen = s->passes[j - 1].template_path && !strcmp(s->passes[j - 1].template_path, path);
        if (seen)
            continue;
        vkat_result r = vkat_source_set_load(path, (const char *const *)s->include_dirs, s->include_dir_count,
                                             &(*sets)[*count], err);
        if (r != VKAT_OK)
            return r;
        (*count)++;
    }
    return VKAT_OK;
}

static int any_set_names(const vkat_source_set *sets, size_t count, const char *name)
{
    for (size_t i = 0; i < count; i++)
        if (set_names(&sets[i], name))
            return 1;
    return 0;
}

/* Does a local-size expression of axis `a` (the [dispatch] one, or a pass's) read symbol `slot`? */
static int local_size_reads(const vkat_space *s, int a, int slot)
{
    if (s->local_size[a] && vkat_expr_uses(s->local_size[a], slot))
        return 1;
    for (size_t i = 0; i < s->pass_count; i++)
        if (s->passes[i].local_size[a] && vkat_expr_uses(s->passes[i].local_size[a], slot))
            return 1;
    return 0;
}

static int defines_name(const vkat_space *s, const char *name)
{
    for (size_t i = 0; i < s->define_count; i++)
        if (s->defines[i].value && names_identifier(s->defines[i].value, strlen(s->defines[i].value), name))
            return 1;
    return 0;
}

vkat_result vkat_compiled_problem(const vkat_space *s, uint64_t *mask, vkat_error *err)
{
    *mask = 0;
    vkat_source_set *sets = NULL;
    size_t count = 0;
    vkat_result r = load_shaders(s, &sets, &count, err);
    int axis_named[3];
    for (int a = 0; a < 3; a++)
        axis_named[a] = r == VKAT_OK && any_set_names(sets, count, local_size_names[a]);
    for (size_t i = 0; r == VKAT_OK && i < s->problem_count && i < 64; i++) {
        const vkat_problem_var *v = &s->problem[i];
        int in = v->binding == VKAT_SIZE_DEFINE && (any_set_names(sets, count, v->name) || defines_name(s, v->name));
        for (int a = 0; a < 3 && !in; a++)
            in = axis_named[a] && v->slot >= 0 && local_size_reads(s, a, v->slot);
        if (in)
            *mask |= 1ull << i;
    }
    for (size_t i = 0; i < count; i++)
        vkat_source_set_free(&sets[i]);
    free(sets);
    return r;
}
