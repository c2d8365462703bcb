/* includes.h — internal: #include as glslc does it, and the set of files a shader is made of.
 *
 * A quoted or angled #include is looked up in the including file's directory, then in the space's include
 * directories in order. The set of files (the template and everything it can include) decides whether a stored
 * result still holds: its hash is the template hash in the results database and seeds the compile-cache key. */
#ifndef VKAT_INCLUDES_H
#define VKAT_INCLUDES_H

#include "vkautotune.h"

#include <stddef.h>
#include <stdint.h>

/* The resolved path of `name` included from `includer` (a file path; its directory is searched first), or NULL
 * when no candidate exists. malloc'ed. */
char *vkat_include_resolve(const char *includer, const char *name, const char *const *dirs, size_t dir_count);

/* A shader and every file its #include lines can reach (each once; lines inside #if branches count too, so the set
 * may hold more than one variant compiles). files[0] is the root. An include that cannot be found is not an error
 * here: the compiler reports it at its line when a variant actually reaches it. */
typedef struct vkat_source_file {
    char *path; /* as opened */
    char *name; /* as the #include wrote it ("types.glsl"); the root's path for files[0] */
    char *text;
    size_t size;
} vkat_source_file;

typedef struct vkat_source_set {
    vkat_source_file *files;
    size_t count;
} vkat_source_set;

/* VKAT_ERR_IO when the root cannot be read (err names it). */
vkat_result vkat_source_set_load(const char *root, const char *const *dirs, size_t dir_count, vkat_source_set *out,
                                 vkat_error *err);
void vkat_source_set_free(vkat_source_set *set); /* NULL-safe; zeroes */

/* XXH3-64 of the root's bytes when it includes nothing (the hash results were stored under before includes
 * counted); else of the root and, per included file, its name as written and its bytes. */
uint64_t vkat_source_set_hash(const vkat_source_set *set);

/* VKAT_ERR_TEMPLATE at `path` when `size` bytes read as a shader cannot be GLSL source: a SPIR-V binary (included;
 * as the root of a source set, a compiled module is the template: spirv_input.h), a NUL byte (another binary
 * file), or nothing but white space. glslang says only "Missing entry point" for each. VKAT_OK otherwise. */
vkat_result vkat_shader_text_check(const char *path, const char *text, size_t size, vkat_error *err);

#endif
