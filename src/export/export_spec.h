/* export_spec.h — the types of an exported variant's specialization constants (manifest "type", header values). */
#ifndef VKAT_EXPORT_SPEC_H
#define VKAT_EXPORT_SPEC_H

#include "export.h"
#include "spec_encode.h"

/* Reflects the item's module (and each module of its sequence) with its specialization constants into *si (the
 * first module's; zeroed, no declarations, for a module that does not reflect) and refuses (VKAT_ERR_TEMPLATE) a 16- or 64-bit constant the space supplies:
 * the manifest's and the runtime's values are 4 bytes. Floats and bools pass: their 4 bytes are encoded. */
vkat_result vkat_export_spec_info(const vkat_export_item *it, vkat_spirv_info *si, vkat_error *err);

/* Step `step`'s constant `j` of a sequence: its declaration in the step's module (NULL when not found). *si is
 * the caller's scratch. */
const vkat_spec_decl *vkat_export_step_spec_decl(const struct vkat_sequence *q, size_t step, size_t j,
                                                 vkat_spirv_info *si);

/* The 4 bytes of `value` for a constant declared as `d` (a float's bits, a bool's 0 or 1), as the runtime's table
 * holds them. */
uint32_t vkat_export_spec_bits(const vkat_spec_decl *d, uint32_t value);

#endif
