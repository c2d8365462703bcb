/* spirv_strip.h — internal: a module without its debug instructions (names, source text, line information), for
 * measuring whether the driver creates pipelines faster from it (issue #22; VKAT_PIPELINE_STRIP_DEBUG in tune.c).
 * What the kernel computes is unchanged: only debug instructions (names, source text, lines) are dropped, by
 * SPIRV-Tools' strip-debug pass. Thread-safe: every call has its own optimizer. */
#ifndef VKAT_SPIRV_STRIP_H
#define VKAT_SPIRV_STRIP_H

#include "compile.h"

/* *out is a new module (free with vkat_spirv_free); VKAT_ERR_VALIDATE when SPIRV-Tools cannot process `in`. */
vkat_result vkat_spirv_strip_debug(const vkat_spirv *in, vkat_spirv *out, vkat_error *err);

#endif
