/* hlsl.c — HLSL told from GLSL by its [numthreads] attribute, and the function it marks (hlsl.h). A small scanner,
 * like local_size_rewrite.c's: comments skipped, no parsing beyond the attribute and the declaration after it. */
#include "hlsl.h"
#include "compile.h"
#include "util.h"
#include "source_scan.h"

#include <spirv/unified1/spirv.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *vkat_hlsl_numthreads(const char *text, const char **open, const char **close)
{
    for (const char *p = text; p && *p;) {
        if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = vkat_skip_blank(p);
            continue;
        }
        if (*p != '[') {
            p++;
            continue;
        }
        const char *q = vkat_skip_blank(p + 1);
        if (strncmp(q, "numthreads", 10) || vkat_ident_char(q[10])) {
            p++;
            continue;
        }
        q = vkat_skip_blank(q + 10);
        const char *c = *q == '(' ? strchr(q, ')') : NULL;
        if (c && *vkat_skip_blank(c + 1) == ']') {
            *open = q;
            *close = c;
            return p;
        }
        p++;
    }
    return NULL;
}

bool vkat_is_hlsl(const char *path, const char *text)
{
    size_t n = path ? strlen(path) : 0;
    if (n > 5 && !strcasecmp(path + n - 5, ".hlsl"))
        return true;
    const char *open, *close;
    return text && vkat_hlsl_numthreads(text, &open, &close);
}

bool vkat_hlsl_entry(const char *text, unsigned index, char *name, size_t size)
{
    const char *open, *close = NULL;
    name[0] = 0;
    for (unsigned i = 0; i <= index; i++)
        if (!vkat_hlsl_numthreads(close ? close + 1 : text, &open, &close))
            return false;
    const char *p = vkat_skip_blank(vkat_skip_blank(close + 1) + 1); /* past ")]" */
    while (*p == '[') { /* other attributes before the declaration */
        const char *e = strchr(p, ']');
        if (!e)
            return false;
        p = vkat_skip_blank(e + 1);
    }
    const char *words[2] = {NULL, NULL}; /* the return type, then the name */
    size_t lens[2] = {0, 0};
    for (int w = 0; w < 2; w++) {
        const char *s = p;
        while (vkat_ident_char(*p))
            p++;
        words[w] = s;
        lens[w] = (size_t)(p - s);
        p = vkat_skip_blank(p);
    }
    if (!lens[0] || !lens[1] || *p != '(' || lens[1] >= size)
        return false;
    snprintf(name, size, "%.*s", (int)lens[1], words[1]);
    return true;
}

vkat_result vkat_hlsl_registers_apart(const char *text, char **out)
{
    *out = NULL;
    size_t cap = strlen(text) + 1, len = 0;
    const char *copied = text;
    for (const char *p = text; *p;) {
        if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = vkat_skip_blank(p);
            continue;
        }
        const char *q = p;
        if (strncmp(p, "register", 8) || (p > text && vkat_ident_char(p[-1])) || vkat_ident_char(p[8]) ||
            *(q = vkat_skip_blank(p + 8)) != '(') {
            p++;
            continue;
        }
        q = vkat_skip_blank(q + 1);
        int base = *q == 'b' ? VKAT_HLSL_B_BASE : *q == 't' ? VKAT_HLSL_T_BASE : *q == 's' ? VKAT_HLSL_S_BASE : 0;
        const char *digits = base ? q + 1 : q, *end = digits; /* q is not the text's end where base is set */
        while (isdigit((unsigned char)*end))
            end++;
        if (!base || end == digits || vkat_ident_char(*end)) {
            p = q;
            continue;
        }
        long n = strtol(digits, NULL, 10);
        char *grown = realloc(*out, cap += 16);
        if (!grown) {
            free(*out);
            *out = NULL;
            return VKAT_ERR_NOMEM;
        }
        *out = grown;
        memcpy(*out + len, copied, (size_t)(digits - copied));
        len += (size_t)(digits - copied);
        len += (size_t)snprintf(*out + len, cap - len, "%ld", (long)base + n);
        copied = p = end;
    }
    if (!*out)
        return VKAT_OK;
    size_t rest = strlen(copied);
    char *grown = realloc(*out, len + rest + 1);
    if (!grown) {
        free(*out);
        *out = NULL;
        return VKAT_ERR_NOMEM;
    }
    memcpy(grown + len, copied, rest + 1);
    *out = grown;
    return VKAT_OK;
}

/* Is the OpName at ins (len words) naming "$Global"? */
static bool names_globals(const uint32_t *ins, uint32_t len)
{
    return len >= 3 && !strncmp((const char *)(ins + 2), "$Global", (len - 2) * 4);
}

void vkat_hlsl_rebind_globals(uint32_t *words, size_t count)
{
    if (count < 5 || words[0] != SpvMagicNumber)
        return;
    /* A module's names come before its types, and a type before the variables of it (SPIR-V's logical layout): the
     * struct's name, its pointer type and the variable are found in one pass; its decorations, between the names
     * and the types, in a second. */
    uint32_t type = 0, pointer = 0, var = 0;
    for (size_t i = 5; i < count && !var;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        if (!len || i + len > count)
            return;
        if (op == SpvOpName && names_globals(words + i, len) && !type)
            type = words[i + 1];
        else if (op == SpvOpTypePointer && len >= 4 && words[i + 3] == type && type)
            pointer = words[i + 1];
        else if (op == SpvOpVariable && len >= 4 && words[i + 1] == pointer && pointer)
            var = words[i + 2];
        i += len;
    }
    for (size_t i = 5; var && i < count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        if (!len || i + len > count)
            return;
        if (op == SpvOpDecorate && len >= 4 && words[i + 1] == var && words[i + 2] == SpvDecorationBinding)
            words[i + 3] = VKAT_HLSL_GLOBALS_BINDING;
        i += len;
    }
}

/* Is p (an identifier's start) `technique`, `technique10` or `technique11`, followed by an optional name and `{`?
 * The '{' in *brace. */
static bool technique_at(const char *text, const char *p, const char **brace)
{
    if ((p > text && vkat_ident_char(p[-1])) || strncmp(p, "technique", 9))
        return false;
    const char *q = p + 9;
    if (!strncmp(q, "10", 2) || !strncmp(q, "11", 2))
        q += 2;
    if (vkat_ident_char(*q))
        return false;
    q = vkat_skip_blank(q);
    while (vkat_ident_char(*q))
        q++;
    q = vkat_skip_blank(q);
    *brace = q;
    return *q == '{';
}

vkat_result vkat_hlsl_blank_techniques(const char *text, char **out)
{
    *out = NULL;
    for (const char *p = text; *p;) {
        const char *brace;
        if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
            p = vkat_skip_blank(p);
            continue;
        }
        if (!technique_at(text, p, &brace)) {
            p++;
            continue;
        }
        const char *end = brace;
        for (int depth = 0; *end; end++) {
            depth += *end == '{' ? 1 : *end == '}' ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (!*end)
            return VKAT_OK; /* unbalanced: left for glslang to report */
        if (!*out && !(*out = vkat_strdup(text)))
            return VKAT_ERR_NOMEM;
        for (char *c = *out + (p - text); c <= *out + (end - text); c++)
            if (*c != '\n')
                *c = ' ';
        p = end + 1;
    }
    return VKAT_OK;
}

vkat_result vkat_hlsl_prepare(const char *text, char **out)
{
    char *blanked = NULL;
    vkat_result r = vkat_hlsl_blank_techniques(text, &blanked);
    if (r == VKAT_OK)
        r = vkat_hlsl_registers_apart(blanked ? blanked : text, out);
    if (r == VKAT_OK && !*out)
        *out = blanked, blanked = NULL;
    free(blanked);
    return r;
}
