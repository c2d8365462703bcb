/* local_size_rewrite.c — `layout(local_size_x = 64) in;` rewritten to a variant's workgroup size (see the header).
 * A small scanner, not a parser: it finds `layout`, its parenthesised qualifiers and the `in ;` after them, outside
 * comments, and rebuilds only the qualifier list of declarations that give an axis by value. */
#include "local_size_rewrite.h"
#include "hlsl.h"
#include "source_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is [p, p+len) the identifier `word`? */
static int is_word(const char *p, size_t len, const char *word)
{
    return strlen(word) == len && strncmp(p, word, len) == 0;
}

/* The axis (0..2) a qualifier `name` sets by value, 3 + axis for local_size_*_id, -1 for anything else. */
static int axis_of(const char *name, size_t len)
{
    static const char *const by_value[3] = {"local_size_x", "local_size_y", "local_size_z"};
    static const char *const by_id[3] = {"local_size_x_id", "local_size_y_id", "local_size_z_id"};
    for (int a = 0; a < 3; a++) {
        if (is_word(name, len, by_value[a]))
            return a;
        if (is_word(name, len, by_id[a]))
            return 3 + a;
    }
    return -1;
}

/* The qualifiers between `open` (after '(') and `close` (at ')'), rebuilt into buf with the axes given by value set
 * to size[]; 0 when none is given by value (the declaration is left alone). */
static int rebuild(const char *open, const char *close, const uint32_t size[3], char *buf, size_t cap)
{
    int by_value = 0, by_id[3] = {0};
    size_t len = 0;
    buf[0] = 0;
    for (const char *q = open; q < close;) {
        const char *start = vkat_skip_blank(q), *end = start;
        int depth = 0;
        while (end < close && (depth || *end != ',')) {
            depth += *end == '(' ? 1 : *end == ')' ? -1 : 0;
            end++;
        }
        const char *name_end = start;
        while (name_end < end && vkat_ident_char(*name_end))
            name_end++;
        int axis = axis_of(start, (size_t)(name_end - start));
        if (axis >= 3)
            by_id[axis - 3] = 1;
        if (axis >= 0 && axis < 3)
            by_value = 1;
        else if (end > start && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%s%.*s", len ? ", " : "", (int)(end - start), start);
        q = end < close ? end + 1 : close;
    }
    static const char axes[] = "xyz";
    for (int a = 0; a < 3 && by_value; a++)
        if (!by_id[a] && len < cap)
            len += (size_t)snprintf(buf + len, cap - len, "%slocal_size_%c = %u", len ? ", " : "", axes[a], size[a]);
    return by_value && len < cap;
}

/* The declaration at p (`layout` there): 1 with its ')' in *close when it is a `layout(...) in;`, else 0. */
static int layout_in(const char *p, const char **close)
{
    const char *q = vkat_skip_blank(p + 6);
    if (*q != '(')
        return 0;
    int depth = 0;
    for (; *q; q++) {
        depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
        if (depth == 0)
            break;
    }
    if (*q != ')')
        return 0;
    *close = q;
    q = vkat_skip_blank(q + 1);
    if (!(q[0] == 'i' && q[1] == 'n' && !vkat_ident_char(q[2])))
        return 0;
    return *vkat_skip_blank(q + 2) == ';';
}

/* HLSL's `[numthreads(X, Y, Z)]` with size[] for its arguments, the lines each spanned kept: every kernel's of the
 * file, since which one is compiled is the space's entry; *count how many. */
static vkat_result numthreads_rewrite(const char *source, const uint32_t size[3], char **out, int *count)
{
    const char *open, *close, *copied = source;
    size_t cap = strlen(source) + 1, len = 0;
    char *buf = NULL;
    while (vkat_hlsl_numthreads(copied, &open, &close)) {
        int newlines = 0;
        for (const char *q = open; q < close; q++)
            newlines += *q == '\n';
        char *grown = realloc(buf, cap += 48 + (size_t)newlines);
        if (!grown) {
            free(buf);
            return VKAT_ERR_NOMEM;
        }
        buf = grown;
        memcpy(buf + len, copied, (size_t)(open + 1 - copied));
        len += (size_t)(open + 1 - copied);
        len += (size_t)snprintf(buf + len, cap - len, "%u, %u, %u", size[0], size[1], size[2]);
        for (int i = 0; i < newlines; i++)
            buf[len++] = '\n';
        copied = close;
        (*count)++;
    }
    if (buf)
        memcpy(buf + len, copied, strlen(copied) + 1);
    *out = buf;
    return VKAT_OK;
}

vkat_result vkat_local_size_rewrite(const char *source, const uint32_t size[3], char **out, int *count)
{
    *out = NULL;
    *count = 0;
    if (vkat_is_hlsl(NULL, source))
        return numthreads_rewrite(source, size, out, count);
    size_t cap = strlen(source) + 1, len = 0;
    char *buf = NULL;
    const char *copied = source; /* source up to here is in buf */
    for (const char *p = source; *p;) {
        if ((p[0] == '/' && (p[1] == '/' || p[1] == '*'))) {
            p = vkat_skip_blank(p);
            continue;
        }
        const char *close;
        char quals[512];
        if (!(strncmp(p, "layout", 6) == 0 && (p == source || !vkat_ident_char(p[-1])) && !vkat_ident_char(p[6]) &&
              layout_in(p, &close) && rebuild(strchr(p, '(') + 1, close, size, quals, sizeof quals))) {
            p++;
            continue;
        }
        const char *open = strchr(p, '(') + 1; /* `layout (` as written, line breaks included */
        int newlines = 0;
        for (const char *q = open; q < close; q++)
            newlines += *q == '\n';
        cap += strlen(quals) + 16 + (size_t)newlines;
        char *grown = realloc(buf, cap);
        if (!grown) {
            free(buf);
            return VKAT_ERR_NOMEM;
        }
        buf = grown;
        memcpy(buf + len, copied, (size_t)(open - copied));
        len += (size_t)(open - copied);
        len += (size_t)snprintf(buf + len, cap - len, "%s", quals);
        for (int i = 0; i < newlines; i++) /* the lines the declaration spanned: later lines keep their numbers */
            buf[len++] = '\n';
        buf[len++] = ')';
        copied = p = close + 1;
        (*count)++;
    }
    if (!*count)
        return VKAT_OK;
    size_t rest = strlen(copied);
    char *grown = realloc(buf, len + rest + 1);
    if (!grown) {
        free(buf);
        return VKAT_ERR_NOMEM;
    }
    memcpy(grown + len, copied, rest + 1);
    *out = grown;
    return VKAT_OK;
}

/* The identifier an axis's value is in the qualifiers [open, close) (`local_size_x = TILE`), into names[axis]. */
static void qualifier_names(const char *open, const char *close, char names[3][64])
{
    for (const char *q = open; q < close;) {
        const char *start = vkat_skip_blank(q), *end = start;
        while (end < close && *end != ',')
            end++;
        const char *name_end = start;
        while (name_end < end && vkat_ident_char(*name_end))
            name_end++;
        int axis = axis_of(start, (size_t)(name_end - start));
        const char *v = vkat_skip_blank(name_end);
        if (axis >= 0 && axis < 3 && *v == '=') {
            const char *id = vkat_skip_blank(v + 1), *id_end = id;
            while (id_end < end && vkat_ident_char(*id_end))
                id_end++;
            const char *after = vkat_skip_blank(id_end);
            if (id_end > id && !isdigit((unsigned char)*id) && (after >= end || *after == ',' || after >= close) &&
                (size_t)(id_end - id) < 64)
                snprintf(names[axis], 64, "%.*s", (int)(id_end - id), id);
        }
        q = end < close ? end + 1 : close;
    }
}

void vkat_local_size_names(const char *source, char names[3][64])
{
    memset(names, 0, 3 * 64);
    const char *arg, *args_end;
    if (vkat_hlsl_numthreads(source, &arg, &args_end)) { /* HLSL: [numthreads(TILE, 1, 1)] */
        for (int axis = 0; axis < 3 && arg && arg < args_end; axis++) {
            const char *id = vkat_skip_blank(arg + 1), *id_end = id;
            while (id_end < args_end && vkat_ident_char(*id_end))
                id_end++;
            const char *after = vkat_skip_blank(id_end);
            if (id_end > id && !isdigit((unsigned char)*id) && (*after == ',' || after >= args_end) &&
                (size_t)(id_end - id) < 64)
                snprintf(names[axis], 64, "%.*s", (int)(id_end - id), id);
            arg = strchr(arg + 1, ',');
        }
        return;
    }
    for (const char *p = source; *p;) {
        if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = vkat_skip_blank(p);
            continue;
        }
        const char *close;
        if (strncmp(p, "layout", 6) == 0 && (p == source || !vkat_ident_char(p[-1])) && !vkat_ident_char(p[6]) &&
            layout_in(p, &close))
            qualifier_names(strchr(p, '(') + 1, close, names);
        p++;
    }
}
