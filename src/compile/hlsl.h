/* hlsl.h — internal: telling an HLSL compute shader from GLSL, and its entry point (hlsl.c).
 *
 * glslang compiles HLSL as well (its HLSL front end, as glslangValidator -D does); a template, a reference or a
 * shader given to init may be either. HLSL has no #version, its entry point is a function of any name marked
 * [numthreads(X, Y, Z)], and its registers (t, u, b, s) are numbered per class. Text only: it never compiles. */
#ifndef VKAT_HLSL_H
#define VKAT_HLSL_H

#include "vkautotune.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Is the shader HLSL: a path ending in .hlsl (any case), or a text with a [numthreads(...)] attribute outside
 * comments (GLSL has no such syntax)? path and text may be NULL. */
bool vkat_is_hlsl(const char *path, const char *text);

/* The name of the function the index-th [numthreads(...)] attribute marks (`[numthreads(8, 8, 1)] void CSMain(...)`:
 * "CSMain"; a file may hold several kernels) into name; false (name "") where there is none. */
bool vkat_hlsl_entry(const char *text, unsigned index, char *name, size_t size);

/* *out is text with each register of classes b, t and s (`register(t3)`, `register(b0, space1)`) renumbered to its
 * class's Vulkan binding (compile.h's VKAT_HLSL_*: t3 becomes t203), u registers kept, on the same lines; glslang
 * takes a register's number as the binding whatever its class, so t0 and u0 would share one. NULL where none is
 * renumbered. VKAT_ERR_NOMEM only. */
vkat_result vkat_hlsl_registers_apart(const char *text, char **out);

/* *out is text with each Effects-framework block (`technique11 T0 { pass P0 { SetComputeShader(...); } }` of a
 * Direct3D .fx file; technique, technique10 too) blanked, line breaks kept: the framework's, not HLSL's, syntax.
 * NULL where there is none. VKAT_ERR_NOMEM only. */
vkat_result vkat_hlsl_blank_techniques(const char *text, char **out);

/* *out is text as glslang compiles it: its technique blocks blanked and its register classes apart (the two
 * above); NULL where it needs neither. VKAT_ERR_NOMEM only. */
vkat_result vkat_hlsl_prepare(const char *text, char **out);

/* Moves the constant buffer of an HLSL module's globals outside any cbuffer (glslang's `$Global`, which it binds at
 * 0 whatever u0 holds) to binding VKAT_HLSL_GLOBALS_BINDING, in the module's words in place. */
void vkat_hlsl_rebind_globals(uint32_t *words, size_t count);

/* Where the first [numthreads(...)] attribute outside comments starts (its '['), and its '(' and ')' in *open and
 * *close; NULL where there is none. */
const char *vkat_hlsl_numthreads(const char *text, const char **open, const char **close);

#endif
