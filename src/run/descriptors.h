/* descriptors.h — internal: the shader's descriptor bindings against the space's buffers (see descriptors.c). */
#ifndef VKAT_DESCRIPTORS_H
#define VKAT_DESCRIPTORS_H

#include "compile.h"
#include "space.h"

/* VKAT_ERR_TEMPLATE with `path`:line (the line declaring the binding, when found in that file) for a binding the
 * space has no buffer for, a storage/uniform mismatch (naming the space's buffer and its line), or a descriptor kind
 * that cannot be bound. `path` is the shader the module came from (template or reference). */
vkat_result vkat_check_bindings(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e);

/* VKAT_ERR_TEMPLATE with `path`:line (of `constant_id = N`, when found) for a specialization constant the space
 * supplies (spec[0..spec_count)) that the module declares as a float or as a 16- or 64-bit integer: the 4-byte
 * integer vkautotune passes would be misread. Booleans and 32-bit integers pass. */
vkat_result vkat_check_spec_constants(const vkat_space *s, const char *path, const vkat_spirv_info *si,
                                      const vkat_spec_value *spec, size_t spec_count, vkat_error *e);

#endif
