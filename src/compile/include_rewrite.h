/* include_rewrite.h — internal: a variant's values in the files the template includes, not in the template.
 *
 * Shader projects often keep their sizes in a header of their own (`#include "config.glsl"` with `#define TILE 16`
 * or `layout(local_size_x = 64) in;`). The template's text cannot carry the variant's value then; the included
 * file's can: for each variant the compiler is handed that file's text with the line rewritten (vkat_compile_opts
 * include_texts), and the compile cache keys on it. What the template itself declares is rewritten by template.c as
 * before and wins: an included file is rewritten only for what the template does not declare. */
#ifndef VKAT_INCLUDE_REWRITE_H
#define VKAT_INCLUDE_REWRITE_H

#include "compile.h"
#include "includes.h"
#include "space.h"

/* The first file after the template in `set` (the order includes.h lists them) that #defines `name` itself, or -1;
 * files[0], the template, is not searched. */
long vkat_include_defining(const vkat_source_set *set, const char *name);

/* The first file of `set`, the template (0) included, that declares a workgroup size by value (`layout(local_size_x =
 * 64) in;`), or -1. */
long vkat_include_sizing(const vkat_source_set *set);

/* One variant's included texts: for each replace_defines parameter the template does not #define but an included
 * file does, that file with the line carrying env's value; with replace_local_size and a template that declares
 * no size by value, the first included file that does, declaring local_size. *texts (count *count, both 0 when
 * none) holds each such file's path and text. VKAT_ERR_NOMEM or VKAT_ERR_TEMPLATE (a value that is not a finite
 * number). Free with vkat_include_texts_free. */
vkat_result vkat_include_rewrite(const vkat_space *s, const vkat_source_set *set, const vkat_value *env,
                                 const uint32_t local_size[3], vkat_include_text **texts, size_t *count,
                                 vkat_error *err);
void vkat_include_texts_free(vkat_include_text *texts, size_t count);

#endif
