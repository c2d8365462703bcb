/* descriptors.h — internal: the shader's interface (descriptor bindings, specialization constants, workgroup size)
 * against what the space supplies (see descriptors.c). */
#ifndef VKAT_DESCRIPTORS_H
#define VKAT_DESCRIPTORS_H

#include "compile.h"
#include "space.h"

/* VKAT_ERR_TEMPLATE with `path`:line (the line declaring the binding, when found in that file) for a binding the
 * space has no buffer for, a storage/uniform mismatch (naming the space's buffer and its line), or a descriptor kind
 * that cannot be bound. `path` is the shader the module came from (template or reference). */
vkat_result vkat_check_bindings(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e);

/* VKAT_ERR_TEMPLATE with `path`:line (of the push_constant block, when found) when the module's push-constant block
 * does not match the space's [push]: a member beyond the pushed bytes, a buffer address, a float given an integer
 * (or the reverse), or a member named like a [push] value at another offset. A module without the block passes. */
vkat_result vkat_check_push_block(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e);

/* VKAT_ERR_TEMPLATE with `path`:line (of `constant_id = N`, when found) for a specialization constant the space
 * supplies (spec[0..spec_count)) whose declared type cannot hold its value exactly (a 16-bit integer out of range,
 * an integer a float rounds): every other value is encoded for its type when the pipeline is created
 * (spec_encode.h), a float constant getting the float of the integer. */
vkat_result vkat_check_spec_constants(const vkat_space *s, const char *path, const vkat_spirv_info *si,
                                      const vkat_spec_value *spec, size_t spec_count, vkat_error *e);

/* The workgroup size a space section states against the module's own (si->local_size: its LocalSize, LocalSizeId
 * or WorkgroupSize built-in, after specialization). `given` is the section's local_size x expression (NULL when
 * the section has no local_size key: then nothing is stated and nothing is checked), `local_size` the three values
 * it gives for this configuration, `section` its name for the message ("[dispatch]", "[pass.x]"). Groups are
 * counted in the space's workgroups, so a difference would run the wrong number of invocations: VKAT_ERR_TEMPLATE
 * at the space's line, naming the line of `path` (the shader) that declares the size, when found there. */
vkat_result vkat_check_local_size(const vkat_space *s, const char *section, const vkat_expr *given,
                                  const uint32_t local_size[3], const char *path, const vkat_spirv_info *si,
                                  vkat_error *e);

/* The [kernel] template's module for one configuration against the space: reflected with `spec` applied (into
 * *si), then vkat_check_bindings, vkat_check_push_block, vkat_check_spec_constants and [dispatch]'s
 * vkat_check_local_size. The tuner runs this before creating a pipeline, `vkautotune compile` before writing the
 * module. */
vkat_result vkat_check_kernel_module(const vkat_space *s, const vkat_spirv *spirv, const vkat_spec_value *spec,
                                     size_t spec_count, const vkat_launch *launch, vkat_spirv_info *si,
                                     vkat_error *e);

#endif
