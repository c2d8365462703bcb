/* source_scan.h — internal: the two steps the shader-text scanners share (local_size_rewrite.c, hlsl.c): an
 * identifier's characters, and skipping white space and comments. Text only. */
#ifndef VKAT_SOURCE_SCAN_H
#define VKAT_SOURCE_SCAN_H

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

static inline bool vkat_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Past white space and comments (line and block comments) from p. */
static inline const char *vkat_skip_blank(const char *p)
{
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else {
            return p;
        }
    }
}

#endif
