/* check.c — compares a variant's output with the reference output, element type aware, and converts between
 * float32 and the 16-bit float formats.
 *
 * Pure host code: it must not touch Vulkan, print or allocate. Sums are accumulated in double so that large
 * buffers of float32 do not lose the error in rounding; large buffers are compared on several threads. */
#include "check.h"

#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- float16 / bfloat16 conversions ---------------------------------------------------------------------- */

static uint32_t float_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

static float bits_float(uint32_t x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

float vkat_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) /* Inf, or NaN with its payload kept in the top mantissa bits */
        return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        /* Zero or subnormal: mant * 2^-24 is exact in float32. */
        float v = ldexpf((float)mant, -24);
        return sign ? -v : v;
    }
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

uint16_t vkat_float_to_half(float f)
{
    uint32_t x = float_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 0xff) {
        if (mant) /* NaN stays NaN: keep the payload's top bits and force the quiet bit so it cannot become Inf */
            return (uint16_t)(sign | 0x7e00u | (mant >> 13));
        return (uint16_t)(sign | 0x7c00u);
    }
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u); /* overflow rounds to Inf */
    if (e <= 0) {
        /* Subnormal half (or zero): value = m * 2^-24 with m = (1.mant) >> (14 - e). Anything below half the
         * smallest subnormal (2^-25) rounds to zero; float32 subnormals land here too (exp == 0, e == -112). */
        if (e < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        unsigned shift = (unsigned)(14 - e);
        uint32_t m = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (m & 1)))
            m++; /* may carry into the exponent: the smallest normal, which is right */
        return (uint16_t)(sign | m);
    }
    uint32_t h = sign | ((uint32_t)e << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
        h++; /* a carry out of the mantissa bumps the exponent, up to Inf: round to nearest even is preserved */
    return (uint16_t)h;
}

float vkat_bf16_to_float(uint16_t b)
{
    return bits_float((uint32_t)b << 16);
}

uint16_t vkat_float_to_bf16(float f)
{
    uint32_t x = float_bits(f);
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu))
        return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN; truncation alone could turn a NaN into Inf */
    /* Round to nearest even on the dropped 16 bits; overflow carries into Inf, subnormals round the same way
     * because bfloat16 shares float32's exponent. */
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* ---- Comparison --------------------------------------------------------------------------------------------- */

int vkat_check_all_zero(const void *data, uint64_t bytes)
{
    const unsigned char *b = data;
    for (uint64_t i = 0; b && i < bytes; i++)
        if (b[i])
            return 0;
    return 1;
}

int vkat_check_is_float(vkat_elem_type t)
{
    return t == VKAT_FLOAT32 || t == VKAT_FLOAT16 || t == VKAT_BFLOAT16 || t == VKAT_UNORM8 || t == VKAT_UNORM16;
}

static double load_float(vkat_elem_type t, const unsigned char *p)
{
    if (t == VKAT_FLOAT32) {
        float f;
        memcpy(&f, p, sizeof f);
        return f;
    }
    if (t == VKAT_UNORM8)
        return p[0] / 255.0;
    uint16_t h;
    memcpy(&h, p, sizeof h);
    if (t == VKAT_UNORM16)
        return h / 65535.0;
    return t == VKAT_FLOAT16 ? vkat_half_to_float(h) : vkat_bf16_to_float(h);
}

static int64_t load_int(vkat_elem_type t, const unsigned char *p)
{
    switch (t) {
    case VKAT_INT32: {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case VKAT_UINT32: {
        uint32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    case VKAT_INT8: return (int8_t)p[0];
    default: return p[0];
    }
}

/* Appends "; text" (or text when first) to the reason without overflowing it. */
static void reason_add(vkat_check_report *r, const char *fmt, ...) VKAT_PRINTF(2, 3);
static void reason_add(vkat_check_report *r, const char *fmt, ...)
{
    size_t used = strlen(r->reason);
    if (used + 3 >= sizeof r->reason)
        return;
    if (used) {
        memcpy(r->reason + used, "; ", 3);
        used += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason + used, sizeof r->reason - used, fmt, ap);
    va_end(ap);
}

static void compare_ints(vkat_elem_type type, const unsigned char *got, const unsigned char *ref, uint64_t count,
                         const unsigned char *poison, size_t size, vkat_check_report *r)
{
    double diff2 = 0, ref2 = 0;
    uint64_t wrong = 0, first_wrong = UINT64_MAX;
    int64_t first_got = 0, first_ref = 0;
    uint64_t first_unwritten = UINT64_MAX;
    for (uint64_t i = 0; i < count; i++) {
        const unsigned char *g = got + i * size, *f = ref + i * size;
        if (memcmp(g, f, size) == 0) {
            double v = (double)load_int(type, f);
            ref2 += v * v;
            continue;
        }
        if (r->first_bad == UINT64_MAX)
            r->first_bad = i;
        if (memcmp(g, poison, size) == 0 && memcmp(f, poison, size) != 0) {
            if (r->unwritten++ == 0)
                first_unwritten = i;
            continue;
        }
        int64_t gv = load_int(type, g), fv = load_int(type, f);
        double d = (double)gv - (double)fv;
        diff2 += d * d;
        ref2 += (double)fv * (double)fv;
        if (fabs(d) > r->max_abs)
            r->max_abs = fabs(d);
        if (wrong++ == 0) {
            first_wrong = i;
            first_got = gv;
            first_ref = fv;
        }
    }
    r->rel_l2 = ref2 > 0 ? sqrt(diff2) / sqrt(ref2) : sqrt(diff2);
    r->ok = wrong == 0 && r->unwritten == 0;
    if (r->unwritten == count && count > 0)
        reason_add(r, "all %llu elements unwritten (still poison)", (unsigned long long)count);
    else if (r->unwritten)
        reason_add(r, "%llu unwritten elements (first at %llu)", (unsigned long long)r->unwritten,
                   (unsigned long long)first_unwritten);
    if (wrong)
        reason_add(r, "%llu elements differ (first at %llu: got %lld, want %lld)", (unsigned long long)wrong,
                   (unsigned long long)first_wrong, (long long)first_got, (long long)first_ref);
}

/* What one slice of a float comparison found. Slices are merged in order, so the totals do not depend on how
 * many threads did the work. */
typedef struct float_partial {
    double diff2, ref2, max_abs;
    uint64_t unwritten, nonfinite, ref_mismatch;
    uint64_t first_unwritten, first_nonfinite, first_ref_mismatch, first_over_abs, worst;
} float_partial;

typedef struct float_job {
    vkat_elem_type type;
    const unsigned char *got, *ref;
    uint64_t count;
    uint32_t poison; /* the poison pattern's bits, as raw_bits reads an element */
    size_t size;
    double max_abs_tolerance;
    float_partial *slices;
    unsigned stride, first; /* this job takes slices first, first + stride, ... */
} float_job;

/* Large outputs (hundreds of millions of elements at LLM sizes) are compared on several threads: always the same
 * number of slices, so the sums are added in the same order whatever the number of cores. */
#define CHECK_SLICES 64
#define CHECK_MAX_THREADS 16

/* An element's bits, for comparing with the poison pattern without a memcmp call per element. */
static inline uint32_t raw_bits(const unsigned char *p, size_t size)
{
    uint32_t v32;
    uint16_t v16;
    switch (size) {
    case 4: memcpy(&v32, p, 4); return v32;
    case 2: memcpy(&v16, p, 2); return v16;
    default: return p[0];
    }
}

static void compare_float_slice(const float_job *fj, uint64_t begin, uint64_t end, float_partial *r)
{
    memset(r, 0, sizeof *r);
    r->first_unwritten = r->first_nonfinite = r->first_ref_mismatch = r->first_over_abs = r->worst = UINT64_MAX;
    for (uint64_t i = begin; i < end; i++) {
        const unsigned char *g = fj->got + i * fj->size, *f = fj->ref + i * fj->size;
        /* UNORM bits are as likely a value as the poison: there, an unwritten element is told by its value
         * (far from the reference's), as any other wrong one. */
        int unorm = fj->type == VKAT_UNORM8 || fj->type == VKAT_UNORM16;
        if (!unorm && raw_bits(g, fj->size) == fj->poison && raw_bits(f, fj->size) != fj->poison) {
            if (r->unwritten++ == 0)
                r->first_unwritten = i;
            continue;
        }
        double gv = load_float(fj->type, g), fv = load_float(fj->type, f);
        if (!isfinite(fv)) {
            /* A reference NaN/Inf is matched by the same kind of value, not by a number. */
            int same = isnan(fv) ? isnan(gv) : gv == fv;
            if (!same && r->ref_mismatch++ == 0)
                r->first_ref_mismatch = i;
            continue;
        }
        if (!isfinite(gv)) {
            if (r->nonfinite++ == 0)
                r->first_nonfinite = i;
            continue;
        }
        double d = fabs(gv - fv);
        r->diff2 += d * d;
        r->ref2 += fv * fv;
        if (r->worst == UINT64_MAX || d > r->max_abs) {
            r->max_abs = d;
            r->worst = i;
        }
        if (d > fj->max_abs_tolerance && r->first_over_abs == UINT64_MAX)
            r->first_over_abs = i;
    }
}

static void *compare_float_worker(void *arg)
{
    const float_job *fj = arg;
    for (unsigned k = fj->first; k < CHECK_SLICES; k += fj->stride)
        compare_float_slice(fj, fj->count * k / CHECK_SLICES, fj->count * (k + 1) / CHECK_SLICES, &fj->slices[k]);
    return NULL;
}

static void compare_floats(vkat_elem_type type, const unsigned char *got, const unsigned char *ref, uint64_t count,
                           const unsigned char *poison, size_t size, const vkat_check_opts *o, vkat_check_report *r)
{
    float_partial slices[CHECK_SLICES];
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned threads = count < (1u << 20) || cores < 2 ? 1
                       : cores < CHECK_MAX_THREADS ? (unsigned)cores
                                                   : CHECK_MAX_THREADS;
    float_job jobs[CHECK_MAX_THREADS];
    pthread_t tid[CHECK_MAX_THREADS];
    int started[CHECK_MAX_THREADS] = {0};
    for (unsigned t = 0; t < threads; t++)
        jobs[t] = (float_job){type, got, ref, count, raw_bits(poison, size), size, o->max_abs_tolerance, slices,
                              threads, t};
    for (unsigned t = 1; t < threads; t++)
        started[t] = pthread_create(&tid[t], NULL, compare_float_worker, &jobs[t]) == 0;
    compare_float_worker(&jobs[0]);
    for (unsigned t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            compare_float_worker(&jobs[t]); /* no thread to be had: this one does that share too */
    }

    double diff2 = 0, ref2 = 0;
    uint64_t first_unwritten = UINT64_MAX, first_nonfinite = UINT64_MAX, ref_mismatch = 0;
    uint64_t first_ref_mismatch = UINT64_MAX, first_over_abs = UINT64_MAX, worst = UINT64_MAX;
    for (unsigned k = 0; k < CHECK_SLICES; k++) {
        const float_partial *p = &slices[k];
        diff2 += p->diff2;
        ref2 += p->ref2;
        if (first_unwritten == UINT64_MAX)
            first_unwritten = p->first_unwritten;
        if (first_nonfinite == UINT64_MAX)
            first_nonfinite = p->first_nonfinite;
        if (first_ref_mismatch == UINT64_MAX)
            first_ref_mismatch = p->first_ref_mismatch;
        if (first_over_abs == UINT64_MAX)
            first_over_abs = p->first_over_abs;
        r->unwritten += p->unwritten;
        r->nonfinite += p->nonfinite;
        ref_mismatch += p->ref_mismatch;
        /* The earliest of the largest errors, as a single pass finds it. */
        if (p->worst != UINT64_MAX && (worst == UINT64_MAX || p->max_abs > r->max_abs)) {
            r->max_abs = p->max_abs;
            worst = p->worst;
        }
    }
    r->rel_l2 = ref2 > 0 ? sqrt(diff2) / sqrt(ref2) : sqrt(diff2);
    int l2_bad = !(r->rel_l2 <= o->rel_l2_tolerance);
    int abs_bad = first_over_abs != UINT64_MAX;
    r->ok = !r->unwritten && !r->nonfinite && !ref_mismatch && !l2_bad && !abs_bad;

    /* The worst problem first: nothing written at all, then gaps, then NaN/Inf, then plain numeric error. */
    if (r->unwritten == count && count > 0)
        reason_add(r, "all %llu elements unwritten (still poison)", (unsigned long long)count);
    else if (r->unwritten)
        reason_add(r, "%llu unwritten elements (first at %llu)", (unsigned long long)r->unwritten,
                   (unsigned long long)first_unwritten);
    if (r->nonfinite)
        reason_add(r, "%llu NaN/Inf where the reference is finite (first at %llu)", (unsigned long long)r->nonfinite,
                   (unsigned long long)first_nonfinite);
    if (ref_mismatch)
        reason_add(r, "%llu elements miss the reference's NaN/Inf (first at %llu)", (unsigned long long)ref_mismatch,
                   (unsigned long long)first_ref_mismatch);
    if (l2_bad)
        reason_add(r, "rel L2 %.2e > %.0e", r->rel_l2, o->rel_l2_tolerance);
    if (abs_bad)
        reason_add(r, "max abs %.3g > %.3g", r->max_abs, o->max_abs_tolerance);

    uint64_t candidates[4] = {first_unwritten, first_nonfinite, first_ref_mismatch, first_over_abs};
    for (size_t i = 0; i < 4; i++)
        if (candidates[i] < r->first_bad)
            r->first_bad = candidates[i];
    if (r->first_bad == UINT64_MAX && l2_bad && worst != UINT64_MAX) {
        /* Only the norm failed: the element that contributes most is the one worth looking at. */
        r->first_bad = worst;
    }
    if ((l2_bad || abs_bad) && worst != UINT64_MAX) {
        uint64_t i = abs_bad ? first_over_abs : worst;
        size_t used = strlen(r->reason);
        snprintf(r->reason + used, sizeof r->reason - used, " (element %llu: got %.9g, want %.9g)",
                 (unsigned long long)i, load_float(type, got + i * size), load_float(type, ref + i * size));
    }
}

void vkat_check_compare(vkat_elem_type type, const void *got, const void *ref, uint64_t count, const void *poison,
                        const vkat_check_opts *opts, vkat_check_report *out)
{
    vkat_check_opts defaults = {1e-5, INFINITY};
    const vkat_check_opts *o = opts ? opts : &defaults;
    memset(out, 0, sizeof *out);
    out->first_bad = UINT64_MAX;
    size_t size = vkat_elem_type_size(type);
    if (size == 0) {
        snprintf(out->reason, sizeof out->reason, "unknown element type %d", (int)type);
        return;
    }
    if (vkat_check_is_float(type))
        compare_floats(type, got, ref, count, poison, size, o, out);
    else
        compare_ints(type, got, ref, count, poison, size, out);
    if (out->ok)
        snprintf(out->reason, sizeof out->reason, "ok (rel L2 %.2e, max abs %.3g)", out->rel_l2, out->max_abs);
}

/* ---- Unordered outputs ---------------------------------------------------------------------------------------- */

/* An element's place in the sorted order: a float by value, so that one a variant computed a rounding apart from
 * the reference's still pairs with it (an order by bytes would put the two far apart), NaNs last; an integer, which
 * is compared exactly, by its bytes (any order that puts equal ones together will do). */
typedef struct sort_key {
    double f;
    uint64_t i;
    uint64_t at;
} sort_key;

static int cmp_key(const void *pa, const void *pb)
{
    const sort_key *a = pa, *b = pb;
    int na = isnan(a->f), nb = isnan(b->f);
    if (na != nb)
        return na - nb;
    if (!na && a->f != b->f)
        return a->f < b->f ? -1 : 1;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

vkat_result vkat_check_sort_elements(vkat_elem_type type, void *data, uint64_t count)
{
    size_t es = vkat_elem_type_size(type);
    if (count < 2)
        return VKAT_OK;
    sort_key *keys = malloc((size_t)count * sizeof *keys);
    unsigned char *copy = malloc((size_t)count * es);
    if (!keys || !copy) {
        free(keys);
        free(copy);
        return VKAT_ERR_NOMEM;
    }
    const unsigned char *p = data;
    int is_float = vkat_check_is_float(type);
    for (uint64_t k = 0; k < count; k++) {
        keys[k] = (sort_key){0, 0, k};
        if (is_float)
            keys[k].f = load_float(type, p + k * es);
        else
            memcpy(&keys[k].i, p + k * es, es < sizeof keys[k].i ? es : sizeof keys[k].i);
    }
    qsort(keys, (size_t)count, sizeof *keys, cmp_key);
    for (uint64_t k = 0; k < count; k++)
        memcpy(copy + k * es, p + keys[k].at * es, es);
    memcpy(data, copy, (size_t)count * es);
    free(keys);
    free(copy);
    return VKAT_OK;
}
