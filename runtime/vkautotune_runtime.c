/* vkautotune_runtime.c — selection of an exported variant for a device and evaluation of its dispatch formulas
 * (vkautotune_runtime.h, docs/runtime.md).
 *
 * C99, libc and the Vulkan headers only: it must not depend on the vkautotune library, print, exit, allocate or
 * call Vulkan (vkat_rt_select_physical_device calls only the function pointer it is given). */
#include "vkautotune_runtime.h"
#include "vkautotune_runtime_check.h"

#include <math.h>
#include <string.h>

const char *vkat_rt_result_string(vkat_rt_result r)
{
    switch (r) {
    case VKAT_RT_OK: return "ok";
    case VKAT_RT_ERR_ARGUMENT: return "bad argument or table version";
    case VKAT_RT_ERR_NOT_FOUND: return "no exported variant fits this device and problem";
    case VKAT_RT_ERR_PROBLEM: return "the variant cannot run this problem size";
    case VKAT_RT_ERR_NO_FORMULA: return "the export has no formula for this problem size";
    case VKAT_RT_ERR_EVAL: return "formula evaluation failed (division by zero or overflow)";
    case VKAT_RT_ERR_LIMITS: return "the variant exceeds the device's limits";
    case VKAT_RT_ERR_VULKAN: return "a Vulkan call failed";
    case VKAT_RT_ERR_DEVICE_LOST: return "the device was lost";
    case VKAT_RT_ERR_NO_MEMORY: return "out of host or device memory";
    case VKAT_RT_ERR_CHECK: return "the candidate's output differs from the reference candidate's";
    case VKAT_RT_ERR_UNSUPPORTED: return "the candidate needs an extension or feature that is not enabled";
    case VKAT_RT_ERR_TIME_LIMIT: return "the tuning time limit ran out before this candidate";
    case VKAT_RT_ERR_NO_CANDIDATE: return "no candidate ran correctly on this device";
    case VKAT_RT_ERR_NO_TUNE_DATA: return "the table has no candidate checks (export it again with this vkautotune)";
    case VKAT_RT_ERR_CACHE: return "the tuning cache file could not be written";
    }
    return "unknown result";
}

const char *vkat_rt_match_name(vkat_rt_match m)
{
    static const char *const names[] = {"none", "exact", "device", "architecture", "vendor", "generic"};
    return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "none";
}

/* ---- Formulas ------------------------------------------------------------------------------------------------ */

static int add_ok(int64_t a, int64_t b, int64_t *r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 0;
    *r = a + b;
    return 1;
}

static int mul_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a == 0 || b == 0) {
        *r = 0;
        return 1;
    }
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
        return 0;
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
        return 0;
    *r = a * b;
    return 1;
}

vkat_rt_result vkat_rt_eval(const vkat_rt_formula *f, const int64_t *vars, uint32_t var_count, int64_t *out)
{
    int64_t st[VKAT_RT_MAX_STACK];
    int sp = 0; /* number of values on the stack */
    if (!f || !out)
        return VKAT_RT_ERR_ARGUMENT;
    if (f->count == 0)
        return VKAT_RT_ERR_NO_FORMULA;
    for (uint32_t pc = 0; pc < f->count; pc++) {
        const vkat_rt_op *in = &f->ops[pc];
        int op = in->op;
        if (op == VKAT_RT_CONST || op == VKAT_RT_VAR) {
            if (sp == VKAT_RT_MAX_STACK)
                return VKAT_RT_ERR_EVAL;
            if (op == VKAT_RT_VAR) {
                if (!vars || in->arg < 0 || (uint64_t)in->arg >= var_count)
                    return VKAT_RT_ERR_ARGUMENT;
                st[sp++] = vars[in->arg];
            } else {
                st[sp++] = in->arg;
            }
            continue;
        }
        if (op >= VKAT_RT_NEG && op <= VKAT_RT_BOOL) {
            if (sp < 1)
                return VKAT_RT_ERR_EVAL;
            int64_t *a = &st[sp - 1];
            switch (op) {
            case VKAT_RT_NEG:
                if (*a == INT64_MIN)
                    return VKAT_RT_ERR_EVAL;
                *a = -*a;
                break;
            case VKAT_RT_NOT: *a = !*a; break;
            case VKAT_RT_BNOT: *a = ~*a; break;
            default: *a = *a != 0; break;
            }
            continue;
        }
        if (op < VKAT_RT_ADD || op >= VKAT_RT_OPCODE_COUNT || sp < 2)
            return VKAT_RT_ERR_EVAL;
        int64_t b = st[--sp], a = st[sp - 1], r = 0;
        switch (op) {
        case VKAT_RT_ADD:
            if (!add_ok(a, b, &r))
                return VKAT_RT_ERR_EVAL;
            break;
        case VKAT_RT_SUB:
            if (b == INT64_MIN || !add_ok(a, -b, &r))
                return VKAT_RT_ERR_EVAL;
            break;
        case VKAT_RT_MUL:
            if (!mul_ok(a, b, &r))
                return VKAT_RT_ERR_EVAL;
            break;
        case VKAT_RT_DIV:
        case VKAT_RT_MOD:
        case VKAT_RT_CDIV:
            if (b == 0 || (a == INT64_MIN && b == -1))
                return VKAT_RT_ERR_EVAL;
            if (op == VKAT_RT_DIV)
                r = a / b;
            else if (op == VKAT_RT_MOD)
                r = a % b;
            else /* ceiling division, as the space language's cdiv for integers */
                r = a / b + ((a % b != 0) && ((a < 0) == (b < 0)));
            break;
        case VKAT_RT_MIN: r = a < b ? a : b; break;
        case VKAT_RT_MAX: r = a > b ? a : b; break;
        case VKAT_RT_SHL:
            if (b < 0 || b > 63)
                return VKAT_RT_ERR_EVAL;
            r = (int64_t)((uint64_t)a << b);
            break;
        case VKAT_RT_SHR:
            if (b < 0 || b > 63)
                return VKAT_RT_ERR_EVAL;
            r = a >> b;
            break;
        case VKAT_RT_BAND: r = a & b; break;
        case VKAT_RT_BOR: r = a | b; break;
        case VKAT_RT_BXOR: r = a ^ b; break;
        case VKAT_RT_LT: r = a < b; break;
        case VKAT_RT_LE: r = a <= b; break;
        case VKAT_RT_GT: r = a > b; break;
        case VKAT_RT_GE: r = a >= b; break;
        case VKAT_RT_EQ: r = a == b; break;
        case VKAT_RT_NE: r = a != b; break;
        case VKAT_RT_LAND: r = a != 0 && b != 0; break;
        case VKAT_RT_LOR: r = a != 0 || b != 0; break;
        default: return VKAT_RT_ERR_EVAL;
        }
        st[sp - 1] = r;
    }
    if (sp != 1)
        return VKAT_RT_ERR_EVAL;
    *out = st[0];
    return VKAT_RT_OK;
}

/* ---- Device matching ------------------------------------------------------------------------------------------ */

/* Glob match: '*' any run of characters, '?' one character, everything else literally. */
static int glob_match(const char *p, const char *s)
{
    const char *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '*') {
            star = p++;
            resume = s;
        } else if (*p == '?' || *p == *s) {
            p++;
            s++;
        } else if (star) {
            p = star + 1;
            s = ++resume;
        } else {
            return 0;
        }
    }
    while (*p == '*')
        p++;
    return *p == 0;
}

/* Coarse families by PCI device-id range, where a vendor numbers its chips by generation (NVIDIA does). A device
 * outside every range has no architecture and skips that tier. Extend the table as devices are tuned. */
typedef struct arch_range {
    uint32_t vendor_id, first, last;
    const char *name;
} arch_range;

static const arch_range arch_ranges[] = {
    {0x10de, 0x1b00, 0x1dff, "nvidia-pascal-volta"},
    {0x10de, 0x1e00, 0x1fff, "nvidia-turing"},
    {0x10de, 0x2080, 0x20ff, "nvidia-ampere"}, /* GA100 (A100) */
    {0x10de, 0x2180, 0x21ff, "nvidia-turing"}, /* TU116 */
    {0x10de, 0x2200, 0x22ff, "nvidia-ampere"}, /* GA102 */
    {0x10de, 0x2400, 0x25ff, "nvidia-ampere"}, /* GA103..GA107 */
    {0x10de, 0x2300, 0x23ff, "nvidia-hopper"}, /* GH100: H100, H200, GH200 */
    {0x10de, 0x2600, 0x28ff, "nvidia-ada"},    /* AD102..AD107 */
    {0x10de, 0x2900, 0x2fff, "nvidia-blackwell"},
};

const char *vkat_rt_architecture(uint32_t vendor_id, uint32_t device_id, const char *device_name)
{
    for (size_t i = 0; i < sizeof arch_ranges / sizeof arch_ranges[0]; i++)
        if (arch_ranges[i].vendor_id == vendor_id && device_id >= arch_ranges[i].first &&
            device_id <= arch_ranges[i].last)
            return arch_ranges[i].name;
    /* Mesa's CPU driver reports device id 0 on every machine; its name says what it is. */
    if (vendor_id == 0x10005 && device_name && strncmp(device_name, "llvmpipe", 8) == 0)
        return "mesa-llvmpipe";
    return "";
}

int vkat_rt_problem_index(const vkat_rt_variant *v, const char *name)
{
    if (!v || !name)
        return -1;
    for (uint32_t i = 0; i < v->problem_count; i++)
        if (strcmp(v->problem_names[i], name) == 0)
            return (int)i;
    return -1;
}

int vkat_rt_fits_limits(const vkat_rt_variant *v, const VkPhysicalDeviceLimits *l)
{
    uint64_t invocations = (uint64_t)v->local_size[0] * v->local_size[1] * v->local_size[2];
    for (int i = 0; i < 3; i++)
        if (v->local_size[i] > l->maxComputeWorkGroupSize[i])
            return 0;
    return invocations <= l->maxComputeWorkGroupInvocations && v->shared_bytes <= l->maxComputeSharedMemorySize;
}

/* Does the variant run `problem`? Its problem names must be the caller's (same count), and every condition hold. */
static int runs_problem(const vkat_rt_variant *v, const int64_t *problem, uint32_t count)
{
    if (!problem)
        return 1;
    if (count != v->problem_count)
        return 0;
    for (uint32_t i = 0; i < v->condition_count; i++) {
        int64_t ok = 0;
        if (vkat_rt_eval(&v->conditions[i], problem, count, &ok) != VKAT_RT_OK || !ok)
            return 0;
    }
    return 1;
}

static double problem_distance(const vkat_rt_variant *v, const int64_t *problem)
{
    double d = 0;
    if (!problem)
        return 0;
    for (uint32_t i = 0; i < v->problem_count; i++) {
        double a = (double)(problem[i] > 0 ? problem[i] : 1), b = (double)(v->problem[i] > 0 ? v->problem[i] : 1);
        d += fabs(log2(a / b));
    }
    return d;
}

static vkat_rt_match tier_of(const vkat_rt_variant *v, const VkPhysicalDeviceProperties *p, const char *arch)
{
    if (v->vendor_id == p->vendorID) {
        int same_device = v->device_id == p->deviceID && glob_match(v->device_name ? v->device_name : "*",
                                                                     p->deviceName);
        if (same_device && p->driverVersion >= v->driver_version_min && p->driverVersion <= v->driver_version_max)
            return VKAT_RT_MATCH_EXACT;
        if (same_device)
            return VKAT_RT_MATCH_DEVICE;
        if (arch[0] && strcmp(arch, vkat_rt_architecture(v->vendor_id, v->device_id, v->device_name)) == 0)
            return VKAT_RT_MATCH_ARCHITECTURE;
        return VKAT_RT_MATCH_VENDOR;
    }
    return VKAT_RT_MATCH_GENERIC;
}

vkat_rt_result vkat_rt_select(const vkat_rt_table *table, const char *kernel, const VkPhysicalDeviceProperties *props,
                              const int64_t *problem, uint32_t problem_count, const vkat_rt_variant **out,
                              vkat_rt_match *how)
{
    if (how)
        *how = VKAT_RT_MATCH_NONE;
    if (!table || !kernel || !props || !out || table->version != VKAT_RT_TABLE_VERSION)
        return VKAT_RT_ERR_ARGUMENT;
    *out = NULL;
    const char *arch = vkat_rt_architecture(props->vendorID, props->deviceID, props->deviceName);
    /* One pass per tier, best first; the VENDOR and GENERIC tiers prefer the flagged default. */
    for (int tier = VKAT_RT_MATCH_EXACT; tier <= VKAT_RT_MATCH_GENERIC; tier++) {
        const vkat_rt_variant *best = NULL;
        double best_d = 0;
        int best_flagged = 0;
        uint32_t flag = tier == VKAT_RT_MATCH_VENDOR ? VKAT_RT_VENDOR_DEFAULT
                        : tier == VKAT_RT_MATCH_GENERIC ? VKAT_RT_GENERIC_DEFAULT : 0;
        for (uint32_t i = 0; i < table->count; i++) {
            const vkat_rt_variant *v = &table->variants[i];
            if (strcmp(v->kernel, kernel) != 0 || (v->flags & VKAT_RT_CANDIDATE_ONLY) ||
                !vkat_rt_fits_limits(v, &props->limits) ||
                !runs_problem(v, problem, problem_count))
                continue;
            vkat_rt_match t = tier_of(v, props, arch);
            /* A device of a known vendor may still use a generic default; never another vendor's tuned variant
             * over the generic default, hence GENERIC accepts everything but prefers the flag. */
            if (t != (vkat_rt_match)tier && tier != VKAT_RT_MATCH_GENERIC)
                continue;
            int flagged = flag && (v->flags & flag);
            double d = problem_distance(v, problem);
            if (!best || (flagged && !best_flagged) || (flagged == best_flagged && d < best_d)) {
                best = v;
                best_d = d;
                best_flagged = flagged;
            }
        }
        if (best) {
            *out = best;
            if (how)
                *how = (vkat_rt_match)tier;
            return VKAT_RT_OK;
        }
    }
    return VKAT_RT_ERR_NOT_FOUND;
}

vkat_rt_result vkat_rt_select_physical_device(const vkat_rt_table *table, const char *kernel,
                                              VkPhysicalDevice physical_device,
                                              PFN_vkGetPhysicalDeviceProperties get_properties,
                                              const int64_t *problem, uint32_t problem_count,
                                              const vkat_rt_variant **out, vkat_rt_match *how)
{
    VkPhysicalDeviceProperties props;
    if (!get_properties || !physical_device)
        return VKAT_RT_ERR_ARGUMENT;
    memset(&props, 0, sizeof props);
    get_properties(physical_device, &props);
    return vkat_rt_select(table, kernel, &props, problem, problem_count, out, how);
}

/* ---- Launch ---------------------------------------------------------------------------------------------------- */

vkat_rt_result vkat_rt_value_bits(const vkat_rt_push_constant *p, const int64_t *problem, uint32_t problem_count,
                                  int tuned, uint32_t *bits)
{
    *bits = p->tuned_bits;
    if (!p->value.count)
        return tuned ? VKAT_RT_OK : VKAT_RT_ERR_NO_FORMULA;
    int64_t x = 0;
    vkat_rt_result r = vkat_rt_eval(&p->value, problem, problem_count, &x);
    if (r != VKAT_RT_OK)
        return r;
    /* float32: the formula is a constant holding the value's bits (see the header). */
    int is_signed = strcmp(p->type, "int32") == 0;
    if (is_signed ? (x < INT32_MIN || x > INT32_MAX) : (x < 0 || x > (int64_t)UINT32_MAX))
        return VKAT_RT_ERR_EVAL;
    *bits = (uint32_t)x;
    return VKAT_RT_OK;
}

static int same_problem(const vkat_rt_variant *v, const int64_t *problem)
{
    for (uint32_t i = 0; i < v->problem_count; i++)
        if (problem[i] != v->problem[i])
            return 0;
    return 1;
}

vkat_rt_result vkat_rt_launch_eval(const vkat_rt_variant *v, const int64_t *problem, uint32_t problem_count,
                                   vkat_rt_launch *out)
{
    if (!v || !out || v->binding_count > VKAT_RT_MAX_BINDINGS || v->push_constant_count * 4 > VKAT_RT_MAX_PUSH_BYTES ||
        v->spec_constant_count > VKAT_RT_MAX_SPEC)
        return VKAT_RT_ERR_ARGUMENT;
    if (!problem) {
        problem = v->problem;
        problem_count = v->problem_count;
    }
    if (problem_count != v->problem_count)
        return VKAT_RT_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    int tuned = same_problem(v, problem);
    for (uint32_t i = 0; i < v->spec_constant_count; i++) {
        const vkat_rt_spec_constant *c = &v->spec_constants[i];
        if (c->problem > problem_count)
            return VKAT_RT_ERR_ARGUMENT;
        if (c->problem && (problem[c->problem - 1] < 0 || problem[c->problem - 1] > (int64_t)UINT32_MAX))
            return VKAT_RT_ERR_EVAL;
        uint32_t bits = c->problem ? (uint32_t)problem[c->problem - 1] : c->value;
        if (c->problem && c->encoding == VKAT_RT_SPEC_FLOAT32) {
            float f = (float)problem[c->problem - 1];
            memcpy(&bits, &f, sizeof bits);
        } else if (c->problem && c->encoding == VKAT_RT_SPEC_BOOL) {
            bits = bits != 0;
        }
        out->spec[i] = bits;
    }
    for (uint32_t i = 0; i < v->condition_count; i++) {
        int64_t ok = 0;
        vkat_rt_result r = vkat_rt_eval(&v->conditions[i], problem, problem_count, &ok);
        if (r != VKAT_RT_OK)
            return r;
        if (!ok)
            return VKAT_RT_ERR_PROBLEM;
    }
    for (int i = 0; i < 3; i++) {
        int64_t g = v->tuned_groups[i];
        if (v->groups[i].count) {
            vkat_rt_result r = vkat_rt_eval(&v->groups[i], problem, problem_count, &g);
            if (r != VKAT_RT_OK)
                return r;
        } else if (!tuned) {
            return VKAT_RT_ERR_NO_FORMULA;
        }
        if (g < 1 || g > (int64_t)UINT32_MAX)
            return VKAT_RT_ERR_EVAL;
        out->groups[i] = (uint32_t)g;
    }
    for (uint32_t i = 0; i < v->binding_count; i++) {
        const vkat_rt_binding *b = &v->bindings[i];
        int64_t n = (int64_t)b->tuned_elements;
        if (b->elements.count) {
            vkat_rt_result r = vkat_rt_eval(&b->elements, problem, problem_count, &n);
            if (r != VKAT_RT_OK)
                return r;
        } else if (!tuned) {
            return VKAT_RT_ERR_NO_FORMULA;
        }
        if (n < 0 || (uint64_t)n > UINT64_MAX / (b->element_size ? b->element_size : 1))
            return VKAT_RT_ERR_EVAL;
        out->buffer_bytes[i] = (uint64_t)n * b->element_size;
        int image = b->image_format && !b->texel_buffer;
        for (int d = 0; d < 3; d++) {
            int64_t x = image ? (int64_t)b->tuned_extent[d] : 1;
            if (image && b->extent[d].count) {
                vkat_rt_result r = vkat_rt_eval(&b->extent[d], problem, problem_count, &x);
                if (r != VKAT_RT_OK)
                    return r;
            } else if (image && !tuned) {
                return VKAT_RT_ERR_NO_FORMULA;
            }
            if (x < 1 || x > (int64_t)UINT32_MAX)
                return VKAT_RT_ERR_EVAL;
            out->image_extent[i][d] = (uint32_t)x;
        }
    }
    for (uint32_t i = 0; i < v->push_constant_count; i++) {
        const vkat_rt_push_constant *p = &v->push_constants[i];
        uint32_t bits = 0;
        vkat_rt_result r = vkat_rt_value_bits(p, problem, problem_count, tuned, &bits);
        if (r != VKAT_RT_OK)
            return r;
        if (p->offset + 4 > VKAT_RT_MAX_PUSH_BYTES)
            return VKAT_RT_ERR_ARGUMENT;
        memcpy(out->push + p->offset, &bits, 4);
        if (p->offset + 4 > out->push_size)
            out->push_size = p->offset + 4;
    }
    return VKAT_RT_OK;
}

/* The data is the table's array itself: each entry's offset points at one element's value. */
static void spec_info(const vkat_rt_spec_constant *c, uint32_t n, VkSpecializationMapEntry *entries,
                      VkSpecializationInfo *info)
{
    memset(info, 0, sizeof *info);
    for (uint32_t i = 0; i < n; i++) {
        entries[i].constantID = c[i].id;
        entries[i].offset = (uint32_t)(i * sizeof(vkat_rt_spec_constant) + offsetof(vkat_rt_spec_constant, value));
        entries[i].size = sizeof(uint32_t);
    }
    info->mapEntryCount = n;
    info->pMapEntries = n ? entries : NULL;
    info->dataSize = n * sizeof(vkat_rt_spec_constant);
    info->pData = n ? (const void *)c : NULL;
}

void vkat_rt_specialization(const vkat_rt_variant *v, VkSpecializationMapEntry *entries, VkSpecializationInfo *info)
{
    spec_info(v->spec_constants, v->spec_constant_count, entries, info);
}

/* ---- Dispatches -------------------------------------------------------------------------------------------- */

uint32_t vkat_rt_dispatch_count(const vkat_rt_variant *v)
{
    return !v ? 0 : v->pass_count ? v->pass_count : 1;
}

vkat_rt_result vkat_rt_dispatch_eval(const vkat_rt_variant *v, uint32_t index, const int64_t *problem,
                                     uint32_t problem_count, vkat_rt_dispatch *out)
{
    if (!v || !out || index >= vkat_rt_dispatch_count(v))
        return VKAT_RT_ERR_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (!v->pass_count) {
        vkat_rt_launch l;
        vkat_rt_result r = vkat_rt_launch_eval(v, problem, problem_count, &l);
        if (r != VKAT_RT_OK)
            return r;
        out->spirv = v->spirv;
        out->spirv_size_bytes = v->spirv_size_bytes;
        out->spec_constants = v->spec_constants;
        out->spec_constant_count = v->spec_constant_count;
        memcpy(out->local_size, v->local_size, sizeof out->local_size);
        memcpy(out->groups, l.groups, sizeof out->groups);
        memcpy(out->push, l.push, sizeof out->push);
        out->push_size = l.push_size;
        return VKAT_RT_OK;
    }
    if (problem && (problem_count != v->problem_count || !same_problem(v, problem)))
        return problem_count != v->problem_count ? VKAT_RT_ERR_ARGUMENT : VKAT_RT_ERR_PROBLEM;
    const vkat_rt_pass *p = &v->passes[index];
    if (p->push_size > VKAT_RT_MAX_PUSH_BYTES || p->spec_constant_count > VKAT_RT_MAX_SPEC_CONSTANTS)
        return VKAT_RT_ERR_ARGUMENT;
    out->spirv = p->spirv;
    out->spirv_size_bytes = p->spirv_size_bytes;
    out->spec_constants = p->spec_constants;
    out->spec_constant_count = p->spec_constant_count;
    memcpy(out->local_size, p->local_size, sizeof out->local_size);
    memcpy(out->groups, p->groups, sizeof out->groups);
    if (p->push_size)
        memcpy(out->push, p->push, p->push_size);
    out->push_size = p->push_size;
    out->binding_buffers = p->binding_buffers;
    return VKAT_RT_OK;
}

void vkat_rt_dispatch_specialization(const vkat_rt_dispatch *d, VkSpecializationMapEntry *entries,
                                     VkSpecializationInfo *info)
{
    spec_info(d->spec_constants, d->spec_constant_count, entries, info);
}

void vkat_rt_launch_specialization(const vkat_rt_variant *v, const vkat_rt_launch *launch,
                                   VkSpecializationMapEntry *entries, VkSpecializationInfo *info)
{
    memset(info, 0, sizeof *info);
    uint32_t n = v->spec_constant_count < VKAT_RT_MAX_SPEC ? v->spec_constant_count : VKAT_RT_MAX_SPEC;
    for (uint32_t i = 0; i < n; i++) {
        entries[i].constantID = v->spec_constants[i].id;
        entries[i].offset = i * (uint32_t)sizeof(uint32_t);
        entries[i].size = sizeof(uint32_t);
    }
    info->mapEntryCount = n;
    info->pMapEntries = n ? entries : NULL;
    info->dataSize = n * sizeof(uint32_t);
    info->pData = n ? (const void *)launch->spec : NULL;
}
