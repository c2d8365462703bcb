/* spirv_info.c — reads from a SPIR-V module what must be checked before a pipeline is created: the compute
 * entry point's workgroup size and the bytes of Workgroup-storage (shared) variables, with specialization
 * constants applied.
 *
 * Why it exists: on some drivers (NVIDIA, ../shared/H200.md) a shader whose shared memory exceeds
 * maxComputeSharedMemorySize is not refused at pipeline creation; its first dispatch loses the device.
 * This is a single pass over the instruction stream, not a general reflection library: it knows the handful of
 * instructions that decide those two numbers and evaluates the integer spec-constant arithmetic glslang emits
 * for array sizes such as `shared float tile[BM * BK]`. */
#include "compile.h"
#include "util.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan_core.h>

enum { K_NONE, K_TYPE, K_CONST };

typedef struct id_info {
    uint8_t kind;
    uint8_t known;       /* constant value known */
    uint16_t op;         /* defining opcode */
    uint32_t size;       /* type: bytes; */
    uint32_t align;      /* type: alignment */
    uint64_t value;      /* constant: value; pointer type: pointee; vector or matrix type: components */
    int32_t spec_id;     /* SpecId decoration or -1 */
    int32_t set, binding; /* DescriptorSet / Binding decorations or -1 */
    uint32_t first_word; /* offset of the defining instruction */
    uint32_t elem;       /* array types: the element type */
    uint32_t stride;     /* array types: their ArrayStride decoration, 0 when none */
    uint32_t name_word;  /* offset of its OpName, 0 when none */
    uint8_t block;       /* 1: decorated Block, 2: BufferBlock */
    uint8_t is_float;    /* OpTypeFloat */
    uint8_t desc;        /* opaque types: the vkat_descriptor_kind + 1 a variable of this type binds as */
    uint8_t is_signed;   /* OpTypeInt */
    uint8_t access;      /* variables, and blocks by any member: 1 NonWritable, 2 NonReadable */
    uint8_t image_dim, image_arrayed, image_format, image_sampled; /* image and sampled-image types: as the
                                                                      binding's */
    uint32_t binding_var; /* pointers (and images loaded through them): 1 + the info->bindings index of the variable
                             they point into, else 0 */
    uint8_t chain_depth;  /* pointers into a binding: the access-chain indices from its variable */
    char leaf;            /* data types: 'f', 'i' or 'u' when every scalar in it is that 32-bit type, else 0 */
} id_info;

typedef struct reader {
    const uint32_t *w;
    size_t n;
    id_info *ids;
    uint32_t bound;
    const vkat_spec_value *spec;
    size_t spec_count;
} reader;

static int spec_override(const reader *rd, int32_t spec_id, uint64_t *value)
{
    for (size_t i = 0; spec_id >= 0 && i < rd->spec_count; i++)
        if (rd->spec[i].id == (uint32_t)spec_id) {
            *value = rd->spec[i].value;
            return 1;
        }
    return 0;
}

static int const_of(const reader *rd, uint32_t id, uint64_t *v)
{
    if (id >= rd->bound || rd->ids[id].kind != K_CONST || !rd->ids[id].known)
        return 0;
    *v = rd->ids[id].value;
    return 1;
}

/* Evaluates OpSpecConstantOp for the integer operations glslang emits for sizes. */
static int eval_spec_op(const reader *rd, const uint32_t *ins, uint32_t len, uint64_t *out)
{
    if (len < 5)
        return 0;
    uint32_t op = ins[3];
    if (op == SpvOpCompositeExtract) { /* gl_WorkGroupSize.x of local_size_x_id: a component of a composite */
        if (len != 6 || ins[4] >= rd->bound || rd->ids[ins[4]].kind != K_CONST || !rd->ids[ins[4]].first_word)
            return 0;
        const uint32_t *composite = rd->w + rd->ids[ins[4]].first_word;
        return 3 + ins[5] < (composite[0] >> 16) && const_of(rd, composite[3 + ins[5]], out);
    }
    uint64_t a = 0, b = 0;
    if (!const_of(rd, ins[4], &a))
        return 0;
    int binary = len >= 6;
    if (binary && !const_of(rd, ins[5], &b))
        return 0;
    int32_t sa = (int32_t)(uint32_t)a, sb = (int32_t)(uint32_t)b;
    switch (op) {
    case SpvOpIAdd: *out = (uint32_t)(a + b); return 1;
    case SpvOpISub: *out = (uint32_t)(a - b); return 1;
    case SpvOpIMul: *out = (uint32_t)(a * b); return 1;
    case SpvOpUDiv: if (!b) return 0; *out = (uint32_t)a / (uint32_t)b; return 1;
    case SpvOpSDiv: if (!sb) return 0; *out = (uint32_t)(sa / sb); return 1;
    case SpvOpUMod: if (!b) return 0; *out = (uint32_t)a % (uint32_t)b; return 1;
    case SpvOpSRem:
    case SpvOpSMod: if (!sb) return 0; *out = (uint32_t)(sa % sb); return 1;
    case SpvOpShiftLeftLogical: *out = (uint32_t)(a << (b & 31)); return 1;
    case SpvOpShiftRightLogical: *out = (uint32_t)a >> (b & 31); return 1;
    case SpvOpShiftRightArithmetic: *out = (uint32_t)(sa >> (b & 31)); return 1;
    case SpvOpBitwiseAnd: *out = a & b; return 1;
    case SpvOpBitwiseOr: *out = a | b; return 1;
    case SpvOpBitwiseXor: *out = a ^ b; return 1;
    case SpvOpSNegate: *out = (uint32_t)(-sa); return 1;
    case SpvOpNot: *out = (uint32_t)~a; return 1;
    case SpvOpIEqual: *out = a == b; return 1;
    case SpvOpINotEqual: *out = a != b; return 1;
    case SpvOpSLessThan: *out = sa < sb; return 1;
    case SpvOpSGreaterThan: *out = sa > sb; return 1;
    case SpvOpSLessThanEqual: *out = sa <= sb; return 1;
    case SpvOpSGreaterThanEqual: *out = sa >= sb; return 1;
    case SpvOpULessThan: *out = a < b; return 1;
    case SpvOpUGreaterThan: *out = a > b; return 1;
    case SpvOpSConvert:
    case SpvOpUConvert: *out = a; return 1;
    case SpvOpSelect:
        if (len < 7) return 0;
        {
            uint64_t c2 = 0;
            if (!const_of(rd, ins[6], &c2)) return 0;
            *out = a ? b : c2;
            return 1;
        }
    default: return 0;
    }
}

const char *vkat_descriptor_kind_name(vkat_descriptor_kind kind)
{
    static const char *const names[] = {"storage buffer", "uniform buffer", "sampled image", "storage image",
                                        "sampler", "combined image sampler", "uniform texel buffer",
                                        "storage texel buffer", "acceleration structure", "descriptor"};
    return (unsigned)kind < VKAT_COUNTOF(names) ? names[kind] : "descriptor";
}

/* The descriptor a variable of storage class `sc` pointing at `type` binds as. */
static vkat_descriptor_kind descriptor_kind(const reader *rd, uint32_t sc, uint32_t type)
{
    for (int depth = 0; depth < 4 && type < rd->bound && rd->ids[type].elem; depth++)
        type = rd->ids[type].elem; /* arrays of descriptors */
    if (type >= rd->bound)
        return VKAT_DESC_OTHER;
    if (sc == SpvStorageClassStorageBuffer)
        return VKAT_DESC_STORAGE_BUFFER;
    if (sc == SpvStorageClassUniform)
        return rd->ids[type].block == 2 ? VKAT_DESC_STORAGE_BUFFER : VKAT_DESC_UNIFORM_BUFFER;
    if (sc == SpvStorageClassUniformConstant && rd->ids[type].desc)
        return (vkat_descriptor_kind)(rd->ids[type].desc - 1);
    return VKAT_DESC_OTHER;
}

static void copy_name(const reader *rd, uint32_t id, char *out, size_t size)
{
    out[0] = 0;
    if (id >= rd->bound || !rd->ids[id].name_word)
        return;
    const uint32_t *ins = rd->w + rd->ids[id].name_word;
    size_t bytes = ((ins[0] >> 16) - 2) * 4;
    snprintf(out, size, "%.*s", (int)strnlen((const char *)(ins + 2), bytes), (const char *)(ins + 2));
}

static uint64_t round_up(uint64_t v, uint32_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* ---- One pass over the module, by family of instruction ------------------------------------------------------ */

typedef struct scan {
    reader rd;
    vkat_spirv_info *info;
    uint32_t entry_id, workgroup_size_builtin;
    uint32_t push_block; /* the struct type of the PushConstant variable, 0 when none */
    uint32_t binding_type[32]; /* each info->bindings[k]'s pointee type */
    uint8_t store_depth[32];   /* the fewest access-chain indices a store into info->bindings[k] takes, 0: none */
    int have_entry, have_local_size_id;
    uint32_t local_size_ids[3];
} scan;

/* Each scan_* returns 1 when `op` is one of its family (setting *res to the id the instruction defines, 0 for
 * none), 0 when it is not, and -1 for a malformed module (the error in *err). */

/* Entry point, execution modes, names and decorations: they come before types and constants in a valid module. */
static int scan_annotation(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op, size_t at)
{
    reader *rd = &sc->rd;
    switch (op) {
    case SpvOpEntryPoint:
        if (len >= 3 && ins[1] == SpvExecutionModelGLCompute && !sc->have_entry) {
            sc->have_entry = 1;
            sc->entry_id = ins[2];
        }
        return 1;
    case SpvOpExecutionMode:
        if (len >= 6 && ins[1] == sc->entry_id && ins[2] == SpvExecutionModeLocalSize)
            memcpy(sc->info->local_size, ins + 3, sizeof sc->info->local_size);
        return 1;
    case SpvOpExecutionModeId:
        if (len >= 6 && ins[1] == sc->entry_id && ins[2] == SpvExecutionModeLocalSizeId) {
            sc->have_local_size_id = 1;
            memcpy(sc->local_size_ids, ins + 3, sizeof sc->local_size_ids);
        }
        return 1;
    case SpvOpSourceExtension: /* glslang names each #extension: only then can a block need the scalar layout */
        if (len >= 2 && !strncmp((const char *)(ins + 1), "GL_EXT_scalar_block_layout", (len - 1) * 4))
            sc->info->needs_scalar_layout = 1;
        return 1;
    case SpvOpCapability:
        if (len >= 2 && sc->info->capability_count < VKAT_COUNTOF(sc->info->capabilities))
            sc->info->capabilities[sc->info->capability_count++] = ins[1];
        return 1;
    case SpvOpName: /* the first name: glslang names a constant again for each alias (`const uint S = K;`) */
        if (len >= 3 && ins[1] < rd->bound && !rd->ids[ins[1]].name_word)
            rd->ids[ins[1]].name_word = (uint32_t)at;
        return 1;
    case SpvOpDecorate:
        if (len >= 3 && ins[1] < rd->bound && (ins[2] == SpvDecorationBlock || ins[2] == SpvDecorationBufferBlock))
            rd->ids[ins[1]].block = ins[2] == SpvDecorationBlock ? 1 : 2;
        if (len >= 4 && ins[1] < rd->bound && ins[2] == SpvDecorationSpecId)
            rd->ids[ins[1]].spec_id = (int32_t)ins[3];
        if (len >= 4 && ins[1] < rd->bound && ins[2] == SpvDecorationDescriptorSet)
            rd->ids[ins[1]].set = (int32_t)ins[3];
        if (len >= 4 && ins[1] < rd->bound && ins[2] == SpvDecorationBinding)
            rd->ids[ins[1]].binding = (int32_t)ins[3];
        if (len >= 4 && ins[1] < rd->bound && ins[2] == SpvDecorationArrayStride)
            rd->ids[ins[1]].stride = ins[3];
        if (len >= 4 && ins[2] == SpvDecorationBuiltIn && ins[3] == SpvBuiltInWorkgroupSize)
            sc->workgroup_size_builtin = ins[1];
        if (len >= 4 && ins[2] == SpvDecorationBuiltIn &&
            (ins[3] == SpvBuiltInWorkgroupId || ins[3] == SpvBuiltInLocalInvocationId ||
             ins[3] == SpvBuiltInLocalInvocationIndex || ins[3] == SpvBuiltInNumWorkgroups ||
             ins[3] == SpvBuiltInSubgroupId || ins[3] == SpvBuiltInNumSubgroups ||
             ins[3] == SpvBuiltInSubgroupLocalInvocationId))
            sc->info->reads_group_builtins = 1;
        if (len >= 3 && ins[1] < rd->bound &&
            (ins[2] == SpvDecorationNonWritable || ins[2] == SpvDecorationNonReadable))
            rd->ids[ins[1]].access |= ins[2] == SpvDecorationNonWritable ? 1 : 2;
        return 1;
    case SpvOpMemberDecorate: /* a block is read-only (write-only) when a member is */
        if (len >= 4 && ins[1] < rd->bound &&
            (ins[3] == SpvDecorationNonWritable || ins[3] == SpvDecorationNonReadable))
            rd->ids[ins[1]].access |= ins[3] == SpvDecorationNonWritable ? 1 : 2;
        return 1;
    default:
        return 0;
    }
}

/* The descriptor kind a variable of an opaque type binds as (images, samplers, acceleration structures). */
static int scan_opaque_type(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op, uint32_t *res)
{
    id_info *ids = sc->rd.ids;
    switch (op) {
    case SpvOpTypeImage:
        *res = ins[1];
        if (len >= 9 && *res < sc->rd.bound) { /* Dim Buffer: texel buffers; Sampled 2: storage */
            ids[*res].desc = 1 + (ins[3] == SpvDimBuffer
                                      ? (ins[7] == 2 ? VKAT_DESC_STORAGE_TEXEL_BUFFER : VKAT_DESC_UNIFORM_TEXEL_BUFFER)
                                      : (ins[7] == 2 ? VKAT_DESC_STORAGE_IMAGE : VKAT_DESC_SAMPLED_IMAGE));
            ids[*res].image_dim = (uint8_t)ins[3];
            ids[*res].image_arrayed = ins[5] || ins[6]; /* Arrayed, MS */
            ids[*res].image_format = (uint8_t)ins[8];
            const id_info *t = ins[2] < sc->rd.bound ? &ids[ins[2]] : NULL;
            ids[*res].image_sampled = !t                          ? 0
                                      : t->op == SpvOpTypeFloat ? 'f'
                                      : t->op == SpvOpTypeInt   ? (t->is_signed ? 'i' : 'u')
                                                                : 0;
        }
        return 1;
    case SpvOpTypeSampler:
        *res = ins[1];
        if (*res < sc->rd.bound)
            ids[*res].desc = 1 + VKAT_DESC_SAMPLER;
        return 1;
    case SpvOpTypeSampledImage: /* samplerBuffer is a sampled image of a Buffer image: a texel buffer */
        *res = ins[1];
        if (*res >= sc->rd.bound)
            return 1;
        ids[*res].desc = 1 + VKAT_DESC_COMBINED_IMAGE_SAMPLER;
        if (len >= 3 && ins[2] < sc->rd.bound) {
            if (ids[ins[2]].desc == 1 + VKAT_DESC_UNIFORM_TEXEL_BUFFER)
                ids[*res].desc = 1 + VKAT_DESC_UNIFORM_TEXEL_BUFFER;
            ids[*res].image_dim = ids[ins[2]].image_dim;
            ids[*res].image_arrayed = ids[ins[2]].image_arrayed;
            ids[*res].image_format = ids[ins[2]].image_format;
            ids[*res].image_sampled = ids[ins[2]].image_sampled;
        }
        return 1;
    case SpvOpTypeAccelerationStructureKHR:
        *res = ins[1];
        if (*res < sc->rd.bound)
            ids[*res].desc = 1 + VKAT_DESC_ACCELERATION_STRUCTURE;
        return 1;
    case SpvOpTypeCooperativeMatrixKHR:
    case SpvOpTypeCooperativeMatrixNV:
        sc->info->uses_cooperative_matrix = 1;
        return 1;
    default:
        return 0;
    }
}

/* Sizes and alignments (std430) of the types a shared variable can have. */
static int scan_data_type(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op, uint32_t *res, vkat_error *err)
{
    reader *rd = &sc->rd;
    if (op != SpvOpTypeRuntimeArray && op != SpvOpTypeBool && op != SpvOpTypeInt && op != SpvOpTypeFloat &&
        op != SpvOpTypeVector && op != SpvOpTypeMatrix && op != SpvOpTypeArray && op != SpvOpTypeStruct &&
        op != SpvOpTypePointer)
        return 0;
    *res = ins[1];
    if (*res >= rd->bound)
        return 1; /* the caller refuses it */
    id_info *t = &rd->ids[*res];
    switch (op) {
    case SpvOpTypeRuntimeArray:
        t->elem = ins[2];
        break;
    case SpvOpTypeBool:
        t->size = t->align = 4; /* not storable in practice; count it like a 32-bit int */
        break;
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        t->size = t->align = ins[2] / 8;
        t->is_float = op == SpvOpTypeFloat;
        t->is_signed = op == SpvOpTypeInt && len >= 4 && ins[3];
        t->leaf = ins[2] != 32 ? 0 : t->is_float ? 'f' : t->is_signed ? 'i' : 'u';
        break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
        t->elem = ins[2];
        t->value = len >= 4 ? ins[3] : 1; /* components or columns */
        t->leaf = ins[2] < rd->bound ? rd->ids[ins[2]].leaf : 0;
        if (ins[2] < rd->bound) {
            uint32_t n = ins[3], es = rd->ids[ins[2]].size, ea = rd->ids[ins[2]].align;
            if (op == SpvOpTypeVector) {
                /* std430: a 3-vector aligns like a 4-vector */
                t->align = ea * (n == 3 ? 4 : n);
                t->size = es * n;
            } else {
                t->align = ea;
                t->size = (uint32_t)round_up(es, ea) * n;
            }
        }
        break;
    case SpvOpTypeArray:
        if (ins[2] < rd->bound) {
            uint64_t count = 0;
            if (!const_of(rd, ins[3], &count)) {
                vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "cannot evaluate the length of a shared array (id %u)",
                          ins[3]);
                return -1;
            }
            id_info *e = &rd->ids[ins[2]];
            uint64_t stride = round_up(e->size, e->align);
            uint64_t bytes = stride * count;
            t->size = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
            t->align = e->align;
            t->elem = ins[2];
            t->leaf = e->leaf;
        }
        break;
    case SpvOpTypeStruct: {
        uint64_t off = 0;
        uint32_t al = 1;
        t->leaf = len > 2 && ins[2] < rd->bound ? rd->ids[ins[2]].leaf : 0;
        for (uint32_t i = 2; i < len; i++) {
            if (ins[i] >= rd->bound)
                continue;
            id_info *e = &rd->ids[ins[i]];
            if (e->leaf != t->leaf)
                t->leaf = 0; /* mixed members: 32-bit words */
            off = round_up(off, e->align) + e->size;
            if (e->align > al)
                al = e->align;
        }
        t->size = (uint32_t)round_up(off, al);
        t->align = al;
        break;
    }
    case SpvOpTypePointer:
        t->value = ins[3]; /* pointee */
        t->size = t->align = 8;
        break;
    default:
        break;
    }
    return 1;
}

/* Constants and specialization constants, with the values the caller specializes them to; the WorkgroupSize
 * built-in's composite gives the workgroup size. */
static int scan_constant(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op, size_t at, uint32_t *res)
{
    reader *rd = &sc->rd;
    vkat_spirv_info *info = sc->info;
    int boolean = op == SpvOpConstantTrue || op == SpvOpConstantFalse || op == SpvOpSpecConstantTrue ||
                  op == SpvOpSpecConstantFalse;
    if (!boolean && op != SpvOpConstant && op != SpvOpSpecConstant && op != SpvOpSpecConstantOp &&
        op != SpvOpConstantComposite && op != SpvOpSpecConstantComposite)
        return 0;
    *res = ins[2];
    if (*res >= rd->bound)
        return 1; /* the caller refuses it */
    id_info *c = &rd->ids[*res];
    c->kind = K_CONST;
    switch (op) {
    case SpvOpConstant:
    case SpvOpSpecConstant:
        c->known = 1;
        c->value = len >= 4 ? ins[3] : 0;
        if (op == SpvOpSpecConstant)
            spec_override(rd, c->spec_id, &c->value);
        if (op == SpvOpSpecConstant && c->spec_id >= 0 && ins[1] < rd->bound &&
            info->spec_count < VKAT_COUNTOF(info->specs)) {
            vkat_spec_decl *d = &info->specs[info->spec_count++];
            *d = (vkat_spec_decl){(uint32_t)c->spec_id, rd->ids[ins[1]].is_float, 0, (uint8_t)rd->ids[ins[1]].size,
                                  rd->ids[ins[1]].is_signed, len >= 4 ? ins[3] : 0, ""};
            copy_name(rd, *res, d->name, sizeof d->name);
        }
        break;
    case SpvOpSpecConstantOp:
        c->known = (uint8_t)eval_spec_op(rd, ins, len, &c->value);
        break;
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite:
        c->first_word = (uint32_t)at;
        if (*res == sc->workgroup_size_builtin && len >= 6) {
            for (int i = 0; i < 3; i++) {
                uint64_t v = 1;
                if (const_of(rd, ins[3 + i], &v))
                    info->local_size[i] = (uint32_t)v;
                info->local_size_spec[i] = ins[3 + i] < rd->bound ? rd->ids[ins[3 + i]].spec_id : -1;
            }
        }
        break;
    default: { /* the four boolean ones */
        int spec = op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse;
        c->known = 1;
        c->value = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
        if (spec && c->spec_id >= 0 && info->spec_count < VKAT_COUNTOF(info->specs)) {
            vkat_spec_decl *d = &info->specs[info->spec_count++];
            *d = (vkat_spec_decl){(uint32_t)c->spec_id, 0, 1, 4, 0, op == SpvOpSpecConstantTrue, ""};
            copy_name(rd, *res, d->name, sizeof d->name);
        }
        uint64_t v;
        if (spec && spec_override(rd, c->spec_id, &v))
            c->value = v != 0;
        break;
    }
    }
    return 1;
}

/* Variables: descriptor bindings (set, binding, kind, name) and the bytes of Workgroup storage. */
static int scan_variable(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op)
{
    reader *rd = &sc->rd;
    vkat_spirv_info *info = sc->info;
    if (op != SpvOpVariable)
        return 0;
    if (len >= 4 && ins[2] < rd->bound && rd->ids[ins[2]].binding >= 0 &&
        info->binding_count < VKAT_COUNTOF(info->bindings)) {
        uint32_t k = info->binding_count++;
        rd->ids[ins[2]].binding_var = k + 1;
        sc->binding_type[k] = ins[1] < rd->bound ? (uint32_t)rd->ids[ins[1]].value : 0;
        info->bindings[k].access = rd->ids[ins[2]].access;
        info->bindings[k].set = (uint32_t)(rd->ids[ins[2]].set < 0 ? 0 : rd->ids[ins[2]].set);
        info->bindings[k].binding = (uint32_t)rd->ids[ins[2]].binding;
        uint32_t pointee = ins[1] < rd->bound ? (uint32_t)rd->ids[ins[1]].value : 0;
        info->bindings[k].kind = descriptor_kind(rd, ins[3], pointee);
        if (pointee < rd->bound) {
            info->bindings[k].image_dim = rd->ids[pointee].image_dim;
            info->bindings[k].image_arrayed = rd->ids[pointee].image_arrayed;
            info->bindings[k].image_format = rd->ids[pointee].image_format;
            info->bindings[k].image_sampled = rd->ids[pointee].image_sampled;
        }
        char *name = info->bindings[k].name;
        copy_name(rd, ins[2], name, sizeof info->bindings[k].name);
        if (!name[0])
            copy_name(rd, pointee, name, sizeof info->bindings[k].name);
    }
    if (len >= 4 && ins[3] == SpvStorageClassPushConstant && ins[1] < rd->bound)
        sc->push_block = (uint32_t)rd->ids[ins[1]].value;
    if (len >= 4 && ins[3] == SpvStorageClassWorkgroup && ins[1] < rd->bound) {
        uint32_t pointee = (uint32_t)rd->ids[ins[1]].value;
        if (pointee < rd->bound)
            info->shared_bytes += rd->ids[pointee].size;
    }
    return 1;
}

/* Atomic read-modify-writes: their pointer is operand 3. */
static int atomic_rmw(uint32_t op)
{
    return (op >= SpvOpAtomicExchange && op <= SpvOpAtomicXor) || op == SpvOpAtomicFMinEXT ||
           op == SpvOpAtomicFMaxEXT || op == SpvOpAtomicFAddEXT;
}

/* Uses of a binding's variable in function bodies: OpArrayLength on it, directly or through an access chain, the
 * size of a texel buffer (imageSize, textureSize: OpImageQuerySize on the image loaded from it, or on the image of
 * a samplerBuffer), the depth of the stores into it (a copy into it counts as one), atomics into it, and an image's
 * writes (imageStore, an image atomic's texel pointer): an image without them is read only, whatever its
 * qualifiers. */
static void scan_binding_use(scan *sc, const uint32_t *ins, uint32_t len, uint32_t op)
{
    reader *rd = &sc->rd;
    int image = (op == SpvOpLoad || op == SpvOpImage) && len >= 4 && ins[1] < rd->bound && rd->ids[ins[1]].desc;
    if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpCopyObject || image) && len >= 4 &&
        ins[2] < rd->bound && ins[3] < rd->bound) {
        rd->ids[ins[2]].binding_var = rd->ids[ins[3]].binding_var;
        uint32_t depth = rd->ids[ins[3]].chain_depth + (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain
                                                            ? len - 4 : 0);
        rd->ids[ins[2]].chain_depth = (uint8_t)(depth > 255 ? 255 : depth);
    } else if ((op == SpvOpStore || op == SpvOpAtomicStore || op == SpvOpCopyMemory ||
                op == SpvOpCopyMemorySized) && len >= 3 && ins[1] < rd->bound && rd->ids[ins[1]].binding_var) {
        uint8_t *d = &sc->store_depth[rd->ids[ins[1]].binding_var - 1], depth = rd->ids[ins[1]].chain_depth;
        if (!*d || depth < *d)
            *d = depth ? depth : 1;
    } else if ((op == SpvOpArrayLength && len >= 5) || (op == SpvOpImageQuerySize && len >= 4)) {
        if (ins[3] < rd->bound && rd->ids[ins[3]].binding_var) {
            uint32_t k = rd->ids[ins[3]].binding_var - 1;
            vkat_descriptor_kind kind = sc->info->bindings[k].kind;
            /* an image's size is its extent whichever set binds it: only a buffer's range can hold a guard */
            if (op == SpvOpArrayLength || kind == VKAT_DESC_STORAGE_TEXEL_BUFFER ||
                kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER)
                sc->info->bindings[k].reads_length = 1;
        }
    } else if (atomic_rmw(op) && len >= 4 && ins[3] < rd->bound && rd->ids[ins[3]].binding_var) {
        sc->info->bindings[rd->ids[ins[3]].binding_var - 1].atomic = 1;
    } else if (op == SpvOpImageWrite && len >= 4 && ins[1] < rd->bound && rd->ids[ins[1]].binding_var) {
        sc->info->bindings[rd->ids[ins[1]].binding_var - 1].stored = 1; /* imageStore */
    } else if (op == SpvOpImageTexelPointer && len >= 4 && ins[3] < rd->bound && rd->ids[ins[3]].binding_var) {
        sc->info->bindings[rd->ids[ins[3]].binding_var - 1].stored = 1; /* an image atomic writes it too */
    }
}

/* Where the 32-bit scalars of a member of type `t` lie (vkat_block_member's leaf, lanes, vectors, count and strides):
 * a scalar, a vector, a matrix (its columns `matrix_stride` apart, rows when row_major) or a sized array of one of
 * those; leaf 0 for any other shape. Sets m->size to the bytes the member spans. */
static void member_layout(const reader *rd, uint32_t t, uint32_t matrix_stride, int row_major, vkat_block_member *m)
{
    const id_info *a = t < rd->bound ? &rd->ids[t] : NULL;
    m->size = a ? a->size : 0;
    m->count = 1;
    m->vectors = 1;
    if (a && a->op == SpvOpTypeArray && a->elem < rd->bound && rd->ids[a->elem].size) {
        const id_info *e = &rd->ids[a->elem];
        m->count = (uint32_t)(a->size / round_up(e->size, e->align));
        m->array_stride = a->stride ? a->stride : (uint32_t)round_up(e->size, e->align);
        m->size = m->count * m->array_stride;
        a = e;
    }
    const id_info *col = a && a->op == SpvOpTypeMatrix && a->elem < rd->bound ? &rd->ids[a->elem] : NULL;
    if (col) { /* columns of `col`: vectors of columns (row-major: of rows, each a lane per column) */
        uint32_t columns = (uint32_t)a->value, rows = (uint32_t)col->value;
        m->is_matrix = 1;
        m->vectors = (uint8_t)(row_major ? rows : columns);
        m->vector_stride = matrix_stride ? matrix_stride : (uint32_t)round_up(col->size, col->align);
        if (m->count == 1 && !m->array_stride)
            m->size = m->vectors * m->vector_stride;
        a = col->elem < rd->bound ? &rd->ids[col->elem] : NULL;
        m->lanes = (uint8_t)(row_major ? columns : rows);
    } else if (a && a->op == SpvOpTypeVector && a->elem < rd->bound) {
        m->lanes = (uint8_t)a->value;
        a = &rd->ids[a->elem];
    } else {
        m->lanes = 1;
    }
    if (a && a->size == 4 && (a->op == SpvOpTypeFloat || a->op == SpvOpTypeInt) && m->lanes <= 4 && m->vectors <= 4) {
        m->leaf = a->op == SpvOpTypeFloat ? 'f' : 'i';
        m->is_signed = a->op == SpvOpTypeInt && a->is_signed;
    }
}

/* A member's type and the layout its struct's decorations give it, for flatten_member. */
typedef struct member_type {
    uint32_t type, matrix_stride;
    uint8_t row_major;
} member_type;

/* vkat_block_member's kind of a member of type t ('f', 'i', 'p' or 'o'), and its vec_kind and components. */
static void member_kind(const reader *rd, uint32_t type, vkat_block_member *m)
{
    const id_info *t = type < rd->bound ? &rd->ids[type] : NULL;
    const id_info *e = t && t->op == SpvOpTypeVector && t->elem < rd->bound ? &rd->ids[t->elem] : NULL;
    if (e && e->size == 4 && (e->op == SpvOpTypeFloat || e->op == SpvOpTypeInt)) {
        m->vec_kind = e->op == SpvOpTypeFloat ? 'f' : 'i';
        m->components = (uint8_t)t->value;
        m->is_signed = e->op == SpvOpTypeInt && e->is_signed;
    }
    if (t && t->op == SpvOpTypeInt)
        m->is_signed = t->is_signed;
    m->kind = !t                                        ? 'o'
              : t->op == SpvOpTypePointer               ? 'p'
              : t->op == SpvOpTypeFloat && t->size == 4 ? 'f'
              : t->op == SpvOpTypeInt && t->size == 4   ? 'i'
                                                        : 'o';
}

/* The members of the block whose struct type is `block`: types from its OpTypeStruct, offsets, matrix layouts and
 * names from the member annotations (a second pass over the module, run only for a block it has; every type is
 * known by then). Returns how many went into m (at most max, 32); mt (NULL, or max of them) gets their types. */
static uint32_t scan_block_members(const scan *sc, uint32_t block, vkat_block_member *m, uint32_t max,
                                   member_type *mt)
{
    const reader *rd = &sc->rd;
    uint32_t n = 0, types[32] = {0}, matrix_stride[32] = {0};
    uint8_t row_major[32] = {0};
    if (!block || block >= rd->bound)
        return 0;
    max = max < 32 ? max : 32;
    for (size_t at = 5; at < rd->n;) {
        const uint32_t *ins = rd->w + at;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (op == SpvOpTypeStruct && len >= 2 && ins[1] == block) {
            n = len - 2 < max ? len - 2 : max;
            for (uint32_t i = 0; i < n; i++) {
                types[i] = ins[2 + i];
                member_kind(rd, types[i], &m[i]);
            }
        } else if (op == SpvOpMemberDecorate && len >= 4 && ins[1] == block && ins[2] < max) {
            if (ins[3] == SpvDecorationOffset && len >= 5)
                m[ins[2]].offset = ins[4];
            else if (ins[3] == SpvDecorationMatrixStride && len >= 5)
                matrix_stride[ins[2]] = ins[4];
            else if (ins[3] == SpvDecorationRowMajor)
                row_major[ins[2]] = 1;
        } else if (op == SpvOpMemberName && len >= 4 && ins[1] == block && ins[2] < max) {
            size_t bytes = (len - 3) * 4;
            snprintf(m[ins[2]].name, sizeof m[ins[2]].name, "%.*s", (int)strnlen((const char *)(ins + 3), bytes),
                     (const char *)(ins + 3));
        }
        at += len ? len : 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        member_layout(rd, types[i], matrix_stride[i], row_major[i], &m[i]);
        if (mt)
            mt[i] = (member_type){types[i], matrix_stride[i], row_major[i]};
    }
    return n;
}

/* The leaves of push member `parent` (compile.h's push_leaves) in a value of type mt->type at byte `offset`: a
 * struct by its members, a sized array of structs or of arrays by its elements, anything else one leaf named
 * `path`. Returns 0 where they do not all fit (or nest deeper than a shader would). */
static int flatten_member(const scan *sc, const member_type *mt, uint32_t offset, const char *path, uint8_t parent,
                          int depth)
{
    const reader *rd = &sc->rd;
    vkat_spirv_info *info = sc->info;
    const id_info *a = mt->type < rd->bound ? &rd->ids[mt->type] : NULL;
    const id_info *e = a && a->op == SpvOpTypeArray && a->elem < rd->bound ? &rd->ids[a->elem] : NULL;
    char sub[sizeof info->push_leaves[0].name + 16];
    if (!a || depth > 8)
        return 0;
    if (a->op == SpvOpTypeStruct) {
        vkat_block_member m[32] = {{0}};
        member_type types[32];
        uint32_t n = scan_block_members(sc, mt->type, m, 32, types);
        for (uint32_t k = 0; k < n; k++) {
            if (m[k].name[0])
                snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "_" : "", m[k].name);
            else
                snprintf(sub, sizeof sub, "%s%sm%u", path, path[0] ? "_" : "", k);
            if (!flatten_member(sc, &types[k], offset + m[k].offset, sub, parent, depth + 1))
                return 0;
        }
        return 1;
    }
    if (e && (e->op == SpvOpTypeStruct || e->op == SpvOpTypeArray) && e->size) {
        uint32_t count = (uint32_t)(a->size / round_up(e->size, e->align));
        uint32_t stride = a->stride ? a->stride : (uint32_t)round_up(e->size, e->align);
        member_type et = {a->elem, mt->matrix_stride, mt->row_major};
        for (uint32_t i = 0; i < count; i++) {
            snprintf(sub, sizeof sub, "%s%s%u", path, path[0] ? "_" : "", i);
            if (!flatten_member(sc, &et, offset + i * stride, sub, parent, depth + 1))
                return 0;
        }
        return 1;
    }
    if (info->push_leaf_count == VKAT_COUNTOF(info->push_leaves) || strlen(path) >= sizeof info->push_leaves[0].name)
        return 0; /* a name cut short could repeat another's */
    vkat_block_member *l = &info->push_leaves[info->push_leaf_count];
    memset(l, 0, sizeof *l);
    member_kind(rd, mt->type, l);
    member_layout(rd, mt->type, mt->matrix_stride, mt->row_major, l);
    l->offset = offset;
    snprintf(l->name, sizeof l->name, "%s", path);
    info->push_leaf_parent[info->push_leaf_count++] = parent;
    return 1;
}

/* The push-constant block's members and bytes, and the leaves of those of no one layout. */
static void scan_push_block(scan *sc)
{
    vkat_spirv_info *info = sc->info;
    member_type types[32];
    uint32_t n = scan_block_members(sc, sc->push_block, info->push_members, VKAT_COUNTOF(info->push_members), types);
    info->push_member_count = n;
    for (uint32_t i = 0; i < n; i++) {
        const vkat_block_member *m = &info->push_members[i];
        uint32_t end = m->offset + m->size, first = info->push_leaf_count;
        info->push_size = end > info->push_size ? end : info->push_size;
        if (m->leaf || m->kind == 'p')
            continue;
        if (flatten_member(sc, &types[i], m->offset, "", (uint8_t)i, 0))
            info->push_leaves_of |= 1u << i;
        else
            info->push_leaf_count = first; /* none of its leaves: the member is a placeholder for init */
    }
}

/* The members of the first parameter blocks (compile.h): uniform blocks, and storage blocks without a run-time array
 * that the shader only reads (after scan_buffer_elements, which finds that). Such a block's bytes are its members'
 * (a mat3 at its end spans its last column's padding too). */
static void scan_parameter_blocks(scan *sc)
{
    vkat_spirv_info *info = sc->info;
    for (uint32_t k = 0; k < info->binding_count && info->block_count < VKAT_COUNTOF(info->block_binding); k++) {
        uint32_t type = sc->binding_type[k];
        const __typeof__(info->bindings[0]) *bk = &info->bindings[k];
        int storage = bk->kind == VKAT_DESC_STORAGE_BUFFER && !bk->runtime_array && !bk->stored && !bk->atomic;
        if ((bk->kind != VKAT_DESC_UNIFORM_BUFFER && !storage) || type >= sc->rd.bound ||
            sc->rd.ids[type].op != SpvOpTypeStruct)
            continue;
        uint32_t b = info->block_count++;
        info->block_binding[b] = k;
        info->block_member_count[b] =
            scan_block_members(sc, type, info->block_members[b], VKAT_COUNTOF(info->block_members[b]), NULL);
        int data = 0; /* a lookup table, a struct: what a storage block holds is then data, not parameters */
        for (uint32_t i = 0; storage && i < info->block_member_count[b]; i++) {
            const vkat_block_member *m = &info->block_members[b][i];
            data |= !m->leaf || m->count * m->vectors > VKAT_PARAM_MEMBER_VECTORS;
        }
        if (data) {
            memset(info->block_members[b], 0, sizeof info->block_members[b]);
            info->block_member_count[b] = 0;
            info->block_count--;
            continue;
        }
        for (uint32_t i = 0; i < info->block_member_count[b]; i++) {
            uint64_t end = (uint64_t)info->block_members[b][i].offset + info->block_members[b][i].size;
            if (end > info->bindings[k].block_bytes && end <= UINT32_MAX)
                info->bindings[k].block_bytes = (uint32_t)end;
        }
    }
}

/* The Offset decoration of member `index` of struct `type` (0 when it has none). */
static uint32_t member_offset(const reader *rd, uint32_t type, uint32_t index)
{
    for (size_t at = 5; at < rd->n;) {
        const uint32_t *ins = rd->w + at;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (op == SpvOpMemberDecorate && len >= 5 && ins[1] == type && ins[2] == index &&
            ins[3] == SpvDecorationOffset)
            return ins[4];
        at += len ? len : 1;
    }
    return 0;
}

/* The bytes a block's member of type `t` takes in the block: a sized array by its ArrayStride (std140 strides are
 * not std430's), anything else by its size. */
static uint64_t member_bytes(const reader *rd, uint32_t t)
{
    if (t >= rd->bound)
        return 0;
    const id_info *a = &rd->ids[t];
    uint64_t count = 0;
    if (a->op == SpvOpTypeArray && a->stride && a->elem < rd->bound && a->size && rd->ids[a->elem].size) {
        const id_info *e = &rd->ids[a->elem];
        count = a->size / round_up(e->size, e->align);
        return count * a->stride;
    }
    return a->size;
}

/* Each buffer binding's element type (its block's last member: an array's element, else the member), how many bytes
 * one element takes (a run-time array's ArrayStride), the bytes of the block around it (elem_offset: before a
 * run-time array; block_bytes: the whole block when it has none, from the members' Offset decorations, so a
 * std140 uniform block of mixed members is sized as the shader reads it) and whether a member is read-only or
 * write-only: from the block's OpTypeStruct, found in a second pass. */
static void scan_buffer_elements(scan *sc)
{
    reader *rd = &sc->rd;
    vkat_spirv_info *info = sc->info;
    for (size_t at = 5; at < rd->n;) {
        const uint32_t *ins = rd->w + at;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        for (uint32_t k = 0; op == SpvOpTypeStruct && len >= 3 && k < info->binding_count; k++) {
            if (sc->binding_type[k] != ins[1] || ins[1] >= rd->bound || !rd->ids[ins[1]].block)
                continue;
            uint32_t t = ins[len - 1], last_off = member_offset(rd, ins[1], len - 3), stride = 0;
            int runtime = t < rd->bound && rd->ids[t].op == SpvOpTypeRuntimeArray;
            uint64_t last_bytes = runtime ? 0 : member_bytes(rd, t);
            int arrayed = t < rd->bound && (runtime || rd->ids[t].op == SpvOpTypeArray);
            if (arrayed) {
                stride = rd->ids[t].stride;
                t = rd->ids[t].elem;
            }
            uint32_t comps = 1;
            if (t < rd->bound && rd->ids[t].op == SpvOpTypeVector) {
                comps = (uint32_t)rd->ids[t].value;
                t = rd->ids[t].elem;
            }
            const id_info *e = t < rd->bound ? &rd->ids[t] : NULL;
            info->bindings[k].access |= rd->ids[ins[1]].access;
            info->bindings[k].elem = !e                         ? 's'
                                     : e->op == SpvOpTypeFloat ? 'f'
                                     : e->op == SpvOpTypeInt   ? (e->is_signed ? 'i' : 'u')
                                                               : 's';
            info->bindings[k].elem_bits = (uint8_t)(e && info->bindings[k].elem != 's' ? e->size * 8 : 0);
            info->bindings[k].elem_leaf = info->bindings[k].elem == 's' && e ? e->leaf : 0;
            /* every store reaches into an element (a member of a struct, a component of a vector): the rest of it
             * keeps what was there */
            info->bindings[k].partial_writes = sc->store_depth[k] > (arrayed ? 2 : 1);
            info->bindings[k].stored = sc->store_depth[k] != 0;
            info->bindings[k].elem_components = (uint8_t)comps;
            info->bindings[k].elem_bytes = e ? e->size * comps : 0;
            if (info->bindings[k].elem == 's' && t < rd->bound)
                info->bindings[k].elem_bytes = rd->ids[t].size; /* a struct: its std430 size */
            info->bindings[k].elem_stride = stride ? stride : info->bindings[k].elem_bytes;
            info->bindings[k].runtime_array = (uint8_t)runtime;
            info->bindings[k].elem_offset = runtime ? last_off : 0;
            uint64_t bytes = runtime ? last_off : last_off + last_bytes;
            info->bindings[k].block_bytes = bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)bytes;
        }
        at += len ? len : 1;
    }
}

vkat_result vkat_spirv_reflect(const vkat_spirv *m, const vkat_spec_value *spec, size_t spec_count,
                               vkat_spirv_info *info, vkat_error *err)
{
    memset(info, 0, sizeof *info);
    info->local_size[0] = info->local_size[1] = info->local_size[2] = 1;
    info->local_size_spec[0] = info->local_size_spec[1] = info->local_size_spec[2] = -1;
    info->bound_push_member = info->bound_spec_id = info->bound_block = info->bound_block_member = -1;
    if (m->count < 5 || m->words[0] != SpvMagicNumber)
        return vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "not a SPIR-V module");
    scan sc = {{m->words, m->count, NULL, m->words[3], spec, spec_count}, info, 0, 0, 0, {0}, {0}, 0, 0, {0}};
    reader *rd = &sc.rd;
    if (rd->bound == 0 || rd->bound > (1u << 24))
        return vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIR-V id bound %u is implausible", rd->bound);
    rd->ids = calloc(rd->bound, sizeof *rd->ids);
    if (!rd->ids)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (uint32_t i = 0; i < rd->bound; i++)
        rd->ids[i].spec_id = rd->ids[i].set = rd->ids[i].binding = -1;

    vkat_result r = VKAT_OK;
    /* Decorations come before types and constants in a valid module, so one pass suffices. */
    for (size_t at = 5; at < m->count;) {
        const uint32_t *ins = m->words + at;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (len == 0 || at + len > m->count) {
            r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "malformed SPIR-V at word %zu", at);
            goto cleanup;
        }
        uint32_t res = 0;
        int done = scan_annotation(&sc, ins, len, op, at);
        if (!done)
            done = scan_opaque_type(&sc, ins, len, op, &res);
        if (!done)
            done = scan_data_type(&sc, ins, len, op, &res, err);
        if (!done)
            done = scan_constant(&sc, ins, len, op, at, &res);
        if (!done && !scan_variable(&sc, ins, len, op))
            scan_binding_use(&sc, ins, len, op);
        if (done < 0) {
            r = VKAT_ERR_VALIDATE;
            goto cleanup;
        }
        if (res >= rd->bound) {
            r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIR-V id %u beyond the bound %u", res, rd->bound);
            goto cleanup;
        }
        if (res && !rd->ids[res].op)
            rd->ids[res].op = (uint16_t)op;
        at += len;
    }
    if (!sc.have_entry) {
        r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "the module has no GLCompute entry point");
        goto cleanup;
    }
    info->uses_local_size_id = sc.have_local_size_id;
    /* The version header's SPIR-V fits Vulkan 1.3's environment, and the validator runs only for such shaders. */
    if (info->needs_scalar_layout)
        info->needs_scalar_layout = vkat_spirv_needs_scalar_layout(m, VK_MAKE_API_VERSION(0, 1, 3, 0));
    if (sc.have_local_size_id) {
        for (int i = 0; i < 3; i++) {
            uint64_t v = 1;
            if (const_of(rd, sc.local_size_ids[i], &v))
                info->local_size[i] = (uint32_t)v;
            info->local_size_spec[i] = sc.local_size_ids[i] < rd->bound ? rd->ids[sc.local_size_ids[i]].spec_id : -1;
        }
    }
    scan_push_block(&sc);
    scan_buffer_elements(&sc);
    scan_parameter_blocks(&sc);

cleanup:
    free(rd->ids);
    return r;
}
