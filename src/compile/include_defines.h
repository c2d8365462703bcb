/* include_defines.h — internal: replace_defines for a macro that an included file #defines, not the template.
 *
 * Shader projects often keep their sizes in a header of their own (`#include "config.glsl"` with `#define TILE 16`).
 * The template's text cannot carry the variant's value then; the included file's can: for each variant the compiler
 * is handed that file's text with the line rewritten (vkat_compile_opts include_texts), and the compile cache keys on
 * it. The template's own #define, where it has one, is rewritten by template.c as before and wins. */
#ifndef VKAT_INCLUDE_DEFINES_H
#define VKAT_INCLUDE_DEFINES_H

#include "compile.h"
#include "includes.h"
#include "space.h"

/* The first file after the template in `set` (the order includes.h lists them) that #defines `name` itself, or -1;
 * files[0], the template, is not searched. */
long vkat_include_defining(const vkat_source_set *set, const char *name);

/* For the replace_defines parameters the template (files[0]) does not #define but an included file does: *texts
 * (count *count, both 0 when none) holds each such file's path and its text with those lines carrying env's values.
 * VKAT_ERR_NOMEM or VKAT_ERR_TEMPLATE (a value that is not a finite number). Free with vkat_include_texts_free. */
vkat_result vkat_include_defines(const vkat_space *s, const vkat_source_set *set, const vkat_value *env,
                                 vkat_include_text **texts, size_t *count, vkat_error *err);
void vkat_include_texts_free(vkat_include_text *texts, size_t count);

#endif
