/* export_spec.c — the types of an exported variant's specialization constants. The tuner encodes each value for
 * the type the module declares (compile/spec_encode.c); the manifest names that type next to the value, so a
 * runtime of its own can encode it the same way, and the header's table holds the encoded bytes (a float
 * constant's bits; for a float constant bound to a problem size, the runtime converts the caller's size). Both
 * carry 4-byte values, so a 16- or 64-bit constant the space supplies is refused here rather than exported wrong. */
#include "export_spec.h"

#include "build.h"
#include "sequence.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* VKAT_ERR_TEMPLATE for a supplied constant that is not 4 bytes. */
static vkat_result refuse_wide(const vkat_export_item *it, const vkat_spirv_info *si, const vkat_spec_value *spec,
                               size_t n, vkat_error *err)
{
    for (size_t i = 0; i < n; i++) {
        const vkat_spec_decl *d = vkat_spec_decl_find(si, spec[i].id);
        if (d && d->bytes != 4)
            return vkat_fail(err, VKAT_ERR_TEMPLATE, it->space->template_path, 0,
                             "specialization constant %u is of type %s: an exported manifest and header carry 4-byte values "
                             "(32-bit integers, floats and bools), so this variant cannot be exported",
                             d->id, vkat_spec_type_name(d));
    }
    return VKAT_OK;
}

vkat_result vkat_export_spec_info(const vkat_export_item *it, vkat_spirv_info *si, vkat_error *err)
{
    vkat_spec_value spec[64] = {{0, 0}};
    size_t n = it->env ? vkat_build_spec_values(it->space, it->env, 0, spec, VKAT_COUNTOF(spec)) : 0;
    /* A module that cannot be reflected (never one the tuner measured) has no declarations: plain values. */
    if (vkat_spirv_reflect(it->spirv, spec, n, si, NULL))
        memset(si, 0, sizeof *si);
    vkat_result r = refuse_wide(it, si, spec, n, err);
    const vkat_sequence *q = it->sequence;
    vkat_spirv_info *step = q && q->step_count ? malloc(sizeof *step) : NULL;
    if (!r && q && q->step_count && !step)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; !r && q && i < q->step_count; i++) {
        n = vkat_sequence_spec(q, i, spec);
        if (!vkat_spirv_reflect(&q->modules[q->module_of[i]], spec, n, step, NULL))
            r = refuse_wide(it, step, spec, n, err);
    }
    free(step);
    return r;
}

const vkat_spec_decl *vkat_export_step_spec_decl(const struct vkat_sequence *q, size_t step, size_t j,
                                                 vkat_spirv_info *si)
{
    vkat_spec_value spec[64];
    size_t n = vkat_sequence_spec(q, step, spec);
    if (j >= n || vkat_spirv_reflect(&q->modules[q->module_of[step]], spec, n, si, NULL))
        return NULL;
    return vkat_spec_decl_find(si, spec[j].id);
}

uint32_t vkat_export_spec_bits(const vkat_spec_decl *d, uint32_t value)
{
    uint8_t bytes[8];
    uint32_t bits;
    vkat_spec_encode(d, value, bytes);
    memcpy(&bits, bytes, 4);
    return bits;
}
