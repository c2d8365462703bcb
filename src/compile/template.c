/* template.c — turns a GLSL template into one variant's source by inserting #define lines after #version.
 *
 * A `#line` directive follows the defines so that glslang numbers the rest of the source as the template does
 * (GLSL >= 3.30 and ESSL >= 3.00 give `#line N` C's meaning: the next line is N). This file only edits text; it
 * must not compile, and must not know what the defines mean. */
#include "template.h"
#include "util.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Is this line a #version directive? ("#version", "# version", leading blanks allowed.) */
static bool is_version_line(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p != '#')
        return false;
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return end - p >= 7 && strncmp(p, "version", 7) == 0 && (end - p == 7 || !isalnum((unsigned char)p[7]));
}

/* A GLSL literal for the value: integers as written, doubles with 17 significant digits (round-trip) and always
 * with a '.' or exponent so GLSL reads a floating-point literal. */
static bool format_value(vkat_value v, char *buf, size_t size)
{
    if (!v.is_float) {
        snprintf(buf, size, "%lld", (long long)v.i);
        return true;
    }
    if (!isfinite(v.f))
        return false;
    snprintf(buf, size, "%.17g", v.f);
    if (!strpbrk(buf, ".e"))
        snprintf(buf + strlen(buf), size - strlen(buf), ".0");
    return true;
}

vkat_result vkat_template_instantiate(const char *source, const char *path, const vkat_define *defines, size_t count,
                                      char **out, vkat_error *err)
{
    *out = NULL;
    const char *p = source, *after = NULL;
    int line = 1, version_line = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        if (is_version_line(p, end)) {
            version_line = line;
            after = nl ? nl + 1 : end;
            break;
        }
        if (!nl)
            break;
        p = nl + 1;
        line++;
    }
    if (!version_line)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 1, "template has no #version line");

    size_t head = (size_t)(after - source), tail = strlen(after);
    size_t cap = head + tail + 64;
    for (size_t i = 0; i < count; i++)
        cap += strlen(defines[i].name) + 48;
    char *buf = malloc(cap);
    if (!buf)
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
    memcpy(buf, source, head);
    size_t len = head;
    if (head && buf[head - 1] != '\n')
        buf[len++] = '\n'; /* "#version 450" as the last line without a newline */
    for (size_t i = 0; i < count; i++) {
        char value[40];
        if (!format_value(defines[i].value, value, sizeof value)) {
            free(buf);
            return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "define %s is not a finite number", defines[i].name);
        }
        len += (size_t)snprintf(buf + len, cap - len, "#define %s %s\n", defines[i].name, value);
    }
    len += (size_t)snprintf(buf + len, cap - len, "#line %d\n", version_line + 1);
    memcpy(buf + len, after, tail + 1);
    *out = buf;
    return VKAT_OK;
}

vkat_result vkat_template_for_config(const vkat_space *s, const char *source, const char *path,
                                     const vkat_value *env, const vkat_launch *launch, int reference, char **out,
                                     vkat_error *err)
{
    size_t cap = s->problem_count + s->param_count + 3, n = 0;
    vkat_define *defs = malloc(cap * sizeof *defs);
    if (!defs)
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
    for (size_t i = 0; i < s->problem_count; i++)
        defs[n++] = (vkat_define){s->problem[i].name, env[s->problem[i].slot]};
    if (!reference)
        for (size_t i = 0; i < s->param_count; i++)
            if (s->params[i].kind == VKAT_PARAM_DEFINE)
                defs[n++] = (vkat_define){s->params[i].name, env[s->params[i].slot]};
    static const char *const ls[3] = {"VKAT_LOCAL_SIZE_X", "VKAT_LOCAL_SIZE_Y", "VKAT_LOCAL_SIZE_Z"};
    for (int a = 0; a < 3; a++)
        defs[n++] = (vkat_define){ls[a], vkat_int(launch->local_size[a])};
    vkat_result r = vkat_template_instantiate(source, path, defs, n, out, err);
    free(defs);
    return r;
}
