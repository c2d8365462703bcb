/* vkautotune_runtime_check.c — the runtime tuner's inputs and its judgement of outputs (vkautotune_runtime_check.h):
 * buffers filled the way vkautotune filled them when it measured, in the binding's element type, and one
 * candidate's outputs compared with another's. C99 and libc; no Vulkan calls, no allocation, no output. */
#include "vkautotune_runtime_check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* E_UN8: an 8-bit UNORM image component, the value byte / 255 (compared as a float). */
typedef enum elem { E_F32, E_F16, E_BF16, E_I32, E_U32, E_I8, E_U8, E_UN8, E_OTHER } elem;

static elem elem_of(const char *type)
{
    static const char *const names[] = {"float32", "float16", "bfloat16", "int32", "uint32", "int8", "uint8", "unorm8"};
    for (int i = 0; i < 8; i++)
        if (type && strcmp(type, names[i]) == 0)
            return (elem)i;
    return E_OTHER;
}

static uint16_t f32_to_f16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint32_t sign = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
    if (e == 0xff)
        return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
    int ne = (int)e - 127 + 15;
    if (ne >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (ne <= 0) { /* subnormal or zero, rounded to nearest even */
        if (ne < -10)
            return (uint16_t)sign;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - ne), h = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rest > half || (rest == half && (h & 1)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = sign | ((uint32_t)ne << 10) | (m >> 13), rest = m & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++; /* a carry into the exponent is still right */
    return (uint16_t)h;
}

static float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, u;
    if (e == 0x1f) {
        u = sign | 0x7f800000u | (m << 13);
    } else if (e == 0) {
        float f = ldexpf((float)m, -24);
        return sign ? -f : f;
    } else {
        u = sign | ((e + 112) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t f32_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

static float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Element i of a fill, stored as the binding's type (integers truncate and wrap, like vkautotune's fills). */
static void put_element(unsigned char *dst, elem e, size_t i, double x)
{
    int64_t n = isfinite(x) ? (x > 9.2e18 ? INT64_MAX : x < -9.2e18 ? INT64_MIN : (int64_t)x) : 0;
    switch (e) {
    case E_F32: {
        float f = (float)x;
        memcpy(dst + 4 * i, &f, 4);
        break;
    }
    case E_F16: {
        uint16_t h = f32_to_f16((float)x);
        memcpy(dst + 2 * i, &h, 2);
        break;
    }
    case E_BF16: {
        uint16_t h = f32_to_bf16((float)x);
        memcpy(dst + 2 * i, &h, 2);
        break;
    }
    case E_I32:
    case E_U32: {
        uint32_t u = (uint32_t)(uint64_t)n;
        memcpy(dst + 4 * i, &u, 4);
        break;
    }
    case E_I8:
    case E_U8: dst[i] = (unsigned char)(uint64_t)n; break;
    case E_UN8: dst[i] = (unsigned char)lround(255 * (x < 0 ? 0 : x > 1 ? 1 : x)); break;
    default: break;
    }
}

void vkat_rt_fill_buffer(unsigned char *dst, size_t bytes, const vkat_rt_binding *b, const vkat_rt_fill *fill,
                        uint64_t seed)
{
    elem e = elem_of(b->type);
    size_t size = b->element_size ? b->element_size : 1, n = bytes / size;
    memset(dst, 0, bytes);
    if (e == E_OTHER || !fill)
        return;
    for (size_t i = 0; i < n; i++) {
        double x = 0;
        switch (fill->kind) {
        case VKAT_RT_FILL_CONST: x = fill->a; break;
        case VKAT_RT_FILL_IOTA: x = fill->a + fill->b * (double)i; break;
        case VKAT_RT_FILL_RANDOM:
            x = fill->a + (fill->b - fill->a) * ((double)(mix64(seed + (i + 1) * 0x9E3779B97F4A7C15ull) >> 11) *
                                                 (1.0 / 9007199254740992.0)); /* [0, 1) from 53 bits */
            break;
        default: break;
        }
        put_element(dst, e, i, x);
    }
}

vkat_rt_result vkat_rt_fill_fields(unsigned char *dst, size_t bytes, const vkat_rt_fill *fill, const int64_t *problem,
                                   uint32_t problem_count, int tuned)
{
    for (uint32_t i = 0; fill && i < fill->field_count; i++) {
        const vkat_rt_push_constant *f = &fill->fields[i];
        uint32_t bits = 0;
        vkat_rt_result r = vkat_rt_value_bits(f, problem, problem_count, tuned, &bits);
        if (r != VKAT_RT_OK)
            return r;
        if (f->offset > bytes || bytes - f->offset < 4)
            return VKAT_RT_ERR_ARGUMENT;
        memcpy(dst + f->offset, &bits, 4);
    }
    return VKAT_RT_OK;
}

static double get_float(const unsigned char *p, elem e, size_t i)
{
    if (e == E_UN8)
        return p[i] / 255.0;
    if (e == E_F32) {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    return e == E_F16 ? f16_to_f32(h) : bf16_to_f32(h);
}

/* Compares a candidate's output with the reference's: floats by relative L2 error and largest difference (a NaN or
 * infinity must be matched exactly), integers bit for bit. Returns 1 when within the tolerance. */
int vkat_rt_outputs_agree(const unsigned char *ref, const unsigned char *got, size_t bytes, const vkat_rt_binding *b,
                         const vkat_rt_check *chk, double *rel_l2, double *max_abs, char *why, size_t why_size)
{
    elem e = elem_of(b->type);
    *rel_l2 = *max_abs = 0;
    if (e != E_F32 && e != E_F16 && e != E_BF16 && e != E_UN8) {
        if (memcmp(ref, got, bytes) == 0)
            return 1;
        for (size_t i = 0; i < bytes; i++)
            if (ref[i] != got[i]) {
                snprintf(why, why_size, "'%s' differs at byte %zu (integers must match exactly)", b->name, i);
                break;
            }
        return 0;
    }
    size_t n = bytes / (e == E_F32 ? 4 : e == E_UN8 ? 1 : 2);
    double d2 = 0, r2 = 0;
    for (size_t i = 0; i < n; i++) {
        double r = get_float(ref, e, i), g = get_float(got, e, i);
        if (!isfinite(r) || !isfinite(g)) {
            int same = (isnan(r) && isnan(g)) || r == g;
            if (!same) {
                snprintf(why, why_size, "'%s'[%zu] is %g where the reference has %g", b->name, i, g, r);
                return 0;
            }
            continue;
        }
        double d = fabs(g - r);
        d2 += d * d;
        r2 += r * r;
        if (d > *max_abs)
            *max_abs = d;
    }
    *rel_l2 = r2 > 0 ? sqrt(d2) / sqrt(r2) : sqrt(d2);
    /* Both may be off the exact result by the tolerance, so they may differ from each other by twice that. */
    double tol_l2 = 2 * chk->rel_l2, tol_abs = chk->max_abs >= 0 ? 2 * chk->max_abs : INFINITY;
    if (!(*rel_l2 <= tol_l2) || !(*max_abs <= tol_abs)) {
        snprintf(why, why_size, "'%s' differs from the reference candidate: rel L2 %.3g (tolerance %.3g), max abs %.3g",
            b->name, *rel_l2, tol_l2, *max_abs);
        return 0;
    }
    return 1;
}

