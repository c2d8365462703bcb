/* compiled_problem.h — internal: which problem sizes a variant's module holds as constants, found from the space
 * and the shader's text (no compile), for the manifest's compiled_problem and the C header's conditions.
 *
 * A size reaches the module's code only as text the template stage inserts: its #define (a size bound @define,
 * the default) and the VKAT_LOCAL_SIZE_X/Y/Z defines (the launch's local size, whose expressions may read any
 * size). @spec sizes are specialization constants and @push/@none sizes push constants or dispatch and
 * buffer-size inputs: the module is the same for every value of them. So size i is compiled in when
 *   - it is bound @define and its name is an identifier in the shader's files (the template, or for a sequence
 *     every pass's template, with everything each can include; outside comments) or in a [defines] value; or
 *   - a local-size expression (the [dispatch] one or a pass's) reads it, and the shader names that axis's
 *     VKAT_LOCAL_SIZE_ define.
 * This is what the module can depend on, whatever the value: a #define the shader never names changes nothing,
 * and one it names counts even where a particular doubling would happen to give the same words. */
#ifndef VKAT_COMPILED_PROBLEM_H
#define VKAT_COMPILED_PROBLEM_H

#include "space.h"

/* Bit i (i < 64) set: problem size i is compiled into the variant's module. VKAT_ERR_IO when a shader file
 * cannot be read. */
vkat_result vkat_compiled_problem(const vkat_space *s, uint64_t *mask, vkat_error *err);

#endif
