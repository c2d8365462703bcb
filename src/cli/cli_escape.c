/* cli_escape.c — names that come from a database or a device (device, driver, kernel, problem, configuration) are
 * data, not terminal input: a name holding ESC sequences could recolour, move the cursor or retitle the terminal,
 * and a newline would forge table rows. They are shown escaped, C-style. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one (overlong, surrogate, cut short). */
static size_t utf8_length(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    size_t n = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 && p[0] < 0xE0 ? 2 : 0;
    if (n == 0 || (n == 4 && p[0] > 0xF4))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((n == 3 && p[0] == 0xE0 && p[1] < 0xA0) || (n == 3 && p[0] == 0xED && p[1] >= 0xA0) ||
        (n == 4 && p[0] == 0xF0 && p[1] < 0x90) || (n == 4 && p[0] == 0xF4 && p[1] >= 0x90))
        return 0;
    return n;
}

const char *vkat_cli_printable(const char *in, char *out, size_t size)
{
    size_t used = 0;
    const unsigned char *p = (const unsigned char *)(in ? in : "");
    if (size == 0)
        return out;
    while (*p) {
        char piece[8];
        size_t n = utf8_length(p), len;
        /* C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F) act like ESC sequences on some terminals. */
        int c1 = n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
        if (n == 1 && *p >= 0x20 && *p != 0x7F) {
            piece[0] = (char)*p;
            len = 1;
        } else if (n > 1 && !c1) {
            memcpy(piece, p, n);
            len = n;
        } else {
            const char *named = *p == '\n'   ? "\\n"
                                : *p == '\r' ? "\\r"
                                : *p == '\t' ? "\\t"
                                : *p == 0x1B ? "\\e"
                                             : NULL;
            len = named ? (size_t)snprintf(piece, sizeof piece, "%s", named)
                        : (size_t)snprintf(piece, sizeof piece, "\\x%02X", *p);
            n = 1;
        }
        if (used + len >= size)
            break;
        memcpy(out + used, piece, len);
        used += len;
        p += n;
    }
    out[used] = 0;
    return out;
}
