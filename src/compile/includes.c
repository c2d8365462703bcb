/* includes.c — finds the files a shader includes, the way glslc resolves them, and hashes them together.
 *
 * It reads #include lines textually (no macro expansion): an include written through a macro is not followed, and
 * includes inside inactive #if branches are followed too. Both only change which files count for a result's
 * identity; what the compiler includes is decided by glslang through the same resolver (compile.c). */
#include "includes.h"
#include "spirv_input.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define MAX_INCLUDE_FILES 512

static char *join(const char *dir, size_t dir_len, const char *name)
{
    size_t n = dir_len + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s%s%s", (int)dir_len, dir, dir_len ? "/" : "", name);
    return p;
}

char *vkat_include_resolve(const char *includer, const char *name, const char *const *dirs, size_t dir_count)
{
    if (name[0] == '/')
        return access(name, R_OK) == 0 ? vkat_strdup(name) : NULL;
    const char *slash = includer ? strrchr(includer, '/') : NULL;
    char *p = join(includer ? includer : "", slash ? (size_t)(slash - includer) : 0, name);
    if (p && access(p, R_OK) == 0)
        return p;
    free(p);
    for (size_t i = 0; i < dir_count; i++) {
        p = join(dirs[i], strlen(dirs[i]), name);
        if (p && access(p, R_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

/* The header name of an `#include "x"` or `#include <x>` line at p (to end), or 0. */
static size_t include_name(const char *p, const char *end, const char **name)
{
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || *p++ != '#')
        return 0;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p < 7 || strncmp(p, "include", 7) != 0)
        return 0;
    p += 7;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p == end || (*p != '"' && *p != '<'))
        return 0;
    char close = *p == '"' ? '"' : '>';
    const char *q = memchr(p + 1, close, (size_t)(end - p - 1));
    if (!q || q == p + 1)
        return 0;
    *name = p + 1;
    return (size_t)(q - p - 1);
}

vkat_result vkat_shader_text_check(const char *path, const char *text, size_t size, vkat_error *err)
{
    if (vkat_is_spirv(text, size))
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "this is a SPIR-V binary where GLSL text is included (a "
                         "compiled module can be the template itself, not an #include)");
    const char *nul = memchr(text, 0, size);
    if (nul)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "not GLSL text: a NUL byte at offset %zu",
                         (size_t)(nul - text));
    size_t i = 0;
    while (i < size && strchr(" \t\r\n\f\v", text[i]))
        i++;
    if (i == size)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "the shader file is empty");
    return VKAT_OK;
}

static int add_file(vkat_source_set *set, char *path, char *name, vkat_error *err)
{
    for (size_t i = 0; i < set->count; i++)
        if (strcmp(set->files[i].path, path) == 0) {
            free(path);
            free(name);
            return 0; /* already there: include guards make repeats harmless */
        }
    if (set->count == MAX_INCLUDE_FILES) {
        vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "more than %d files included", MAX_INCLUDE_FILES);
        free(path);
        free(name);
        return -1;
    }
    size_t size = 0;
    char *text = vkat_read_file(path, &size);
    int read_errno = errno;
    vkat_source_file *f = realloc(set->files, (set->count + 1) * sizeof *f);
    if (!text || !f || !name) {
        if (f)
            set->files = f;
        if (text || !f || !name)
            vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        else
            vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot read the shader: %s", strerror(read_errno));
        free(text);
        free(path);
        free(name);
        return -1;
    }
    set->files = f;
    int module = set->count == 0 && vkat_is_spirv(text, size); /* the template compiled already (spirv_input.h) */
    if (!module && vkat_shader_text_check(path, text, size, err) != VKAT_OK) {
        free(text);
        free(path);
        free(name);
        return -1;
    }
    set->files[set->count++] = (vkat_source_file){path, name, text, size};
    return 1;
}

vkat_result vkat_source_set_load(const char *root, const char *const *dirs, size_t dir_count, vkat_source_set *out,
                                 vkat_error *err)
{
    memset(out, 0, sizeof *out);
    char *path = vkat_strdup(root), *name = vkat_strdup(root);
    if (!path || !name) {
        free(path);
        free(name);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    if (add_file(out, path, name, err) < 0) {
        vkat_source_set_free(out);
        return err ? err->code : VKAT_ERR_IO;
    }
    /* Breadth first: files[i] is scanned once, appending what it includes. */
    /* A compiled module (the root only) includes nothing. */
    for (size_t i = vkat_is_spirv(out->files[0].text, out->files[0].size); i < out->count; i++) {
        const char *p = out->files[i].text, *end = p + out->files[i].size;
        while (p < end) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *line_end = nl ? nl : end;
            const char *hname;
            size_t n = include_name(p, line_end, &hname);
            if (n) {
                char *written = vkat_strndup(hname, n);
                char *resolved = written ? vkat_include_resolve(out->files[i].path, written, dirs, dir_count) : NULL;
                if (!resolved) {
                    free(written); /* the compiler reports it, if a variant reaches it */
                } else if (add_file(out, resolved, written, err) < 0) {
                    vkat_source_set_free(out);
                    return err ? err->code : VKAT_ERR_NOMEM;
                }
            }
            p = nl ? nl + 1 : end;
        }
    }
    return VKAT_OK;
}

void vkat_source_set_free(vkat_source_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->count; i++) {
        free(set->files[i].path);
        free(set->files[i].name);
        free(set->files[i].text);
    }
    free(set->files);
    set->files = NULL;
    set->count = 0;
}

uint64_t vkat_source_set_hash(const vkat_source_set *set)
{
    if (set->count == 0)
        return 0;
    if (set->count == 1)
        return XXH3_64bits(set->files[0].text, set->files[0].size);
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, set->files[0].text, set->files[0].size);
    for (size_t i = 1; i < set->count; i++) {
        XXH3_64bits_update(&st, "\0#include ", 10);
        XXH3_64bits_update(&st, set->files[i].name, strlen(set->files[i].name) + 1);
        XXH3_64bits_update(&st, set->files[i].text, set->files[i].size);
    }
    return XXH3_64bits_digest(&st);
}
