/* template.c — turns a GLSL template into one variant's source by inserting #define lines after #version.
 *
 * A `#line` directive follows the defines so that glslang numbers the rest of the source as the template does
 * (GLSL >= 3.30 and ESSL >= 3.00 give `#line N` C's meaning: the next line is N). This file only edits text; it
 * must not compile, and must not know what the defines mean. */
#include "template.h"
#include "define_rewrite.h"
#include "include_rewrite.h"
#include "hlsl.h"
#include "local_size_rewrite.h"
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
    if (!version_line && !vkat_is_hlsl(path, source))
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 1, "template has no #version line");
    if (!version_line) /* HLSL has none: the defines go first */
        after = source;

    size_t head = (size_t)(after - source), tail = strlen(after);
    size_t cap = head + tail + 64;
    for (size_t i = 0; i < count; i++)
        cap += strlen(defines[i].name) + (defines[i].text ? strlen(defines[i].text) : 0) + 48;
    char *buf = malloc(cap);
    if (!buf)
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
    memcpy(buf, source, head);
    size_t len = head;
    if (head && buf[head - 1] != '\n')
        buf[len++] = '\n'; /* "#version 450" as the last line without a newline */
    for (size_t i = 0; i < count; i++) {
        char value[40];
        if (defines[i].text) {
            len += (size_t)snprintf(buf + len, cap - len, "#define %s %s\n", defines[i].name, defines[i].text);
            continue;
        }
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

int vkat_template_has_version(const char *source)
{
    for (const char *p = source; *p;) {
        const char *nl = strchr(p, '\n');
        if (is_version_line(p, nl ? nl : p + strlen(p)))
            return 1;
        if (!nl)
            break;
        p = nl + 1;
    }
    return 0;
}

vkat_result vkat_template_add_version(const char *source, int version, char **out)
{
    size_t cap = strlen(source) + 32;
    if (!(*out = malloc(cap)))
        return VKAT_ERR_NOMEM;
    snprintf(*out, cap, "#version %d\n#line 1\n%s", version, source);
    return VKAT_OK;
}

/* The line p..end without its surrounding blanks equals `word`? */
static bool line_is(const char *p, const char *end, const char *word)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    return (size_t)(end - p) == strlen(word) && strncmp(p, word, (size_t)(end - p)) == 0;
}

/* ---- stage tags: other engines' multi-stage files ------------------------------------------------------------ */

typedef enum { TAG_NONE, TAG_STAGE, TAG_VERSIONS } tag_kind;

/* p past blanks, then past `word` when it is next and ends there (a blank, '(' or the line's end follows)? */
static bool skip_word(const char **p, const char *end, const char *word)
{
    const char *q = *p;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    size_t n = strlen(word);
    if ((size_t)(end - q) < n || strncmp(q, word, n) != 0 || (q + n < end && (isalnum((unsigned char)q[n]) ||
                                                                              q[n] == '_')))
        return false;
    *p = q + n;
    return true;
}

/* Is the line p..end a stage tag, and of which stage (its name into stage, at most size - 1 characters)? The
 * engines' own loaders cut a file at these lines and compile each stage apart; glslang knows none of them before
 * #version (`#shader` and `#type` not at all): `#shader NAME` (TheCherno-style engines), `#type NAME` (Hazel),
 * `#pragma stage NAME`, `#pragma shader_stage(NAME)` (shaderc's, which glslc reads), Saiga's `##GL_NAME_SHADER`, and
 * Godot's `#[NAME]` with its `#[versions]` section (a list of define sets, not a stage). A trailing `//` comment is
 * allowed. */
static tag_kind stage_tag(const char *p, const char *end, char *stage, size_t size, bool *bracket)
{
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
        end--;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    *bracket = false;
    if (end - p > 12 && !strncmp(p, "##GL_", 5) && !strncmp(end - 7, "_SHADER", 7)) { /* ##GL_COMPUTE_SHADER */
        size_t n = (size_t)(end - 7 - (p + 5));
        snprintf(stage, size, "%.*s", (int)(n < size ? n : size - 1), p + 5);
        return TAG_STAGE;
    }
    *bracket = end - p >= 2 && p[0] == '#' && p[1] == '[';
    if (*bracket)
        p += 2;
    else if (p == end || *p++ != '#' ||
             (!skip_word(&p, end, "shader") && !skip_word(&p, end, "type") &&
              !(skip_word(&p, end, "pragma") && (skip_word(&p, end, "stage") || skip_word(&p, end, "shader_stage")))))
        return TAG_NONE;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '('))
        p++;
    size_t n = 0;
    for (; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
        if (n < size - 1)
            stage[n++] = *p;
    stage[n] = 0;
    while (p < end && (*p == ' ' || *p == '\t' || *p == ')' || (*bracket && *p == ']')))
        p++;
    if (!n || (p < end && !(end - p >= 2 && p[0] == '/' && p[1] == '/')))
        return TAG_NONE;
    return *bracket && !strcmp(stage, "versions") ? TAG_VERSIONS : TAG_STAGE;
}

/* "compute" in any case ("Compute" in some engines' tags). */
static bool is_compute(const char *stage)
{
    static const char word[] = "compute";
    for (size_t i = 0; i < sizeof word; i++)
        if (tolower((unsigned char)stage[i]) != word[i])
            return false;
    return true;
}

/* Blanks the line p..end of the copy *out of source (made at the first line blanked): the same lines stay, so
 * messages keep their numbers. */
static vkat_result blank_line(const char *source, const char *p, const char *end, char **out)
{
    if (!*out && !(*out = vkat_strdup(source)))
        return VKAT_ERR_NOMEM;
    memset(*out + (p - source), ' ', (size_t)(end - p));
    return VKAT_OK;
}

static vkat_result no_compute(const char *path, int first_line, const char *first, const char *stages,
                              vkat_error *err)
{
    return vkat_fail(err, VKAT_ERR_TEMPLATE, path ? path : "shader", first_line,
                     "the file's stage tags (the first here, '%s') mark no compute stage (it has %s): vkautotune "
                     "tunes a compute shader; tag its section `#shader compute` or give it a file of its own",
                     first, stages[0] ? stages : "a #[versions] section only");
}

vkat_result vkat_template_compute_section(const char *source, const char *path, char **out, vkat_error *err)
{
    *out = NULL;
    /* Lines before the first tag are shared (a #version that `#pragma shader_stage(compute)` follows, comments);
     * tags, and every section but the compute stage's, are blanked. In the compute section, Godot's importer puts
     * a version's defines where `#VERSION_DEFINES` stands: blanked too (a version's macros are [defines]). */
    enum { SHARED, OTHER, VERSIONS, COMPUTE } in = SHARED;
    bool godot = false;
    int line = 1, first_line = 0, compute_line = 0;
    char first[64] = "", stages[160] = "", stage[32];
    for (const char *p = source; *p; line++) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        bool bracket;
        tag_kind tag = stage_tag(p, end, stage, sizeof stage, &bracket);
        bool blank = tag != TAG_NONE || in == OTHER || in == VERSIONS;
        if (tag != TAG_NONE && !first_line) {
            first_line = line;
            const char *q = p + strspn(p, " \t"), *e = end;
            while (e > q && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                e--;
            snprintf(first, sizeof first, "%.*s", (int)(e - q), q);
        }
        godot |= tag != TAG_NONE && bracket;
        if (tag == TAG_VERSIONS) {
            in = VERSIONS;
        } else if (tag == TAG_STAGE && !is_compute(stage)) {
            in = OTHER;
            if (!strstr(stages, stage) && strlen(stages) + strlen(stage) + 3 < sizeof stages)
                snprintf(stages + strlen(stages), sizeof stages - strlen(stages), "%s%s", stages[0] ? ", " : "",
                         stage);
        } else if (tag == TAG_STAGE && compute_line && in != COMPUTE) {
            free(*out), *out = NULL; /* a tag again inside the section (a pragma after `#shader compute`) is not one */
            return vkat_fail(err, VKAT_ERR_TEMPLATE, path ? path : "shader", line, "a second compute section (the "
                             "first is tagged at line %d): the file may hold one compute stage", compute_line);
        } else if (tag == TAG_STAGE) {
            compute_line = compute_line ? compute_line : line;
            in = COMPUTE;
        } else if (in == COMPUTE && godot) {
            blank = line_is(p, end, "#VERSION_DEFINES");
        }
        if (blank && blank_line(source, p, end, out) != VKAT_OK)
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        if (!nl)
            break;
        p = nl + 1;
    }
    if (first_line && !compute_line) {
        free(*out), *out = NULL;
        return no_compute(path, first_line, first, stages, err);
    }
    return VKAT_OK;
}

vkat_result vkat_template_enable_includes(const char *source, char **out)
{
    *out = NULL;
    if (strstr(source, "GL_GOOGLE_include_directive"))
        return VKAT_OK;
    int line = 1, has_include = 0;
    const char *after = NULL;
    int version_line = 0;
    for (const char *p = source; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < end && *q == '#') {
            q++;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            has_include |= end - q >= 7 && strncmp(q, "include", 7) == 0;
        }
        if (!version_line && is_version_line(p, end)) {
            version_line = line;
            after = nl ? nl + 1 : end;
        }
        if (!nl)
            break;
        p = nl + 1;
        line++;
    }
    if (!has_include || !version_line)
        return VKAT_OK; /* without #version, glslang's own message says what is wrong */
    size_t head = (size_t)(after - source), cap = strlen(source) + 96;
    char *buf = malloc(cap);
    if (!buf)
        return VKAT_ERR_NOMEM;
    memcpy(buf, source, head);
    size_t len = head;
    if (head && buf[head - 1] != '\n')
        buf[len++] = '\n';
    len += (size_t)snprintf(buf + len, cap - len, "#extension GL_GOOGLE_include_directive : enable\n#line %d\n",
                            version_line + 1);
    memcpy(buf + len, after, strlen(after) + 1);
    *out = buf;
    return VKAT_OK;
}

/* Is `name` one of [kernel] replace_defines? Its values replace the template's own #define instead of coming first. */
static int replaced_define(const vkat_space *s, const char *name)
{
    for (size_t i = 0; i < s->replace_define_count; i++)
        if (!strcmp(s->replace_defines[i], name))
            return 1;
    return 0;
}

/* A text parameter's text for its value (an index into its texts), NULL for a number. */
static const char *param_text(const vkat_param *p, vkat_value v)
{
    return p->texts && !v.is_float && v.i >= 0 && (size_t)v.i < p->value_count ? p->texts[v.i] : NULL;
}

const char *vkat_template_param_value(const vkat_param *p, vkat_value v, char *buf, size_t size)
{
    const char *text = param_text(p, v);
    return text ? text : format_value(v, buf, size) ? buf : NULL;
}

/* *out is `source` with each replace_defines parameter's own `#define NAME ...` line carrying its value in env, a
 * number written as the #defines before the template write theirs (format_value). A name only an included file of
 * `includes` #defines is left to include_rewrite.c. */
static vkat_result rewrite_defines(const vkat_space *s, const char *source, const char *path,
                                   const vkat_source_set *includes, const vkat_value *env, char **out, vkat_error *err)
{
    char *text = NULL;
    for (size_t i = 0; i < s->param_count; i++) {
        const vkat_param *p = &s->params[i];
        if (p->kind != VKAT_PARAM_DEFINE || !replaced_define(s, p->name))
            continue;
        char number[40];
        const char *value = vkat_template_param_value(p, env[p->slot], number, sizeof number);
        if (!value) {
            free(text);
            return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "define %s is not a finite number", p->name);
        }
        char *next = NULL;
        int found = 0;
        if (vkat_define_rewrite(text ? text : source, p->name, value, &next, &found) != VKAT_OK) {
            free(text);
            return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
        }
        if (!found && includes && vkat_include_defining(includes, p->name) >= 0)
            continue;
        if (!found) {
            free(text);
            return vkat_fail(err, VKAT_ERR_TEMPLATE, s->path, s->replace_defines_line,
                             "replace_defines: %s has no `#define %s ...` line of its own (nor does a file it "
                             "includes) to replace", path, p->name);
        }
        free(text);
        text = next;
    }
    *out = text;
    return VKAT_OK;
}

vkat_result vkat_template_for_config(const vkat_space *s, const char *source, const char *path,
                                     const vkat_source_set *includes, const vkat_value *env,
                                     const vkat_launch *launch, int reference, char **out, vkat_error *err)
{
    size_t cap = s->problem_count + s->param_count + s->define_count + 3, n = 0;
    vkat_define *defs = malloc(cap * sizeof *defs);
    if (!defs)
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
    for (size_t i = 0; i < s->problem_count; i++)
        if (s->problem[i].binding == VKAT_SIZE_DEFINE)
            defs[n++] = (vkat_define){s->problem[i].name, env[s->problem[i].slot], NULL};
    for (size_t i = 0; !reference && i < s->param_count; i++) {
        const vkat_param *p = &s->params[i];
        if (p->kind != VKAT_PARAM_DEFINE || replaced_define(s, p->name))
            continue;
        vkat_value v = env[p->slot];
        defs[n++] = (vkat_define){p->name, v, param_text(p, v)};
    }
    for (size_t i = 0; i < s->define_count; i++)
        defs[n++] = (vkat_define){s->defines[i].name, vkat_int(0), s->defines[i].value};
    static const char *const ls[3] = {"VKAT_LOCAL_SIZE_X", "VKAT_LOCAL_SIZE_Y", "VKAT_LOCAL_SIZE_Z"};
    for (int a = 0; a < 3; a++)
        defs[n++] = (vkat_define){ls[a], vkat_int(launch->local_size[a]), NULL};
    /* the compute stage first: the defines go after its #version, not another stage's, and what follows edits
     * only its lines */
    char *section = NULL, *resized = NULL, *versioned = NULL;
    vkat_result r = vkat_template_compute_section(source, path, &section, err);
    if (r) {
        free(defs);
        return r;
    }
    source = section ? section : source;
    int rewritten = 0, has_version = vkat_template_has_version(source); /* a reference of its own keeps its size */
    int hlsl = vkat_is_hlsl(path, source);
    r = s->glsl_version && !has_version && !hlsl ? vkat_template_add_version(source, s->glsl_version, &versioned)
                                                 : VKAT_OK;
    if (!r && s->replace_local_size && !reference)
        r = vkat_local_size_rewrite(versioned ? versioned : source, launch->local_size, &resized, &rewritten);
    if (r)
        r = vkat_fail(err, r, path, 0, "out of memory");
    else if (s->glsl_version && hlsl)
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, s->path, s->glsl_version_line,
                      "glsl_version: %s is HLSL, which has no #version line; remove the key", path);
    else if (s->glsl_version && has_version)
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, s->path, s->glsl_version_line,
                      "glsl_version: %s has a #version line of its own; remove the key", path);
    else if (!has_version && !s->glsl_version && !hlsl)
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, path, 1, "template has no #version line (where the shader's build "
                      "adds one, as glslc's -std=450 or MNN's shader build do, give [kernel] glsl_version = 450)");
    else if (s->replace_local_size && !reference && !rewritten && !(includes && vkat_include_sizing(includes) > 0))
        r = vkat_fail(err, VKAT_ERR_TEMPLATE, s->path, s->replace_local_size_line,
                      "replace_local_size: %s declares no workgroup size by value (`layout(local_size_x = 64) in;`), "
                      "nor does a file it includes, to replace", path);
    char *redefined = NULL;
    if (r == VKAT_OK && !reference && s->replace_define_count)
        r = rewrite_defines(s, resized ? resized : versioned ? versioned : source, path, includes, env, &redefined,
                            err);
    if (r == VKAT_OK)
        r = vkat_template_instantiate(redefined ? redefined : resized ? resized : versioned ? versioned : source, path,
                                      defs, n, out, err);
    free(redefined);
    free(resized);
    free(versioned);
    free(section);
    free(defs);
    return r;
}
