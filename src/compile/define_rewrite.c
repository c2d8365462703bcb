/* define_rewrite.c — a shader's own `#define NAME value` found and rewritten (see the header). Line by line: a
 * directive starts its line, so only block comments that span lines need tracking. */
#include "define_rewrite.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static const char *skip_spaces(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Past a block comment's end from p (inside one), or NULL when it does not end on this line. */
static const char *comment_end(const char *p, const char *eol)
{
    for (; p + 1 < eol; p++)
        if (p[0] == '*' && p[1] == '/')
            return p + 2;
    return NULL;
}

/* Is the line [p, eol) `#define name ...` (not `#define name(`)? Sets the body's bounds. */
static int define_line(const char *p, const char *eol, const char *name, const char **body, const char **body_end)
{
    p = skip_spaces(p);
    if (*p != '#')
        return 0;
    p = skip_spaces(p + 1);
    size_t n = strlen(name);
    if (eol - p < 6 || strncmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
        return 0;
    p = skip_spaces(p + 6);
    if ((size_t)(eol - p) < n || strncmp(p, name, n) != 0 || (p + n < eol && (ident_char(p[n]) || p[n] == '(')))
        return 0;
    const char *b = skip_spaces(p + n), *e = b;
    while (e < eol && !(e[0] == '/' && e + 1 < eol && (e[1] == '/' || e[1] == '*')))
        e++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    *body = b;
    *body_end = e;
    return 1;
}

int vkat_define_find(const char *source, const char *name, const char **body, const char **body_end, int *line)
{
    int in_comment = 0, ln = 1;
    for (const char *p = source; *p; ln++) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *start = p;
        if (in_comment) {
            const char *after = comment_end(p, eol);
            in_comment = !after;
            start = after ? after : eol;
        }
        if (!in_comment && define_line(start, eol, name, body, body_end)) {
            *line = ln;
            return 1;
        }
        for (const char *q = start; !in_comment && q + 1 < eol; q++) { /* a block comment left open */
            if (q[0] == '/' && q[1] == '/')
                break;
            if (q[0] == '/' && q[1] == '*') {
                const char *after = comment_end(q + 2, eol);
                if (!after)
                    in_comment = 1;
                else
                    q = after - 1;
            }
        }
        p = *eol ? eol + 1 : eol;
    }
    return 0;
}

vkat_result vkat_define_rewrite(const char *source, const char *name, const char *value, char **out, int *found)
{
    const char *body, *body_end;
    int line;
    *out = NULL;
    *found = vkat_define_find(source, name, &body, &body_end, &line);
    if (!*found)
        return VKAT_OK;
    size_t head = (size_t)(body - source), vlen = strlen(value), rest = strlen(body_end);
    char *buf = malloc(head + vlen + rest + 2);
    if (!buf)
        return VKAT_ERR_NOMEM;
    memcpy(buf, source, head);
    size_t len = head;
    if (body == body_end && head && buf[head - 1] != ' ' && buf[head - 1] != '\t')
        buf[len++] = ' '; /* `#define NAME` with no body */
    memcpy(buf + len, value, vlen);
    memcpy(buf + len + vlen, body_end, rest + 1);
    *out = buf;
    return VKAT_OK;
}
