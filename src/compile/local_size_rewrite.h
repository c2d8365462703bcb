/* local_size_rewrite.h — internal: a shader's workgroup size declared by value, rewritten to another value.
 *
 * Most shaders written without a tuner fix their workgroup size in the source (`layout(local_size_x = 64) in;`),
 * which neither a #define nor a specialization constant can change. A space with `replace_local_size = true` has
 * each variant's declaration rewritten to its [dispatch] local_size, so such a shader is tuned over its workgroup
 * size unmodified (docs/space-format.md, [kernel]). Text only: it never compiles. */
#ifndef VKAT_LOCAL_SIZE_REWRITE_H
#define VKAT_LOCAL_SIZE_REWRITE_H

#include "vkautotune.h"

#include <stdint.h>

/* *out is `source` with every `layout(...) in;` that sets an axis of the workgroup size by value (local_size_x = E,
 * E a literal or a macro) declaring size[0..2] instead; axes set by local_size_*_id and other qualifiers are kept.
 * An HLSL source (hlsl.h) has its [numthreads(X, Y, Z)] arguments set to size[0..2].
 * Comments are skipped, and the source keeps its line numbers (a declaration over several lines keeps its line
 * breaks). *count is how many declarations were rewritten; with none, *out is NULL. VKAT_ERR_NOMEM only. */
vkat_result vkat_local_size_rewrite(const char *source, const uint32_t size[3], char **out, int *count);

/* The macro each axis's size is declared by in `source`'s `layout(...) in;` (`local_size_x = TILE`: "TILE"), or
 * HLSL's [numthreads(TILE, 1, 1)], into names[axis]; "" where an axis is a literal, a _id, or not declared. */
void vkat_local_size_names(const char *source, char names[3][64]);

#endif
