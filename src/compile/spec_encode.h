/* spec_encode.h — a specialization constant's value in the bytes its declaration in the module takes. */
#ifndef VKAT_SPEC_ENCODE_H
#define VKAT_SPEC_ENCODE_H

#include "compile.h"

#include <stdint.h>

/* The module's declaration of constant_id `id` (the first of that id), or NULL when it declares none. */
const vkat_spec_decl *vkat_spec_decl_find(const vkat_spirv_info *si, uint32_t id);

/* The type a declaration names, as the manifest writes it: "int32", "uint32", "float32", "bool", "int16",
 * "uint16", "float16", "int64", "uint64", "float64". NULL d: "uint32" (a constant the module does not declare). */
const char *vkat_spec_type_name(const vkat_spec_decl *d);

/* The space gives every constant a 32-bit integer `value` (a problem size or parameter): this writes it into out as
 * the declared type takes it and returns its size in bytes (VkSpecializationMapEntry.size): a float constant
 * (16, 32 or 64-bit) gets the float of the value read as a signed 32-bit integer, a bool VK_TRUE (1) for any
 * non-zero value, a 16-bit integer its low 16 bits, a 64-bit one the value sign- or zero-extended. NULL d: 4 bytes
 * as given. */
uint32_t vkat_spec_encode(const vkat_spec_decl *d, uint32_t value, uint8_t out[8]);

/* 0 when the declared type receives `value` exactly; else -1, with the reason in `what` ("which a float32 rounds
 * (...)": 2^24 + 1; "which an int16 cannot hold (...)"). */
int vkat_spec_exact(const vkat_spec_decl *d, uint32_t value, char *what, size_t size);

#endif
