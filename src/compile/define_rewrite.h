/* define_rewrite.h — internal: a shader's own `#define NAME value`, found and rewritten to another value.
 *
 * Shaders written without a tuner often size their workgroup with a macro they define themselves (`#define TILE 16`
 * then `layout(local_size_x = TILE, local_size_y = TILE) in;` and `shared float tile[TILE][TILE + 1];`). A space
 * #define of the same name would be a redefinition; `[kernel] replace_defines = TILE` has each variant's own line
 * rewritten to the parameter's value instead, so everything the macro sizes follows it (docs/space-format.md).
 * Text only: it never compiles. */
#ifndef VKAT_DEFINE_REWRITE_H
#define VKAT_DEFINE_REWRITE_H

#include "vkautotune.h"

/* The first `#define NAME ...` directive of `source` outside comments (a line that starts, after blanks, with `#`,
 * `define` and the name, not a function-like macro): 1 with its body's start and end (before a comment or the end of
 * the line) and its line number, else 0. */
int vkat_define_find(const char *source, const char *name, const char **body, const char **body_end, int *line);

/* *out is `source` with the body of its first `#define NAME` replaced by `value` (line numbers kept); *found 0 and
 * *out NULL when there is none. VKAT_ERR_NOMEM only. */
vkat_result vkat_define_rewrite(const char *source, const char *name, const char *value, char **out, int *found);

#endif
