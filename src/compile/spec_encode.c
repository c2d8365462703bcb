/* spec_encode.c — specialization-constant values in the bytes the module's declaration of each takes. The space
 * gives every constant a 32-bit integer (a problem size, a parameter's value); a constant the shader declares as a
 * float (Kompute's algorithms declare all theirs so: `layout(constant_id = 0) const float dim_f = 0`), a bool, or
 * a 16- or 64-bit integer would otherwise read those bits as its own type: 3 as the float 4e-45. Used where the
 * pipeline is created (run/bench.c) and where a variant is exported (its spec table and manifest). */
#include "spec_encode.h"

#include "check.h"

#include <stdio.h>
#include <string.h>

const vkat_spec_decl *vkat_spec_decl_find(const vkat_spirv_info *si, uint32_t id)
{
    for (uint32_t i = 0; si && i < si->spec_count; i++)
        if (si->specs[i].id == id)
            return &si->specs[i];
    return NULL;
}

const char *vkat_spec_type_name(const vkat_spec_decl *d)
{
    if (!d)
        return "uint32";
    if (d->is_bool)
        return "bool";
    if (d->is_float)
        return d->bytes == 2 ? "float16" : d->bytes == 8 ? "float64" : "float32";
    if (d->bytes == 2)
        return d->is_signed ? "int16" : "uint16";
    if (d->bytes == 8)
        return d->is_signed ? "int64" : "uint64";
    return d->is_signed ? "int32" : "uint32";
}

uint32_t vkat_spec_encode(const vkat_spec_decl *d, uint32_t value, uint8_t out[8])
{
    memset(out, 0, 8);
    int32_t sv = (int32_t)value;
    if (!d || (!d->is_float && !d->is_bool && d->bytes == 4)) {
        memcpy(out, &value, 4);
        return 4;
    }
    if (d->is_bool) {
        uint32_t b = value != 0; /* VkBool32 */
        memcpy(out, &b, 4);
        return 4;
    }
    if (d->is_float && d->bytes == 2) {
        uint16_t h = vkat_float_to_half((float)sv);
        memcpy(out, &h, 2);
        return 2;
    }
    if (d->is_float && d->bytes == 8) {
        double f = (double)sv;
        memcpy(out, &f, 8);
        return 8;
    }
    if (d->is_float) {
        float f = (float)sv;
        memcpy(out, &f, 4);
        return 4;
    }
    if (d->bytes == 2) {
        uint16_t x = (uint16_t)value;
        memcpy(out, &x, 2);
        return 2;
    }
    uint64_t x = d->is_signed ? (uint64_t)(int64_t)sv : (uint64_t)value;
    memcpy(out, &x, 8);
    return 8;
}

int vkat_spec_exact(const vkat_spec_decl *d, uint32_t value, char *what, size_t size)
{
    int32_t sv = (int32_t)value;
    if (!d || d->is_bool || (!d->is_float && d->bytes != 2))
        return 0;
    int exact;
    if (d->is_float && d->bytes == 2)
        exact = (double)vkat_half_to_float(vkat_float_to_half((float)sv)) == (double)sv;
    else if (d->is_float)
        exact = d->bytes == 8 || (double)(float)sv == (double)sv;
    else
        exact = d->is_signed ? sv >= INT16_MIN && sv <= INT16_MAX : value <= UINT16_MAX;
    if (!exact && d->is_float)
        snprintf(what, size, "which a %s rounds (whole numbers are exact up to %d)", vkat_spec_type_name(d),
                 d->bytes == 2 ? 2048 : 16777216);
    else if (!exact)
        snprintf(what, size, "which an %s cannot hold (%s)", vkat_spec_type_name(d),
                 d->is_signed ? "-32768 to 32767" : "0 to 65535");
    return exact ? 0 : -1;
}
