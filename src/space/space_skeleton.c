/* space_skeleton.c — a starting space file for a shader as it is (`vkautotune init`), written from what its SPIR-V
 * declares: each descriptor a [buffers] entry in its slot (element type and direction from the block), the
 * push-constant block's members as [push] values in order, the workgroup size's specialization constants as
 * tunable [params] and the others at their defaults, the macros it was compiled with as one-value [params], and
 * [dispatch] in the shader's workgroups. What the module cannot tell (the problem's sizes, the element counts, how
 * many workgroups) is given a plain guess, marked TODO, that still makes the file load and run; the check compares
 * every variant with the shader at its own defaults ([check] config). */
#define _POSIX_C_SOURCE 200809L
#include "space_skeleton.h"
#include "capabilities.h"
#include "image_format.h"
#include "spec_encode.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_CAP 48
#define MAX_NAMES 192

typedef struct names {
    char taken[MAX_NAMES][NAME_CAP];
    size_t count;
} names;

/* The problem's sizes: one (what the shader bounds its invocations by, else a guess) sizing every axis, or one per
 * axis of the dispatch where the shader bounds each by something else (a 2-D pass's width and height, the literal
 * bounds a shader's #defines leave). */
typedef struct problem {
    uint32_t count, axes;       /* sizes; the dispatch axes they cover (1 with one size) */
    char name[3][NAME_CAP];
    char binding[3][24];        /* push, none, spec(N) */
    uint32_t value[3];
    char note[3][80];           /* why it is what it is, for its [problem] comment */
    int of_axis[3];             /* axis -> its size (index into name), -1: the axis is 1 */
    int spec[3];                /* the specialization constant (index into specs) a size is, -1 */
    int fixed[3];               /* a literal bound: the shader's own size, which the space cannot change */
    int guessed;                /* one size that no comparison names (N, or the first integer push member) */
    const char *member_size[32]; /* push member -> the size it carries, NULL */
    char stride[32][NAME_CAP * 2 + 4]; /* push member -> the sizes below the axis it strides ("w * h"), "" none */
    uint32_t member_comps[32];  /* and in which components of a vector (0: a scalar) */
    const char *field_size[4][32]; /* the same for parameter block b's members (si->block_members[b]) */
    uint32_t field_comps[4][32];
    char count_text[NAME_CAP * 3 + 8]; /* the sizes' product ("width * height"): a buffer's elements per item */
} problem;

/* A space name from a shader's identifier: letters, digits and '_', not starting with a digit; `fallback` with the
 * index when the shader keeps no name. Unique among the names given so far (a suffix _2, _3, ...). */
static void pick_name(names *nm, const char *raw, const char *fallback, unsigned index, char out[NAME_CAP])
{
    char base[40];
    size_t n = 0;
    for (const char *p = raw; *p && n + 1 < sizeof base; p++)
        base[n++] = isalnum((unsigned char)*p) || *p == '_' ? *p : '_';
    base[n] = 0;
    if (!n || isdigit((unsigned char)base[0]))
        snprintf(base, sizeof base, "%s%u", fallback, index);
    snprintf(out, NAME_CAP, "%s", base);
    for (unsigned k = 2;; k++) {
        size_t i = 0;
        while (i < nm->count && strcmp(nm->taken[i], out) != 0)
            i++;
        if (i == nm->count)
            break;
        snprintf(out, NAME_CAP, "%s_%u", base, k);
    }
    if (nm->count < MAX_NAMES)
        snprintf(nm->taken[nm->count++], NAME_CAP, "%s", out);
}

/* The [buffers] type for a buffer's elements, and its bytes: a scalar type [buffers] names (a vector counts as its
 * components), else 32-bit words (structs, and types [buffers] has no name for). */
static const char *element_type(char elem, unsigned bits, unsigned *type_bytes)
{
    *type_bytes = 4;
    if (elem == 'f' && (bits == 32 || bits == 16)) {
        *type_bytes = bits / 8;
        return bits == 32 ? "float32" : "float16";
    }
    if ((elem == 'i' || elem == 'u') && (bits == 32 || bits == 8)) {
        *type_bytes = bits / 8;
        return bits == 32 ? (elem == 'i' ? "int32" : "uint32") : (elem == 'i' ? "int8" : "uint8");
    }
    return "uint32";
}

static const char *spec_value_text(const vkat_spec_decl *d, char buf[32])
{
    if (d->is_bool)
        return d->default_bits ? "1" : "0";
    if (d->is_float) {
        float f;
        memcpy(&f, &d->default_bits, sizeof f);
        snprintf(buf, 32, "%g", (double)f);
    } else if (d->is_signed) {
        snprintf(buf, 32, "%d", (int32_t)d->default_bits);
    } else {
        snprintf(buf, 32, "%u", d->default_bits);
    }
    return buf;
}

/* Is a float constant's default a whole number, which a parameter (integers, encoded as the float) can give? */
static int whole_default(const vkat_spec_decl *d)
{
    if (d->bytes != 4)
        return d->default_bits == 0; /* a 16- or 64-bit float's bits are not kept whole here: only zero is sure */
    float f;
    memcpy(&f, &d->default_bits, sizeof f);
    return f == (float)(int32_t)f && f >= -2147483648.0f && f < 2147483648.0f;
}

/* A note on a constant that is not a 32-bit integer: how the space's integer values reach it (spec_encode.h). */
static const char *type_note(const vkat_spec_decl *d)
{
    static char note[128];
    const char *type = vkat_spec_type_name(d);
    if (d->is_bool)
        snprintf(note, sizeof note, " (a bool: 0 is false, any other value true)");
    else if (d->is_float)
        snprintf(note, sizeof note, " (a %s: each value is passed as that float%s)", type,
                 d->bytes == 4 ? "" : "; an export carries 4-byte constants only");
    else
        snprintf(note, sizeof note, " (an %s: each 32-bit value %s; an export carries 4-byte constants only)", type,
                 d->bytes == 2 ? "must fit" : "is widened");
    return note;
}

/* The device features the module's capabilities need ([kernel] features, so that the device enables them and
 * one without them is refused), and as comments what else they need of the device. */
static void write_needs(FILE *o, const vkat_spirv_info *si)
{
    const char *written[48];
    size_t n = 0;
    for (uint32_t i = 0; i < si->capability_count; i++) {
        const char *f = vkat_capability_feature(si->capabilities[i]);
        size_t k = 0;
        while (f && k < n && strcmp(written[k], f) != 0)
            k++;
        if (!f || k < n)
            continue;
        fprintf(o, "%s%s", n ? ", " : "features = ", f);
        written[n++] = f;
    }
    if (si->needs_scalar_layout) /* no capability declares it: the module is valid by the scalar rules alone */
        fprintf(o, "%sscalarBlockLayout", n++ ? ", " : "features = ");
    if (n)
        fprintf(o, "   ; from the shader's SPIR-V%s\n",
                si->needs_scalar_layout ? " (its scalar block layout)" : " capabilities");
    for (uint32_t i = 0; i < si->capability_count; i++) {
        const char *need = vkat_capability_need(si->capabilities[i]);
        int op = vkat_capability_subgroup_operation(si->capabilities[i]);
        if (need)
            fprintf(o, "; the shader needs %s of the device, which vkautotune does not check\n", need);
        else if (op >= 0)
            fprintf(o, "; the shader needs subgroup %s operations of the device: one that does not list them refuses "
                       "each variant (constraints may test device.subgroup_%s)\n",
                    vkat_subgroup_operation_name((unsigned)op), vkat_subgroup_operation_name((unsigned)op));
    }
}

/* The workgroup dimension (0..2) constant_id `id` sizes, or -1. */
static int workgroup_dim(const vkat_spirv_info *si, uint32_t id)
{
    for (int k = 0; k < 3; k++)
        if (si->local_size_spec[k] == (int32_t)id)
            return k;
    return -1;
}

/* Is specs[i] the one to write for its constant_id? glslang may declare one twice (local_size_x_id beside the
 * shader's own `layout(constant_id = 0) const uint WG = 64`): the first with a name, else the first. */
static int first_of_id(const vkat_spirv_info *si, uint32_t i)
{
    uint32_t pick = si->spec_count;
    for (uint32_t j = 0; j < si->spec_count; j++)
        if (si->specs[j].id == si->specs[i].id &&
            (pick == si->spec_count || (!si->specs[pick].name[0] && si->specs[j].name[0])))
            pick = j;
    return pick == i;
}

/* The workgroup x sizes to try for a 1-D workgroup: powers of two from 32 to 512. */
static const uint32_t x_sizes[5] = {32, 64, 128, 256, 512};

/* x_sizes, and the shader's own default among them. */
static void write_x_sizes(FILE *o, uint32_t def)
{
    int placed = def < 1 || def > 1024;
    for (size_t i = 0; i < VKAT_COUNTOF(x_sizes); i++) {
        if (!placed && def <= x_sizes[i]) {
            fprintf(o, "%s%u", i ? ", " : "", def);
            placed = 1;
            if (def == x_sizes[i])
                continue;
        }
        fprintf(o, "%s%u", i || def < x_sizes[0] ? ", " : "", x_sizes[i]);
    }
    if (!placed)
        fprintf(o, ", %u", def);
}

/* Is a -D macro function-like: a '(' in its name, before any '='? */
static int function_like(const char *define)
{
    size_t name = strcspn(define, "=");
    const char *paren = strchr(define, '(');
    return paren && (size_t)(paren - define) < name;
}

static int is_size_spec(const problem *pb, uint32_t i)
{
    for (uint32_t k = 0; k < pb->count; k++)
        if (pb->spec[k] == (int)i)
            return 1;
    return 0;
}

/* Does the shader read the group builtins only for grid-stride loops (compile.h grid_stride), with nothing else that
 * combines invocations (shared memory, subgroup operations)? Then neither its workgroup size nor its workgroup count
 * changes what it computes, and both are tuned. */
static int grid_stride(const vkat_spirv_info *si)
{
    if (!si->grid_stride || si->shared_bytes)
        return 0;
    for (uint32_t i = 0; i < si->capability_count; i++)
        if (vkat_capability_subgroup_operation(si->capabilities[i]) >= 0)
            return 0;
    return 1;
}

/* Why a workgroup size the shader fixes in its source (`layout(local_size_x = 64) in;`) cannot be replaced per
 * variant without changing what it computes, or NULL when it can: every invocation's work must depend on
 * gl_GlobalInvocationID alone. Shared memory is sized by the shader (often for that one size: a larger workgroup
 * writes past it, which takes a CPU driver down), and the group builtins and subgroup operations give other
 * results at other sizes (one output per workgroup, `gl_WorkGroupID.x * 64 + gl_LocalInvocationID.x`). */
static const char *literal_size_fixed_because(const vkat_spirv_info *si)
{
    for (int k = 0; k < 3; k++)
        if (si->local_size_spec[k] >= 0)
            return "a specialization constant sets part of it";
    if (si->module_size_constant)
        return "the module's size is a WorkgroupSize constant (its code reads gl_WorkGroupSize), which only its "
               "source can change";
    if (si->shared_bytes)
        return "the shader's shared memory may be sized for it";
    if (si->reads_group_builtins && !grid_stride(si))
        return "the shader reads gl_WorkGroupID, gl_LocalInvocationID or its subgroup's position, whose meaning "
               "depends on it";
    for (uint32_t i = 0; i < si->capability_count; i++)
        if (vkat_capability_subgroup_operation(si->capabilities[i]) >= 0)
            return "the shader's subgroup operations may combine other invocations at other sizes";
    return NULL;
}

/* The x and y sizes of a 2-D workgroup to try (x_sizes is the 1-D one's). */
static const uint32_t planar_sizes[2][VKAT_COUNTOF(x_sizes)] = {{8, 16, 32, 64, 128}, {1, 2, 4, 8, 16}};

/* `NAME=value` after the check's reference configuration's other entries. */
static void append_config(char *reference_config, size_t config_size, const char *name, uint32_t value)
{
    size_t used = strlen(reference_config);
    snprintf(reference_config + used, config_size - used, "%s%s=%u", used ? "," : "", name, value);
}

/* `NAME = own, sizes...` (own not twice), own the check's reference: a workgroup size's values; the caller ends the
 * line with its comment. */
static void write_own_first(FILE *o, const char *name, uint32_t own, const uint32_t *sizes, size_t count,
                            char *reference_config, size_t config_size)
{
    fprintf(o, "%s = %u", name, own);
    for (size_t i = 0; i < count; i++)
        if (sizes[i] != own)
            fprintf(o, ", %u", sizes[i]);
    append_config(reference_config, config_size, name, own);
}

/* The literal workgroup size as parameters (replace_local_size): x over x_sizes for a 1-D workgroup, x and y over
 * planar sizes for a 2-D one, each with the shader's own first (the check's reference); z stays the shader's. */
static void write_literal_sizes(FILE *o, const vkat_spirv_info *si, char wg[3][NAME_CAP], char *reference_config,
                                size_t config_size)
{
    static const char *const wg_params[2] = {"WG_X", "WG_Y"};
    int dims = si->local_size[1] > 1 ? 2 : 1;
    for (int k = 0; k < dims; k++) {
        uint32_t own = si->local_size[k];
        write_own_first(o, wg_params[k], own, dims == 1 ? x_sizes : planar_sizes[k], VKAT_COUNTOF(x_sizes),
                        reference_config, config_size);
        fprintf(o, "   ; the workgroup's %c size, fixed in the shader at %u: each variant's replaces it\n", "xy"[k],
                own);
        snprintf(wg[k], NAME_CAP, "%s", wg_params[k]);
    }
}

/* The workgroup count of a grid-stride shader as a parameter ([dispatch] groups), 0 first: one invocation per
 * element as the shader is dispatched, the check's reference. */
static void write_groups_per_cu(FILE *o, char *reference_config, size_t config_size)
{
    fprintf(o, "GROUPS_PER_CU = 0, 1, 2, 4, 8, 16, 32   ; workgroups per compute unit; 0: one invocation per "
               "element, as the shader is\n; dispatched (the check's reference)\n");
    append_config(reference_config, config_size, "GROUPS_PER_CU", 0);
}

/* 1 + the binding that holds one result per workgroup (compile.h per_group_output) in a dispatch of one invocation
 * per item, 0 none: its values depend on the workgroup size. One workgroup per item (a row) does not. */
static uint32_t per_group_output(const vkat_spirv_info *si)
{
    for (uint32_t k = 0; !si->bound_by_group && k < si->binding_count; k++)
        if (si->bindings[k].per_group_output)
            return k + 1;
    return 0;
}

/* Does a macro the shader #defines itself size its workgroup (`#define TILE 16`, `layout(local_size_x = TILE) in;`:
 * macros[axis], checked by the caller against the module)? Then replace_defines tunes it, and everything else the
 * macro sizes (shared tiles, strides) follows, so shared memory and group builtins do not keep the size fixed;
 * one result per workgroup does (each other size computes other results). */
static int macro_sized(const vkat_spirv_info *si, const char (*macros)[VKAT_SIZE_MACRO_CAP])
{
    int any = 0;
    for (int k = 0; macros && k < 3; k++)
        any |= macros[k][0] && si->local_size_spec[k] < 0;
    return any && !per_group_output(si);
}

/* The macros of macro_sized as parameters, the shader's own value first (the check's reference): one used for x and
 * y alike (a square tile) over 4-32, a 1-D one over x_sizes, two of a 2-D workgroup over planar sizes each. */
static void write_macro_sizes(FILE *o, const vkat_spirv_info *si, const char (*macros)[VKAT_SIZE_MACRO_CAP],
                              char wg[3][NAME_CAP], char *reference_config, size_t config_size)
{
    static const uint32_t square[] = {4, 8, 16, 32};
    for (int k = 0; k < 3; k++) {
        if (!macros[k][0] || si->local_size_spec[k] >= 0)
            continue;
        snprintf(wg[k], NAME_CAP, "%s", macros[k]);
        int first = 1;
        for (int j = 0; j < k; j++)
            first &= strcmp(macros[j], macros[k]) != 0;
        if (!first)
            continue;
        int tile = k == 0 && !strcmp(macros[1], macros[0]), planes = si->local_size[1] > 1 && k < 2;
        uint32_t own = si->local_size[k];
        write_own_first(o, macros[k], own, tile ? square : planes ? planar_sizes[k] : x_sizes,
                        tile ? VKAT_COUNTOF(square) : VKAT_COUNTOF(x_sizes), reference_config, config_size);
        fprintf(o, "   ; the workgroup's %s (the shader's `#define %s %u`): each variant's replaces it\n",
                tile ? "x and y size" : k == 0 ? "x size" : k == 1 ? "y size" : "z size", macros[k], own);
    }
}

static void write_params(FILE *o, const vkat_spirv_info *si, char spec_names[][NAME_CAP], char wg[3][NAME_CAP],
                         const problem *pb, const char *const *defines, size_t define_count,
                         const char (*macros)[VKAT_SIZE_MACRO_CAP], char *reference_config, size_t config_size)
{
    fprintf(o, "[params]\n");
    if (grid_stride(si))
        fprintf(o, "; A grid-stride loop (i from gl_GlobalInvocationID.x, i += gl_NumWorkGroups.x * "
                   "gl_WorkGroupSize.x) is all the\n; shader reads the group builtins for: each element is computed "
                   "alike at any workgroup size and\n; count, so both are tuned\n");
    int tunable = 0;
    for (uint32_t i = 0; i < si->spec_count; i++) {
        const vkat_spec_decl *d = &si->specs[i];
        if (!first_of_id(si, i) || is_size_spec(pb, i)) /* a problem size is in [problem] */
            continue;
        int dim = workgroup_dim(si, d->id);
        char buf[32];
        if (d->is_float && !whole_default(d)) {
            fprintf(o, "; %s = %s @spec(%u)   ; a %s constant whose default is not a whole number: a parameter's "
                       "values are, so the shader's value stays\n",
                    spec_names[i], spec_value_text(d, buf), d->id, vkat_spec_type_name(d));
        } else if (dim == 0 && per_group_output(si)) {
            fprintf(o, "%s = %u @spec(%u)   ; the workgroup's x size, kept at the shader's: '%s' holds one result per "
                       "workgroup\n; (stored at gl_WorkGroupID), so each other size computes other results than the "
                       "check's reference; TODO:\n; with a reference shader that combines them, the sizes to try\n",
                    spec_names[i], d->default_bits, d->id, si->bindings[per_group_output(si) - 1].name);
            snprintf(reference_config, config_size, "%s=%u", spec_names[i], d->default_bits);
            tunable = 1;
        } else if (dim == 0) {
            fprintf(o, "%s = ", spec_names[i]);
            write_x_sizes(o, d->default_bits);
            fprintf(o, " @spec(%u)   ; the workgroup's x size (the shader's default: %u)\n", d->id, d->default_bits);
            snprintf(reference_config, config_size, "%s=%u", spec_names[i], d->default_bits);
            tunable = 1;
        } else {
            fprintf(o, "%s = %s @spec(%u)   ; %s; TODO: the values to try%s\n", spec_names[i],
                    spec_value_text(d, buf), d->id, dim > 0 ? "a workgroup size" : "the shader's default",
                    d->is_float || d->is_bool || d->bytes != 4 ? type_note(d) : "");
        }
        if (dim >= 0)
            snprintf(wg[dim], NAME_CAP, "%s", spec_names[i]);
    }
    for (size_t i = 0; i < define_count; i++) {
        if (function_like(defines[i]))
            continue;
        const char *eq = strchr(defines[i], '=');
        fprintf(o, "%.*s = %s   ; as given to init (-D); TODO: the values to try\n",
                (int)(eq ? (size_t)(eq - defines[i]) : strlen(defines[i])), defines[i], eq ? eq + 1 : "1");
        tunable = 1;
    }
    const char *fixed = literal_size_fixed_because(si);
    if (!wg[0][0] && macro_sized(si, macros)) {
        write_macro_sizes(o, si, macros, wg, reference_config, config_size);
        tunable = 1;
    } else if (!fixed && !wg[0][0]) {
        write_literal_sizes(o, si, wg, reference_config, config_size);
        tunable = 1;
    }
    if (grid_stride(si)) {
        write_groups_per_cu(o, reference_config, config_size);
    } else if (!tunable) {
        fprintf(o, "; TODO: nothing here is tuned yet: the workgroup size is fixed in the shader (%u, %u, %u), and\n"
                   "; replace_local_size = true in [kernel] would tune it, but\n; %s.\n"
                   "; %s\n", si->local_size[0], si->local_size[1], si->local_size[2], fixed ? fixed : "?",
                si->module_template ? "A specialization constant is a parameter too (NAME = 1, 2, 4 @spec(ID): its "
                                      "constant_id)"
                                    : "A macro the shader reads is a parameter too (NAME = 1, 2, 4: #defined in each "
                                      "variant)");
    }
    fprintf(o, "\n");
    /* A function-like macro (-D 'LOAD(b,i)=b[i]') is text with parameters, not a value to tune: [defines]. */
    int any = 0;
    for (size_t i = 0; i < define_count; i++) {
        if (!function_like(defines[i]))
            continue;
        const char *eq = strchr(defines[i], '=');
        fprintf(o, "%s%.*s = %s   ; as given to init (-D)\n", any++ ? "" : "[defines]\n",
                (int)(eq ? (size_t)(eq - defines[i]) : strlen(defines[i])), defines[i], eq ? eq + 1 : "1");
    }
    if (any)
        fprintf(o, "\n");
}

/* [check] compare.NAME = unordered for each output stored at the slots an atomic hands out (a stream compaction's
 * list, marching cubes' triangles): which element holds what depends on the order the invocations ran in, so an
 * element-by-element check failed variants (and the reference's second run) at random. */
static void write_unordered(FILE *o, const vkat_spirv_info *si, char buf_names[][NAME_CAP])
{
    for (uint32_t k = 0; k < si->binding_count; k++)
        if (si->bindings[k].appended && !(si->bindings[k].access & 1) &&
            si->bindings[k].kind == VKAT_DESC_STORAGE_BUFFER)
            fprintf(o, "compare.%s = unordered   ; the shader stores into it at the index an atomic returns (an "
                       "append): its order changes from run to run\n", buf_names[k]);
}

/* [constraints]: a workgroup of two or three dimensions whose sizes are tuned has combinations beyond the device's
 * invocations (128 x 16), which without the constraint each counted as a failed variant rather than one skipped. */
static void write_constraints(FILE *o, const vkat_spirv_info *si, char wg[3][NAME_CAP])
{
    char product[3 * NAME_CAP + 8] = "";
    int tuned = 0, terms = 0;
    for (int k = 0; k < 3; k++) {
        size_t at = strlen(product);
        tuned += wg[k][0] != 0;
        if (wg[k][0])
            snprintf(product + at, sizeof product - at, "%s%s", terms++ ? " * " : "", wg[k]);
        else if (si->local_size[k] > 1)
            snprintf(product + at, sizeof product - at, "%s%u", terms++ ? " * " : "", si->local_size[k]);
    }
    if (tuned && terms >= 2)
        fprintf(o, "[constraints]\ninvocations = %s <= device.max_workgroup_invocations   ; the device's limit on a "
                   "workgroup\n\n", product);
}

/* An image binding as a [buffers] entry: its format (the one a storage image declares, else rgba8, rgba8i or rgba8ui
 * by what the shader reads: a guess), as many
 * sizes as it has dimensions, in / out / inout from its access or `sampled` when read through a sampler. */
static void write_image(FILE *o, const __typeof__(((vkat_spirv_info *)0)->bindings[0]) *b, const char *name,
                        const problem *pb)
{
    const vkat_image_format *f = vkat_image_format_from_spirv(b->image_format);
    int sampled = b->kind == VKAT_DESC_COMBINED_IMAGE_SAMPLER;
    if (b->image_arrayed || b->image_dim > 2) {
        fprintf(o, "; set %u, binding %u ('%s') is an arrayed, multisampled, cube or rectangle image, which "
                   "vkautotune does not make (1D, 2D and 3D only)\n", b->set, b->binding, name);
        return;
    }
    if (!f && b->image_format) {
        fprintf(o, "; set %u, binding %u ('%s') is an image of a format vkautotune does not make (it makes %s)\n",
                b->set, b->binding, name, vkat_image_format_names());
        return;
    }
    if (!f) /* no declared format (a sampled image): four channels of what the shader reads, a guess */
        f = vkat_image_format_find(b->image_sampled == 'i' ? "rgba8i" : b->image_sampled == 'u' ? "rgba8ui" : "rgba8");
    int guessed = !b->image_format;
    /* an image without qualifiers that nothing writes (a filter's source) is read only: an input, not an output */
    const char *dir = sampled                             ? "sampled"
                      : (b->access & 1) || !b->stored     ? "in"
                      : (b->access & 2)                   ? "out"
                                                          : "inout";
    const char *init = !strcmp(dir, "out")                  ? "zero"
                       : vkat_image_format_reads_as(f) != 'f' ? "random(0, 16)"
                                                              : "random(0, 1)";
    fprintf(o, "%s = %s, image(", name, f->name);
    for (uint32_t d = 0; d <= b->image_dim; d++) /* each dimension the size of its axis, or the first size */
        fprintf(o, "%s%s", d ? ", " : "",
                d < pb->axes && pb->of_axis[d] >= 0 ? pb->name[pb->of_axis[d]] : d < pb->axes ? "1" : pb->name[0]);
    fprintf(o, "), %s, %s @set(%u) @binding(%u)   ; TODO: its size%s\n", init, dir, b->set, b->binding,
            guessed ? " and format (the shader does not declare one)" : "");
}

/* A texel-buffer binding as a [buffers] entry: the format a storage texel buffer declares, else one channel of
 * what the shader reads (r32f, r32i, r32ui: a guess), the problem size in texels, `uniform` for a uniform texel
 * buffer, in / out / inout from a storage one's access. */
static void write_texel(FILE *o, const __typeof__(((vkat_spirv_info *)0)->bindings[0]) *b, const char *name,
                        const char *count)
{
    const vkat_image_format *f = vkat_image_format_from_spirv(b->image_format);
    if (!f && b->image_format) {
        fprintf(o, "; set %u, binding %u ('%s') is a texel buffer of a format vkautotune does not make (it makes "
                   "%s)\n", b->set, b->binding, name, vkat_image_format_names());
        return;
    }
    const vkat_image_format *guess = vkat_image_format_find(b->image_sampled == 'i'   ? "r32i"
                                                            : b->image_sampled == 'u' ? "r32ui"
                                                                                      : "r32f");
    const vkat_image_format *use = f ? f : guess;
    const char *dir = b->kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER ? "uniform"
                      : (b->access & 1)                         ? "in"
                      : (b->access & 2)                         ? "out"
                                                                : "inout";
    int integer = vkat_image_format_reads_as(use) != 'f';
    const char *init = !strcmp(dir, "out")              ? "zero"
                       : integer                        ? "random(0, 16)"
                       : vkat_image_format_is_unorm(use) ? "random(0, 1)"
                                                        : "random(-1, 1)";
    fprintf(o, "%s = %s, texels(%s), %s, %s @set(%u) @binding(%u)   ; TODO: its texel count%s\n", name, use->name,
            count, init, dir, b->set, b->binding, f ? "" : " and format (the shader does not declare one)");
}

/* "2 * i + 2", "4 * n": m * x + e, the terms that are not 1 and 0. */
static void affine_text(char *out, size_t size, uint64_t m, const char *x, int64_t e)
{
    size_t at = (size_t)(m == 1 ? snprintf(out, size, "%s", x)
                                : snprintf(out, size, "%llu * %s", (unsigned long long)m, x));
    if (e && at < size)
        snprintf(out + at, size - at, " %c %llu", e > 0 ? '+' : '-', (unsigned long long)(e > 0 ? e : -e));
}

/* The items of a run-time array, *mult * N + *extra: the problem's (1, 0), or as many as the shader indexes where
 * it indexes it up to a * i + b for i < N (two elements per invocation, a vec4 as four floats, a shift by one: sized
 * N, it wrote past the end or read zeros). Only for a 1-D problem: a product of sizes per axis is not one index's
 * range. note: why, "" when nothing to say. Returns whether the index sized it. */
static int indexed_count(const __typeof__(((vkat_spirv_info *)0)->bindings[0]) *b, const char *name,
                         const problem *pb, uint32_t axes, uint32_t *mult, int64_t *extra, char *note, size_t note_size)
{
    uint32_t a = b->index_multiple;
    char index[48], items[sizeof pb->count_text + 48];
    *mult = 1, *extra = 0, note[0] = 0;
    if (!b->runtime_array || !b->elem_stride || !a || (a == 1 && b->index_offset <= 0))
        return 0;
    affine_text(index, sizeof index, a, "i", b->index_offset);
    if (pb->count != 1 || pb->axes != 1 || axes != 1) {
        snprintf(note, note_size, "; %s: indexed up to %s (i the invocation's x), not followed for a %u-D problem\n",
                 name, index, axes > pb->axes ? axes : pb->axes);
        return 0;
    }
    /* the largest index a * (N - 1) + b, one more items; at least a * N (a spare one for 2 * i alone) */
    *mult = a, *extra = (int64_t)b->index_offset - a + 1 > 0 ? (int64_t)b->index_offset - a + 1 : 0;
    affine_text(items, sizeof items, *mult, pb->count_text, *extra);
    if (b->index_guarded) /* `if (2 * i + 1 < n)`: the index below the size, and the offset past it */
        snprintf(note, note_size, "; %s: the shader bounds its index by %s itself (reaching %lld past it), so %s "
                 "items%s\n", name, pb->count_text, (long long)*extra, items,
                 b->index_unknown ? " (another of its indices is not followed)" : "");
    else
        snprintf(note, note_size, "; %s: the shader indexes it up to %s for i < %s, so %s items%s\n", name, index,
                 pb->count_text, items, b->index_unknown ? " (another of its indices is not followed)" : "");
    return 1;
}

/* At least the items an index reaches whatever the invocation (`pos[j]` for j below a literal, an n-body loop over
 * a fixed count), where that is more than the count gives at the default sizes: max(COUNT, ITEMS). Sized by the
 * invocations alone, such a loop read far past the buffer's end, which no check sees. */
static void fixed_reach(const __typeof__(((vkat_spirv_info *)0)->bindings[0]) *b, const char *name, uint64_t header,
                        uint64_t per, uint64_t at_default, char *count, size_t size, char *note, size_t note_size)
{
    uint64_t items = header + per * b->index_fixed;
    size_t len = strlen(note), n = strlen(count);
    if (!b->index_fixed || items <= at_default || n + 32 > size)
        return;
    memmove(count + 4, count, n + 1);
    memcpy(count, "max(", 4);
    snprintf(count + 4 + n, size - 4 - n, ", %llu)", (unsigned long long)items);
    if (len < note_size)
        snprintf(note + len, note_size - len, "; %s: the shader reads element %u whatever the invocation (a loop over "
                 "a fixed count), so at least %llu items\n", name, b->index_fixed - 1, (unsigned long long)items);
}

/* A buffer's element count in elements of its type (tb bytes): a block without a run-time array is as many as its
 * bytes (a uniform block of mixed members included), one with a run-time array the members before it and then per
 * item of the array (its stride) the count indexed_count gives. Returns whether the index sized it. */
static int buffer_count(const __typeof__(((vkat_spirv_info *)0)->bindings[0]) *b, const char *name, unsigned tb,
                        const problem *pb, uint32_t axes, char *count, size_t size, char *note, size_t note_size)
{
    unsigned header = (b->elem_offset + tb - 1) / tb, per = b->elem_stride >= tb ? b->elem_stride / tb : 1;
    uint32_t mult;
    int64_t extra;
    int by_index = indexed_count(b, name, pb, axes, &mult, &extra, note, note_size);
    if (!b->runtime_array || !b->elem_stride) {
        snprintf(count, size, "%u", b->block_bytes >= tb ? (b->block_bytes + tb - 1) / tb : 1);
        return 0;
    }
    size_t at = header ? (size_t)snprintf(count, size, "%u + ", header) : 0;
    if (at < size)
        affine_text(count + at, size - at, (uint64_t)per * mult, pb->count_text, (int64_t)per * extra);
    uint64_t n = 1; /* the items at the default sizes */
    for (uint32_t i = 0; i < pb->count; i++)
        n *= pb->value[i];
    fixed_reach(b, name, header, per, header + per * (mult * n + (uint64_t)extra), count, size, note, note_size);
    return by_index;
}

/* Is a member (or its component comp, 1-based; 0 the whole member) a number a problem size can be: a 32-bit integer
 * or float, or a component of a vector of them (`vec2 raster_size` compared with the converted index)? */
static int size_member(const vkat_block_member *m, uint32_t comp)
{
    int scalar = m->kind == 'i' || m->kind == 'f', vector = m->vec_kind == 'i' || m->vec_kind == 'f';
    return m->name[0] && ((scalar && !comp) || (vector && comp >= 1 && comp <= m->components));
}

/* The parameter block (index into si->block_members) of binding k, -1: none. */
static int block_of(const vkat_spirv_info *si, int32_t k)
{
    for (uint32_t b = 0; k >= 0 && b < si->block_count; b++)
        if (si->block_binding[b] == (uint32_t)k)
            return (int)b;
    return -1;
}

/* The parameter block member the shader bounds its invocations by (`if (i >= ubo.count) return;`, `uv.x >=
 * params.size.x`), NULL: none. */
static const vkat_block_member *bounding_member(const vkat_spirv_info *si)
{
    int b = block_of(si, si->bound_block);
    if (b < 0 || si->bound_block_member < 0 || (uint32_t)si->bound_block_member >= si->block_member_count[b])
        return NULL;
    const vkat_block_member *m = &si->block_members[b][si->bound_block_member];
    return size_member(m, m->vec_kind ? 1 : 0) ? m : NULL;
}

/* The parameter block member an axis bound of kind 'u' names (compile.h), NULL where it is not one. */
static const vkat_block_member *axis_member(const vkat_spirv_info *si, int a, int *block)
{
    const __typeof__(si->axis_bound[0]) *bd = &si->axis_bound[a];
    *block = bd->kind == 'u' ? block_of(si, (int32_t)(bd->value >> 8)) : -1;
    return *block >= 0 && (bd->value & 0xffu) < si->block_member_count[*block]
               ? &si->block_members[*block][bd->value & 0xffu]
               : NULL;
}

/* Is every parameter block member that bounds the invocations a problem size here (its [fields] entry carries
 * one)? An output stored only under those bounds is then written up to the size: `out`, which the check covers
 * element by element, rather than `inout` from zero. */
static int bounding_members_sized(const vkat_spirv_info *si, const problem *pb)
{
    int any = 0, b = block_of(si, si->bound_block);
    if (b >= 0 && si->bound_block_member >= 0) {
        if (b >= 4 || si->bound_block_member >= 32 || !pb->field_size[b][si->bound_block_member])
            return 0;
        any = 1;
    }
    for (int a = 0; a < 3; a++) {
        if (si->axis_bound[a].kind != 'u')
            continue;
        int ab = block_of(si, (int32_t)(si->axis_bound[a].value >> 8));
        uint32_t m = si->axis_bound[a].value & 0xffu;
        if (ab < 0 || ab >= 4 || m >= 32 || !pb->field_size[ab][m])
            return 0;
        any = 1;
    }
    return any;
}

static void write_buffers(FILE *o, const vkat_spirv_info *si, char buf_names[][NAME_CAP], const problem *pb,
                          uint32_t axes)
{
    fprintf(o, "[buffers]\n");
    for (uint32_t k = 0; k < si->binding_count; k++) {
        const __typeof__(si->bindings[0]) *b = &si->bindings[k];
        if (b->kind == VKAT_DESC_STORAGE_IMAGE || b->kind == VKAT_DESC_COMBINED_IMAGE_SAMPLER) {
            write_image(o, b, buf_names[k], pb);
            continue;
        }
        if (b->kind == VKAT_DESC_STORAGE_TEXEL_BUFFER || b->kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER) {
            write_texel(o, b, buf_names[k], pb->count_text);
            continue;
        }
        if (b->kind != VKAT_DESC_STORAGE_BUFFER && b->kind != VKAT_DESC_UNIFORM_BUFFER) {
            fprintf(o, "; set %u, binding %u ('%s') is a %s, which vkautotune cannot bind (buffers, storage images, "
                       "images with their sampler and texel buffers only)\n", b->set, b->binding, b->name,
                    vkat_descriptor_kind_name(b->kind));
            continue;
        }
        unsigned tb = 4;
        /* a struct of one 32-bit scalar type (a particle of vec4s) is counted in that type */
        const char *type = b->elem == 's' && b->elem_leaf ? element_type(b->elem_leaf, 32, &tb)
                                                          : element_type(b->elem, b->elem_bits, &tb);
        int uniform = b->kind == VKAT_DESC_UNIFORM_BUFFER, atomic = b->atomic && !uniform;
        /* A buffer the shader adds to with atomics (counters, histograms) holds what it reads back, and one it
         * writes only parts of (each element's one member) keeps the rest: inout, from zero as an application
         * clears it, whatever its qualifiers say (writeonly is common there). */
        unsigned header = (b->elem_offset + tb - 1) / tb, per = b->elem_stride >= tb ? b->elem_stride / tb : 1;
        int runtime = b->runtime_array && b->elem_stride;
        char count[sizeof pb->count_text + 96], note[640];
        int indexed = buffer_count(b, buf_names[k], tb, pb, axes, count, sizeof count, note, sizeof note);
        /* indexed at 2 * i + 1 and 2 * i + 2, it does not write every element (a scan's first): kept from zero */
        int per_group = b->per_group_output && per_group_output(si); /* one result per workgroup: the first few */
        int partial = !atomic && !uniform && (b->access & 2 || per_group || b->appended) &&
                      (b->partial_writes || b->bounded_by_buffer || (indexed && !b->index_covered) || per_group ||
                       b->appended || (b->bounded_by_size_member && !bounding_members_sized(si, pb)));
        /* a buffer without readonly that nothing stores to is read only: an input, not an output to compare */
        int read_only = (b->access & 1) || (!b->stored && !(b->access & 2));
        const char *dir = uniform  ? "uniform"
                          : atomic || partial ? "inout"
                          : read_only ? "in"
                          : (b->access & 2) ? "out"
                                            : "inout";
        /* a range's ends (CSR's row offsets): nondecreasing, one item each, which keeps the ranges inside the
         * other buffers' N items; random ones wrapped below zero, ranges of 4 billion items */
        int ranges = b->range_ends && !strcmp(dir, "in") && type[0] != 'f';
        const char *init = strcmp(dir, "out") == 0 || atomic || partial ? "zero"
                           : type[0] == 'f'                             ? "random(-1, 1)"
                           : ranges                                     ? "iota(0, 1)"
                                                                        : "random(0, 16)";
        fprintf(o, "%s", note);
        if (ranges)
            fprintf(o, "; %s: the shader reads elements i and i + 1 as the ends of a range (row offsets), so "
                       "iota(0, 1): one item each\n", buf_names[k]);
        if (atomic || partial) /* its own line: the entry's comment is long already, and lines are limited */
            fprintf(o, "; %s: %s, so inout, from zero\n", buf_names[k],
                    atomic             ? "the shader's atomics read and write it"
                    : b->partial_writes ? "the shader writes parts of its elements"
                    : b->bounded_by_buffer || b->bounded_by_size_member
                        ? "how much of it the shader writes depends on a bound read from a buffer"
                    : per_group ? "the shader writes one result per workgroup into it (at gl_WorkGroupID)"
                    : b->appended ? "the shader appends to it (at the slots an atomic hands out) as far as its "
                                    "data says"
                                : "the shader's stores skip some of its elements");
        fprintf(o, "%s = %s, %s, %s, %s @set(%u) @binding(%u)   ; TODO: its element count", buf_names[k], type, count,
                init, dir, b->set, b->binding);
        if (!runtime) /* a parameter block's members are written in [fields.NAME] */
            fprintf(o, " (the block is %u bytes: %s)", b->block_bytes,
                    block_of(si, (int32_t)k) >= 0 ? "its members' values: [fields]" : "it has no run-time array");
        else if (per > 1 && b->elem == 's' && b->elem_leaf)
            fprintf(o, " (an element is a struct of %u bytes: counted in %s)", b->elem_stride, type);
        else if (per > 1 && b->elem != 'f' && b->elem != 'i' && b->elem != 'u')
            fprintf(o, " (an element is %u bytes: counted in 32-bit words)", b->elem_stride);
        else if (b->elem_stride != b->elem_bytes)
            fprintf(o, " (an element takes %u bytes, its stride: counted in %s)", b->elem_stride, type);
        if (header)
            fprintf(o, " (%u bytes of other members first)", b->elem_offset);
        fprintf(o, "\n");
    }
    fprintf(o, "\n");
}

/* " @offset(N)" when [push]'s std430 placement after the entry before (`next`) would not put a value of
 * `components` 4-byte components at the member's offset (an explicit layout(offset), std140), else "". */
static const char *offset_note(uint32_t next, uint32_t components, uint32_t offset, char buf[32])
{
    uint32_t align = components == 1 ? 4 : components == 2 ? 8 : 16;
    buf[0] = 0;
    if ((next + align - 1) / align * align != offset)
        snprintf(buf, 32, " @offset(%u)", offset);
    return buf;
}

/* A matrix member as its identity (each column, or row when row-major, one entry), a sized array's elements as 1
 * (1.0 for floats) each: zero words would make a transform or a weighted sum 0 whatever the input, which every
 * variant matches, and 1 keeps it the input's (a sum, a box filter). Returns where the last entry ends. */
static uint32_t write_strided(FILE *o, const vkat_block_member *m, const char *key, uint32_t next)
{
    if (m->count * m->vectors > VKAT_PARAM_MEMBER_VECTORS) { /* a table (a uniform block's): as many lines would
                                                                 bury the file */
        fprintf(o, "; '%s' (%u bytes at offset %u, %u elements) keeps the buffer's init; TODO: its values\n", key,
                m->size, m->offset, m->count);
        return m->offset + m->size;
    }
    for (uint32_t e = 0; e < m->count; e++)
        for (uint32_t v = 0; v < m->vectors; v++) {
            uint32_t off = m->offset + e * m->array_stride + v * m->vector_stride;
            char name[NAME_CAP + 24], at[32];
            if (m->is_matrix && m->array_stride)
                snprintf(name, sizeof name, "%s_%u_%u", key, e, v);
            else
                snprintf(name, sizeof name, "%s_%u", key, m->is_matrix ? v : e);
            fprintf(o, "%s = %s", name, m->leaf == 'f' ? "float32" : m->is_signed ? "int32" : "uint32");
            for (uint32_t l = 0; l < m->lanes; l++)
                fprintf(o, ", %s", m->is_matrix ? (l == v ? "1.0" : "0.0") : m->leaf == 'f' ? "1.0" : "1");
            fprintf(o, "%s", offset_note(next, m->lanes, off, at));
            if (e == 0 && v == 0 && m->is_matrix)
                fprintf(o, "   ; TODO: '%s' (%s, %u bytes apart), here its identity", key,
                        m->vectors == m->lanes ? "a square matrix's columns" : "a matrix's columns (rows if row-major)",
                        m->vector_stride);
            else if (e == 0 && v == 0)
                fprintf(o, "   ; TODO: '%s' (%u elements, %u bytes apart), here 1 each", key, m->count,
                        m->array_stride);
            fprintf(o, "\n");
            next = off + 4 * m->lanes;
        }
    return next;
}

/* A scalar or a vector member under write_values: the problem size where sized (in the components of the bits
 * `comps` of a vector), else 1 (1.0 for floats). */
static void write_number(FILE *o, const vkat_block_member *m, const char *key, const char *sized, uint32_t comps,
                         uint32_t next, int stride)
{
    char at[32];
    int vector = m->kind == 'o', is_float = (vector ? m->vec_kind : m->kind) == 'f';
    uint32_t n = vector ? m->components : 1, all = (1u << n) - 1, mask = !sized ? 0 : vector ? comps & all : all;
    fprintf(o, "%s = %s", key, is_float ? "float32" : m->is_signed ? "int32" : "uint32");
    for (uint32_t c = 0; c < n; c++)
        fprintf(o, ", %s", mask & (1u << c) ? sized : is_float ? "1.0" : "1");
    fprintf(o, "%s", offset_note(next, n, m->offset, at));
    if (stride)
        fprintf(o, "   ; it multiplies gl_GlobalInvocationID.%c in the shader, a stride: the size below\n",
                "xyz"[stride - 1]);
    else if (!vector && mask)
        fprintf(o, "   ; the problem size%s\n", is_float ? ", as a float" : "");
    else if (!vector) /* 1, not the size, for other integers: a flag, a stride, a loop count or a second dimension,
                         which at the size would make loops long and a dimension read past the buffers */
        fprintf(o, "   ; TODO: its value\n");
    else if (mask && mask != all) /* `i < p.counts.x`: the components compared bound the invocations */
        fprintf(o, "   ; the problem size where compared; TODO: the others\n");
    else if (mask) /* `all(lessThan(gid.xy, p.extent))`: each component bounds one axis */
        fprintf(o, "   ; the problem size in each component\n");
    else
        fprintf(o, "   ; TODO: its values (a %u-vector)\n", n);
}

/* A push member the shader multiplies a component of gl_GlobalInvocationID by (`gz * p.cstep + gy * p.w + gx`) is
 * that axis's stride in a dense layout: the product of the sizes below it (1, the default, reads and writes one row
 * over and over and leaves the rest unwritten: ncnn's layers). Only where each axis below has its own size and the
 * member carries no size itself. strides[i]: 1 + that axis where written, 0 else. */
static void push_strides(const vkat_spirv_info *si, problem *pb, uint8_t strides[32])
{
    memset(strides, 0, 32);
    for (uint32_t i = 0; i < si->push_member_count && i < 32; i++) {
        uint32_t a = si->push_stride_axis[i];
        if (a < 2 || a > pb->axes || pb->member_size[i] || si->push_members[i].kind != 'i')
            continue;
        size_t len = 0;
        for (uint32_t k = 0; k + 1 < a && pb->of_axis[k] >= 0; k++)
            len += (size_t)snprintf(pb->stride[i] + len, sizeof pb->stride[i] - len, "%s%s", k ? " * " : "",
                                    pb->name[pb->of_axis[k]]);
        if (len && pb->of_axis[a - 2] >= 0) {
            pb->member_size[i] = pb->stride[i];
            strides[i] = (uint8_t)a;
        }
    }
}

/* A member of one layout (a 32-bit scalar or vector, a matrix, a sized array of them) as write_values writes it;
 * returns where its last entry ends, or `next` where it has no such layout. */
static uint32_t write_member(FILE *o, const vkat_block_member *m, const char *key, const char *sized, uint32_t comps,
                             uint32_t next, int stride)
{
    int vector = m->kind == 'o' && m->vec_kind && m->components >= 2 && m->components <= 4;
    if (m->kind == 'f' || m->kind == 'i' || vector) {
        write_number(o, m, key, sized, comps, next, stride);
        return m->offset + 4 * (vector ? m->components : 1);
    }
    return m->leaf ? write_strided(o, m, key, next) : next;
}

/* Bytes of the block that no [push] value can give (a 64- or 16-bit scalar, a struct too deep or too large to
 * flatten): a TODO and a commented placeholder per word, whose BITS stops the file loading if uncommented as it is.
 * Zero words in their place would pass every variant a zero the shader never meant; without them the tuner refuses
 * the space (every byte the shader reads needs a value). `*placed` is where the last placeholder word ends: two
 * 16-bit members share one. */
static void write_placeholder(FILE *o, const vkat_block_member *m, const char *key, int line, uint32_t *placed)
{
    fprintf(o, "; TODO: '%s' (%u bytes at offset %u", key, m->size, m->offset);
    if (line > 0)
        fprintf(o, ", the shader's line %d", line);
    fprintf(o, ") has no [push] form\n;   (int32, uint32 or float32 values): give its words' bits, or the tuner "
               "refuses the space\n");
    uint32_t w = m->offset / 4 * 4 > *placed ? m->offset / 4 * 4 : *placed;
    for (; w < m->offset + m->size; w += 4)
        fprintf(o, "; %s_%u = uint32, BITS @offset(%u)\n", key, (w - m->offset / 4 * 4) / 4, w);
    *placed = w > *placed ? w : *placed;
}

/* The members of a block as 4-byte values under `header` ([push], [fields.NAME]): keys[i] for members[i], the
 * problem size sized_as[i] where there is one (a vector: in the components of the bits sized_comps[i]), 1 for other
 * integers and 1.0 for floats, a matrix its identity and an array 1 each (write_strided), each a TODO. `push` (the
 * push block's reflection, NULL for fields) gives a struct's or a nested array's leaves, each an entry at its offset
 * (`light_color` for `light.color`), and bytes of no [push] form a placeholder (write_placeholder); a parameter
 * block's struct is words of zeros over its init. */
static void write_values(FILE *o, const char *header, const vkat_block_member *members, uint32_t count,
                         char keys[][NAME_CAP], const char *const *sized_as, const uint32_t *sized_comps,
                         const uint8_t *stride_axis, const vkat_spirv_info *push)
{
    if (!count)
        return;
    fprintf(o, "%s\n", header);
    if (push && push->push_size > 128) /* Vulkan's least maxPushConstantsSize; NVIDIA's, AMD's, Intel's are 256 */
        fprintf(o, "; the block is %u bytes: a device whose maxPushConstantsSize is less (128 on some, lavapipe's) "
                   "cannot run it\n", push->push_size);
    uint32_t next = 0, placed = 0;
    for (uint32_t i = 0; i < count; i++) {
        const vkat_block_member *m = &members[i];
        char at[32], key[NAME_CAP * 2];
        if (m->kind == 'p') {
            fprintf(o, "; '%s' is a buffer address (buffer_reference), which vkautotune cannot supply\n", keys[i]);
        } else if (m->leaf || m->kind == 'f' || m->kind == 'i') {
            next = write_member(o, m, keys[i], sized_as[i], sized_comps[i], next, stride_axis ? stride_axis[i] : 0);
        } else if (push && i < 32 && (push->push_leaves_of & (1u << i))) {
            for (uint32_t k = 0; k < push->push_leaf_count; k++) {
                const vkat_block_member *l = &push->push_leaves[k];
                if (push->push_leaf_parent[k] != i)
                    continue;
                snprintf(key, sizeof key, "%s%s%s", keys[i], l->name[0] ? "_" : "", l->name);
                if (l->leaf || l->kind == 'f' || l->kind == 'i')
                    next = write_member(o, l, key, NULL, 0, next, 0);
                else
                    write_placeholder(o, l, key, push->push_member_line[i], &placed);
            }
        } else if (push) {
            write_placeholder(o, m, keys[i], i < 32 ? push->push_member_line[i] : 0, &placed);
        } else {
            for (uint32_t w = 0; w < (m->size + 3) / 4; w++)
                fprintf(o, "%s_%u = uint32, 0%s   ; TODO: word %u of '%s' (%u bytes at offset %u)\n", keys[i], w,
                        w ? "" : offset_note(next, 1, m->offset, at), w, m->name, m->size, m->offset);
            next = m->offset + 4 * ((m->size + 3) / 4);
        }
    }
    fprintf(o, "\n");
}

/* Each parameter block's members as [fields.NAME] (a uniform block, a storage block the shader only reads):
 * random bits there would be garbage counts and scales. The member that bounds the invocations carries its size. */
static void write_fields(FILE *o, const vkat_spirv_info *si, char buf_names[][NAME_CAP], const problem *pb)
{
    for (uint32_t b = 0; b < si->block_count; b++) {
        names *nm = calloc(1, sizeof *nm);
        char(*field_names)[NAME_CAP] = calloc(32, NAME_CAP);
        if (nm && field_names) {
            for (uint32_t i = 0; i < si->block_member_count[b]; i++)
                pick_name(nm, si->block_members[b][i].name, "m", i, field_names[i]);
            char header[NAME_CAP + 16];
            snprintf(header, sizeof header, "[fields.%s]", buf_names[si->block_binding[b]]);
            write_values(o, header, si->block_members[b], si->block_member_count[b], field_names, pb->field_size[b],
                         pb->field_comps[b], NULL, NULL);
        }
        free(nm);
        free(field_names);
    }
}

/* The index in si->specs of the specialization constant `id` where it can be a problem size (an integer, or a float
 * whose default is whole, not sizing the workgroup), else -1. */
static int size_spec_index(const vkat_spirv_info *si, uint32_t id)
{
    for (uint32_t i = 0; i < si->spec_count; i++)
        if (si->specs[i].id == id && first_of_id(si, i) && workgroup_dim(si, id) < 0 && !si->specs[i].is_bool &&
            si->specs[i].bytes == 4 && (!si->specs[i].is_float || whole_default(&si->specs[i])))
            return (int)i;
    return -1;
}

/* Can axis a's bound (si->axis_bound[a]) be a problem size: a named integer or float push or parameter block member
 * (or the component of a vector it names), a specialization constant size_spec_index takes, or a literal? */
static int axis_usable(const vkat_spirv_info *si, int a)
{
    const __typeof__(si->axis_bound[0]) *b = &si->axis_bound[a];
    int blk;
    const vkat_block_member *m = b->kind == 'p' && b->value < si->push_member_count ? &si->push_members[b->value]
                                 : b->kind == 'u'                                   ? axis_member(si, a, &blk)
                                                                                    : NULL;
    if (m)
        return size_member(m, b->comp);
    return b->kind == 'l' || (b->kind == 's' && size_spec_index(si, b->value) >= 0);
}

static int same_bound(const vkat_spirv_info *si, int a, int b)
{
    return si->axis_bound[a].kind == si->axis_bound[b].kind && si->axis_bound[a].value == si->axis_bound[b].value;
}

/* "A * B": the sizes of the axes the problem covers, an item of a buffer per invocation of a 2-D or 3-D pass. */
static void count_text(problem *pb)
{
    size_t at = 0;
    for (uint32_t a = 0; a < pb->axes; a++)
        if (pb->of_axis[a] >= 0)
            at += (size_t)snprintf(pb->count_text + at, sizeof pb->count_text - at, "%s%s", at ? " * " : "",
                                   pb->name[pb->of_axis[a]]);
}

/* One size per axis where the shader bounds gl_GlobalInvocationID's components by different things (`gid.x >=
 * p.width || gid.y >= p.height`, a literal per axis): a push member @push, a parameter block's member @none (its
 * field carries it), a specialization constant @spec, a literal @none at its value. 0, pb untouched, where fewer
 * than two distinct bounds (one size serves) or a block's member bounds the invocations but no axis. */
static int axis_sizes(names *nm, const vkat_spirv_info *si, char spec_names[][NAME_CAP], char push_names[][NAME_CAP],
                      problem *pb)
{
    static const char *const literal_names[3] = {"NX", "NY", "NZ"};
    static const char axis_letter[3] = {'x', 'y', 'z'};
    int usable[3], last = -1, distinct = 0;
    for (int a = 0; a < 3; a++) {
        usable[a] = axis_usable(si, a);
        last = usable[a] ? a : last;
        int seen = 0;
        for (int b = 0; b < a; b++)
            seen |= usable[b] && same_bound(si, a, b);
        distinct += usable[a] && !seen;
    }
    int by_axis = 0;
    for (int a = 0; a < 3; a++)
        by_axis |= usable[a] && si->axis_bound[a].kind == 'u';
    if (!usable[0] || distinct < 2 || (bounding_member(si) && !by_axis))
        return 0;
    pb->axes = (uint32_t)last + 1;
    for (int a = 0; a <= last; a++) {
        pb->of_axis[a] = -1;
        for (int b = 0; usable[a] && b < a; b++)
            if (usable[b] && same_bound(si, a, b))
                pb->of_axis[a] = pb->of_axis[b];
        const __typeof__(si->axis_bound[0]) *bd = &si->axis_bound[a];
        int blk;
        const vkat_block_member *fm = usable[a] ? axis_member(si, a, &blk) : NULL;
        uint32_t comp_bit = bd->comp ? 1u << (bd->comp - 1) : 0;
        if (usable[a] && bd->kind == 'p') /* p.size.x and p.size.y: one member, two components */
            pb->member_comps[bd->value] |= comp_bit;
        if (fm)
            pb->field_comps[blk][bd->value & 0xffu] |= comp_bit;
        if (!usable[a] || pb->of_axis[a] >= 0)
            continue;
        uint32_t k = pb->count++;
        pb->of_axis[a] = (int)k;
        pb->spec[k] = -1;
        pb->value[k] = pb->axes == 3 ? 128 : 1024;
        snprintf(pb->note[k], sizeof pb->note[k], " (the shader bounds gl_GlobalInvocationID.%c by it)",
                 axis_letter[a]);
        if (bd->kind == 'p') {
            snprintf(pb->name[k], NAME_CAP, "%s", push_names[bd->value]);
            snprintf(pb->binding[k], sizeof pb->binding[k], "push");
            pb->member_size[bd->value] = pb->name[k];
        } else if (fm) {
            pick_name(nm, fm->name, "N", (unsigned)a, pb->name[k]);
            snprintf(pb->binding[k], sizeof pb->binding[k], "none");
            pb->field_size[blk][bd->value & 0xffu] = pb->name[k];
        } else if (bd->kind == 's') {
            pb->spec[k] = size_spec_index(si, bd->value);
            snprintf(pb->name[k], NAME_CAP, "%s", spec_names[pb->spec[k]]);
            snprintf(pb->binding[k], sizeof pb->binding[k], "spec(%u)", bd->value);
        } else {
            pick_name(nm, literal_names[a], "N", (unsigned)a, pb->name[k]);
            snprintf(pb->binding[k], sizeof pb->binding[k], "none");
            pb->value[k] = bd->value;
            pb->fixed[k] = 1;
            snprintf(pb->note[k], sizeof pb->note[k], " (gl_GlobalInvocationID.%c < %u in the shader: a literal)",
                     axis_letter[a], bd->value);
        }
    }
    return 1;
}

/* The one problem size: what the shader bounds its invocations by (`if (gid >= p.n) return;`), a push member (bound
 * @push, its [push] value itself) or a specialization constant (bound @spec), a uniform block's member (@none, given
 * by its field) or a literal (`gid.x >= 3200`: @none at that value); else the block's first integer member, which a
 * flag or a stride may be; else N. It sizes every axis of the dispatch bounded by the same thing. */
static void one_size(names *nm, const vkat_spirv_info *si, char spec_names[][NAME_CAP], char push_names[][NAME_CAP],
                     problem *pb)
{
    char *size_name = pb->name[0];
    int bound = si->bound_push_member, size_spec = -1;
    /* an integer or a float, or a vector of them (a 2-D pass's extent, a count in a uvec4) */
    if (bound >= 0 && ((uint32_t)bound >= si->push_member_count ||
                       !size_member(&si->push_members[bound], si->push_members[bound].vec_kind ? 1 : 0)))
        bound = -1;
    const vkat_block_member *by_block = bound < 0 && si->bound_spec_id < 0 ? bounding_member(si) : NULL;
    int literal = bound < 0 && si->bound_spec_id < 0 && !by_block && si->axis_bound[0].kind == 'l';
    pb->count = pb->axes = 1;
    pb->value[0] = literal ? si->axis_bound[0].value : 1024;
    pb->fixed[0] = literal;
    for (uint32_t i = 0; i < si->push_member_count && !literal; i++)
        if (!size_name[0] && !by_block && (si->push_members[i].kind == 'i' || (int)i == bound) &&
            si->push_members[i].name[0] && (bound < 0 || (int)i == bound)) {
            snprintf(size_name, NAME_CAP, "%s", push_names[i]);
            pb->member_size[i] = size_name;
            pb->member_comps[i] = (int)i == bound ? si->bound_push_components : 0;
        }
    int blk = block_of(si, si->bound_block);
    if (by_block) { /* its field carries it: `count = uint32, count` */
        pick_name(nm, by_block->name, "N", 0, size_name);
        pb->field_size[blk][si->bound_block_member] = size_name;
        pb->field_comps[blk][si->bound_block_member] = si->bound_block_components;
    } else if (bound < 0 && si->bound_spec_id >= 0 &&
             (size_spec = size_spec_index(si, (uint32_t)si->bound_spec_id)) >= 0) {
        snprintf(size_name, NAME_CAP, "%s", spec_names[size_spec]);
        memset(pb->member_size, 0, sizeof pb->member_size); /* not the push member guessed first */
    }
    int pushed = size_name[0] && !by_block && size_spec < 0;
    pb->guessed = bound < 0 && size_spec < 0 && !by_block && !literal;
    if (!size_name[0])
        pick_name(nm, "N", "N", 0, size_name);
    pb->spec[0] = size_spec;
    if (size_spec >= 0)
        snprintf(pb->binding[0], sizeof pb->binding[0], "spec(%u)", si->specs[size_spec].id);
    else
        snprintf(pb->binding[0], sizeof pb->binding[0], "%s", pushed ? "push" : "none");
    if (bound >= 0 || size_spec >= 0 || by_block)
        snprintf(pb->note[0], sizeof pb->note[0], " (the shader bounds its %s by it)",
                 si->bound_by_group ? "workgroups (gl_WorkGroupID.x)" : "invocations");
    else if (literal)
        snprintf(pb->note[0], sizeof pb->note[0], " (gl_GlobalInvocationID.x < %u in the shader: a literal)",
                 pb->value[0]);
    /* `gid.x >= p.n || gid.y >= p.n`, `lessThan(gid.xy, p.extent)`: each axis bounded as x is, of this size */
    const __typeof__(si->axis_bound[0]) *x = &si->axis_bound[0];
    uint32_t member = by_block ? (uint32_t)si->bound_block << 8 | (uint32_t)si->bound_block_member : 0;
    int x_is_it = axis_usable(si, 0) && ((x->kind == 'p' && (int)x->value == bound) ||
                                         (x->kind == 's' && size_spec >= 0 && x->value == si->specs[size_spec].id) ||
                                         (x->kind == 'l' && literal) ||
                                         (x->kind == 'u' && by_block && x->value == member));
    for (int a = 1; x_is_it && a < 3 && axis_usable(si, a) && same_bound(si, 0, a); a++)
        pb->axes = (uint32_t)a + 1;
}

/* [problem.cpu]: for a 2-D or 3-D dispatch, smaller sizes on a CPU device (lavapipe, the default device without a
 * GPU), where a million invocations of a heavy shader (a ray tracer) take minutes per variant. A literal bound
 * stays: the shader's size is fixed. */
static void write_problem_cpu(FILE *o, const problem *pb, uint32_t axes)
{
    uint32_t small = axes == 3 ? 32 : 256, any = 0;
    for (uint32_t k = 0; axes >= 2 && k < pb->count; k++) {
        if (pb->fixed[k])
            continue;
        if (!any++)
            fprintf(o, "[problem.cpu]   ; on a CPU device (lavapipe): a GPU-sized %u-D problem takes far too long "
                       "there\n", axes);
        fprintf(o, "%s = %u\n", pb->name[k], small);
    }
    if (any)
        fprintf(o, "\n");
}

/* The dispatch's axes: the problem's, or the most an image binding has (a volume written through an image3D), or,
 * where no comparison names the size, the axes of gl_GlobalInvocationID the shader reads.
 * *unorm_out: whether a UNORM image or texel buffer is written (the check then allows its rounding). */
static uint32_t dispatch_axes(const vkat_spirv_info *si, const problem *pb, uint32_t *unorm_out)
{
    uint32_t axes = pb->axes;
    if (pb->guessed && si->global_axes_read > axes) /* nothing bounds it: as many axes as it reads (vec3(gid)) */
        axes = si->global_axes_read;
    for (uint32_t k = 0; k < si->binding_count; k++) {
        const vkat_image_format *f = vkat_image_format_from_spirv(si->bindings[k].image_format);
        int image = si->bindings[k].kind == VKAT_DESC_STORAGE_IMAGE ||
                    si->bindings[k].kind == VKAT_DESC_COMBINED_IMAGE_SAMPLER;
        if (image && !si->bindings[k].image_arrayed && si->bindings[k].image_dim < 3 &&
            si->bindings[k].image_dim + 1u > axes)
            axes = si->bindings[k].image_dim + 1u;
        int texel = si->bindings[k].kind == VKAT_DESC_STORAGE_TEXEL_BUFFER;
        *unorm_out |= (image || texel) && f && vkat_image_format_is_unorm(f) && !(si->bindings[k].access & 1);
    }
    return axes;
}

/* [dispatch]: the workgroup size (its parameters, else the shader's) and enough workgroups to cover the problem on
 * each axis: one per row where the shader bounds gl_WorkGroupID.x, at most GROUPS_PER_CU per compute unit for a
 * grid-stride loop. */
static void write_dispatch(FILE *o, const vkat_spirv_info *si, const problem *pb, char wg[3][NAME_CAP], uint32_t axes,
                           size_t define_count)
{
    fprintf(o, "[dispatch]\nlocal_size = ");
    for (int k = 0; k < 3; k++) {
        if (wg[k][0])
            fprintf(o, "%s%s", k ? ", " : "", wg[k]);
        else
            fprintf(o, "%s%u", k ? ", " : "", si->local_size[k]);
    }
    if (!wg[0][0] && define_count)
        fprintf(o, "   ; TODO: where a macro sets the workgroup size, name it here");
    char per_group[3][NAME_CAP];
    fprintf(o, "\ngroups = ");
    for (uint32_t k = 0; k < axes; k++) {
        snprintf(per_group[k], NAME_CAP, "%u", si->local_size[k]);
        if (k < pb->axes && pb->of_axis[k] < 0) /* an axis between bounded ones that nothing bounds */
            fprintf(o, "%s1", k ? ", " : "");
        else if (k == 0 && pb->count == 1 && si->bound_by_group) /* one workgroup per row the shader bounds */
            fprintf(o, "%s", pb->name[0]);
        else if (k == 0 && grid_stride(si)) /* a device that does not say its compute units (lavapipe) counts 1 */
            fprintf(o, "GROUPS_PER_CU == 0 ? cdiv(%s, %s) : min(cdiv(%s, %s), max(device.compute_units, 1) * "
                       "GROUPS_PER_CU)", pb->name[pb->of_axis[0]], wg[0][0] ? wg[0] : per_group[0],
                    pb->name[pb->of_axis[0]], wg[0][0] ? wg[0] : per_group[0]);
        else
            fprintf(o, "%scdiv(%s, %s)", k ? ", " : "", k < pb->axes ? pb->name[pb->of_axis[k]] : pb->name[0],
                    wg[k][0] ? wg[k] : per_group[k]);
    }
    if (grid_stride(si))
        fprintf(o, "   ; at most GROUPS_PER_CU per compute unit (a device that does not say how many it has, as "
                   "lavapipe, counts 1): the\n; loop does the rest\n\n");
    else
        fprintf(o, "   ; TODO: how many workgroups cover the problem%s\n\n",
                pb->count == 1 && si->bound_by_group ? " (one per row: the shader bounds gl_WorkGroupID.x by it)" : "");
}

/* [kernel]: the shader's name and template, glsl_version where it has no #version line, and how its workgroup size
 * is tuned where the source fixes it: replace_defines for a macro it #defines itself, else replace_local_size. */
static void write_kernel(FILE *o, const vkat_spirv_info *si, const char *kernel_name, const char *template_ref,
                         const char *const *include_refs, size_t include_ref_count, const char *entry,
                         const char (*macros)[VKAT_SIZE_MACRO_CAP], int glsl_version)
{
    fprintf(o, "[kernel]\nname = %s\ntemplate = %s\n", kernel_name, template_ref);
    if (entry && strcmp(entry, "main"))
        fprintf(o, "entry = %s   ; the module's compute entry point\n", entry);
    for (size_t i = 0; i < include_ref_count; i++) /* init's -I: the tuner looks there too */
        fprintf(o, "%s%s%s", i ? ", " : "include_dirs = ", include_refs[i], i + 1 < include_ref_count ? "" : "\n");
    if (glsl_version)
        fprintf(o, "glsl_version = %d   ; the shader has no #version line (its build adds one: glslc's -std=, MNN's "
                   "shader build)\n", glsl_version);
    if (si->opengl_rules == VKAT_RULES_OPENGL)
        fprintf(o, "opengl_rules = true   ; GLSL written for OpenGL: its loose uniforms are one uniform block, "
                   VKAT_OPENGL_UNIFORM_BLOCK ", and glslang gives a binding to each resource declared without one\n");
    else if (si->opengl_rules == VKAT_RULES_OPENGL_APART)
        fprintf(o, "opengl_rules = separate_bindings   ; GLSL written for OpenGL, whose binding points are per kind "
                   "(two of its resources share a number): a uniform block's binding N is %d + N, an image's %d + N, "
                   "a texture's %d + N, a buffer's N; loose uniforms are one uniform block, " VKAT_OPENGL_UNIFORM_BLOCK
                   "\n", VKAT_OPENGL_UNIFORM_BASE, VKAT_OPENGL_IMAGE_BASE, VKAT_OPENGL_TEXTURE_BASE);
    if (macro_sized(si, macros)) {
        fprintf(o, "replace_defines =");
        for (int k = 0, n = 0; k < 3; k++) {
            int again = 0;
            for (int j = 0; j < k; j++)
                again |= !strcmp(macros[j], macros[k]);
            if (macros[k][0] && si->local_size_spec[k] < 0 && !again)
                fprintf(o, "%s%s", n++ ? ", " : " ", macros[k]);
        }
        fprintf(o, "   ; the shader's own #define of its workgroup size: each variant's value replaces it\n");
    } else if (!literal_size_fixed_because(si)) {
        fprintf(o, "replace_local_size = true   ; the shader fixes its workgroup size in its source (%u, %u, %u): each "
                   "variant's is [dispatch] local_size\n", si->local_size[0], si->local_size[1], si->local_size[2]);
    }
    write_needs(o, si);
    fprintf(o, "\n");
}

char *vkat_space_skeleton_text(const vkat_spirv_info *si, const char *kernel_name, const char *template_ref,
                               const char *const *include_refs, size_t include_ref_count, const char *entry,
                               const char *const *defines, size_t define_count,
                               const char (*macros)[VKAT_SIZE_MACRO_CAP], int glsl_version)
{
    names *nm = calloc(1, sizeof *nm);
    char(*spec_names)[NAME_CAP] = calloc(64, NAME_CAP), (*buf_names)[NAME_CAP] = calloc(32, NAME_CAP),
    (*push_names)[NAME_CAP] = calloc(32, NAME_CAP);
    char *text = NULL;
    size_t size = 0;
    FILE *o = nm && spec_names && buf_names && push_names ? open_memstream(&text, &size) : NULL;
    if (!o) {
        free(nm), free(spec_names), free(buf_names), free(push_names);
        return NULL;
    }
    /* Names first, the shader's own where it keeps them; the problem size takes what is left. */
    static const char *const wg_names[3] = {"WG_X", "WG_Y", "WG_Z"};
    for (size_t i = 0; i < define_count; i++) {
        char name[NAME_CAP];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(defines[i], "=("), defines[i]);
        pick_name(nm, name, "DEFINE", (unsigned)i, name);
    }
    for (uint32_t i = 0; i < si->spec_count; i++) {
        int dim = workgroup_dim(si, si->specs[i].id);
        if (first_of_id(si, i))
            pick_name(nm, si->specs[i].name[0] ? si->specs[i].name : dim >= 0 ? wg_names[dim] : "",
                      dim >= 0 ? wg_names[dim] : "SPEC", si->specs[i].id, spec_names[i]);
    }
    for (uint32_t k = 0; k < si->binding_count; k++)
        pick_name(nm, si->bindings[k].name, "BUF", si->bindings[k].binding, buf_names[k]);
    for (uint32_t i = 0; i < si->push_member_count; i++)
        pick_name(nm, si->push_members[i].name, "push", i, push_names[i]);
    char wg[3][NAME_CAP] = {"", "", ""};
    problem pb = {.spec = {-1, -1, -1}};
    if (!axis_sizes(nm, si, spec_names, push_names, &pb))
        one_size(nm, si, spec_names, push_names, &pb);
    count_text(&pb);
    uint32_t unorm_out = 0, axes = dispatch_axes(si, &pb, &unorm_out);
    if (pb.guessed && axes > pb.axes) { /* an image2D written at gl_GlobalInvocationID.xy, and nothing bounds it: */
        pb.axes = axes;                 /* the one size spans each axis, an item of a buffer per invocation (N * N) */
        count_text(&pb);
    }
    if (pb.count == 1 && pb.value[0] == 1024 && axes == 3) {
        pb.value[0] = 128; /* 1024 in each of three dimensions is 4 GiB of 32-bit data: more than a device holds */
        if (!pb.note[0][0])
            snprintf(pb.note[0], sizeof pb.note[0], " (it sizes three dimensions: 128, not 1024)");
    }

    fprintf(o, "; Written by `vkautotune init` from %s: a starting point, read from the shader's SPIR-V.\n",
            template_ref);
    fprintf(o, "; Fill in each TODO (the problem's sizes, each buffer's element count, the workgroup count, a\n"
               "; reference for the check: docs/space-format.md), then tune: vkautotune --space THIS_FILE\n");
    write_kernel(o, si, kernel_name, template_ref, include_refs, include_ref_count, entry, macros, glsl_version);
    fprintf(o, "[problem]\n");
    for (uint32_t k = 0; k < pb.count; k++)
        fprintf(o, "%s = %u @%s   ; TODO: the sizes the buffers and the dispatch depend on%s\n", pb.name[k],
                pb.value[k], pb.binding[k], pb.note[k]);
    fprintf(o, "\n");
    write_problem_cpu(o, &pb, axes);
    char reference_config[NAME_CAP + 40] = "";
    write_params(o, si, spec_names, wg, &pb, defines, define_count, macros, reference_config,
                 sizeof reference_config);
    write_constraints(o, si, wg);
    write_buffers(o, si, buf_names, &pb, axes);
    uint8_t strides[32];
    push_strides(si, &pb, strides);
    write_values(o, "[push]", si->push_members, si->push_member_count, push_names, pb.member_size,
                 pb.member_comps, strides, si);
    write_fields(o, si, buf_names, &pb);
    write_dispatch(o, si, &pb, wg, axes, define_count);
    fprintf(o, "[check]\n; Every variant is compared with the shader at its own defaults. TODO: where those cannot be\n"
               "; trusted, a reference shader instead: reference = REF.comp (the same buffers), local_size, groups\n"
               "config = %s\n",
            reference_config);
    write_unordered(o, si, buf_names);
    if (unorm_out)
        fprintf(o, "rel_l2 = 1e-2   ; a UNORM output rounds (8 bits: to 1/255): a step of rounding apart is "
                   "not wrong\n");
    free(nm), free(spec_names), free(buf_names), free(push_names);
    if (fclose(o) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
