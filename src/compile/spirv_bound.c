/* spirv_bound.c — which size a compute shader bounds its invocations by: the push-constant member or the
 * specialization constant that an ordered comparison sets against an invocation index (`if (gid >= p.n) return;`,
 * `idx < limit` where limit derives from p.size, ncnn's `gx >= psc(w)`). `vkautotune init` takes it as the problem
 * size instead of guessing the block's first integer, which is often a flag or a stride (records/
 * session15-thirdparty-trial.md). A bound read from a buffer instead (a uniform block's model_count, a matrix's
 * header) is noted on each buffer stored to under it: init fills buffers with random data, so how much of such an
 * output the shader writes is unknown.
 *
 * A flow-insensitive pass over function bodies: each value carries where it came from (one push member or spec
 * constant, the first met) and whether it derives from an invocation index or from buffer data, through loads,
 * stores to local variables, conversions, arithmetic, logic, selects and extracts. Stores count as under a bound
 * inside the selection construct its comparison branches on, and after it when the construct returns (the early
 * exit). It is a guess for a starting space, never a check: it must not refuse anything.
 *
 * Per axis of gl_GlobalInvocationID it also notes what a comparison with that component alone bounds it by, so that
 * a 2-D pass bounded by `gid.x >= p.width || gid.y >= p.height`, or by the literals a shader's #defines leave
 * (`gid.y >= 2400`), gets a size per axis. A literal counts only outside loops and against the component itself
 * (not `gid.x * 4`), where it is the count of invocations the shader lets through. */
#include "spirv_bound.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

enum {
    F_INVOCATION = 1, /* derives from an invocation index */
    F_PUSH_VAR = 2,   /* the push-constant variable */
    F_BUFFER = 4,     /* a uniform or storage buffer's variable, a pointer into it, or a value read from it */
    F_BUFBOUND = 8,   /* a condition comparing an invocation index with buffer data */
    F_GUARDED = 16,   /* a buffer variable stored to under such a condition */
    F_UNIFORM_VAR = 32, /* a uniform block's variable */
    F_ARITH = 64,       /* passed through arithmetic (not only copies, conversions and extracts) */
    F_LOCAL = 128,      /* derives from an index that varies inside a workgroup (not gl_WorkGroupID alone) */
};

enum { AXIS_VEC = 4, AXIS_MIXED = 5 }; /* flow.axis beyond 1 + a component */

typedef struct flow {
    uint32_t origin;  /* 0 none; 1 + push member; SPEC_BASE + spec id; BLOCK_BASE | variable << 8 | member */
    uint32_t value;   /* OpConstant: its value (an access chain's member index) */
    uint32_t root;    /* pointers: the variable they point into */
    int32_t set, binding;
    uint8_t flags;
    uint8_t constant; /* value is known */
    uint8_t comp;     /* 1 + the component of a vector push member it is, 0 the whole member */
    uint8_t axis;     /* 1 + the gl_GlobalInvocationID component it derives from, AXIS_VEC the vector, AXIS_MIXED */
} flow;

#define SPEC_BASE 0x10000u
#define BLOCK_BASE 0x80000000u /* a uniform block's member: its variable (< 2^23) and member (< 256) */
#define MAX_DEPTH 32

typedef struct walk {
    flow *ids;
    uint32_t *spec_ids; /* 1 + SpecId */
    uint32_t bound, found, found_block, pending_merge;
    int found_by_group; /* the first bound found compares an index of gl_WorkGroupID alone */
    uint8_t found_mask; /* the components of found that are compared (bit k: component k; 0xf: all) */
    uint32_t region[MAX_DEPTH]; /* merge labels of the selections a buffer-bounded condition branches on */
    uint8_t returned[MAX_DEPTH];
    int depth, guarded_rest;
    uint32_t loop_merge[MAX_DEPTH]; /* merge labels of the loops the walk is inside */
    int loops;
    __typeof__(((vkat_spirv_info *)0)->axis_bound[0]) axis[3];
} walk;

static int invocation_builtin(uint32_t b)
{
    return b == SpvBuiltInGlobalInvocationId || b == SpvBuiltInLocalInvocationId || b == SpvBuiltInWorkgroupId ||
           b == SpvBuiltInLocalInvocationIndex;
}

/* Value instructions [type, result, operands...] whose result carries what its id operands carry. */
static int value_op(uint32_t op)
{
    return op == SpvOpLoad || op == SpvOpCopyObject || op == SpvOpCompositeExtract || op == SpvOpVectorShuffle ||
           op == SpvOpSelect || op == SpvOpPhi || op == SpvOpExtInst || op == SpvOpAccessChain ||
           op == SpvOpInBoundsAccessChain || (op >= SpvOpConvertFToU && op <= SpvOpBitcast) ||
           (op >= SpvOpSNegate && op <= SpvOpFMod) || (op >= SpvOpLogicalEqual && op <= SpvOpLogicalNot) ||
           (op >= SpvOpShiftRightLogical && op <= SpvOpNot);
}

static void merge(flow *dst, const flow *src)
{
    dst->flags |= src->flags & (F_INVOCATION | F_BUFFER | F_BUFBOUND | F_ARITH | F_LOCAL);
    if (!dst->origin)
        dst->origin = src->origin, dst->comp = src->comp;
    if (src->axis && dst->axis != src->axis)
        dst->axis = dst->axis ? AXIS_MIXED : src->axis;
}

static void set_axis(walk *wk, int a, char kind, uint8_t comp, uint32_t value)
{
    if (!wk->axis[a].kind)
        wk->axis[a].kind = kind, wk->axis[a].comp = comp, wk->axis[a].value = value;
}

/* The bound per axis of an ordered comparison `op` of inv (an invocation index) with bnd (not one). */
static void axis_compare(walk *wk, uint32_t op, const flow *inv, const flow *bnd, int inv_left)
{
    if (inv->axis == AXIS_VEC && bnd->origin && bnd->origin < SPEC_BASE && !bnd->comp) {
        for (int k = 0; k < 3; k++) /* `lessThan(gid.xy, p.extent)`: component k by component k */
            set_axis(wk, k, 'p', (uint8_t)(k + 1), bnd->origin - 1);
        return;
    }
    if (inv->axis < 1 || inv->axis > 3)
        return;
    int a = inv->axis - 1;
    if (bnd->origin && bnd->origin < SPEC_BASE) {
        set_axis(wk, a, 'p', bnd->comp, bnd->origin - 1);
    } else if (bnd->origin >= SPEC_BASE && bnd->origin < BLOCK_BASE) {
        set_axis(wk, a, 's', 0, bnd->origin - SPEC_BASE);
    } else if (!bnd->origin && bnd->constant && !(inv->flags & F_ARITH) && !(bnd->flags & F_BUFFER) && !wk->loops) {
        int signed_op = op == SpvOpSGreaterThan || op == SpvOpSGreaterThanEqual || op == SpvOpSLessThan ||
                        op == SpvOpSLessThanEqual;
        int greater = op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpUGreaterThanEqual ||
                      op == SpvOpSGreaterThanEqual;
        int strict = op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpULessThan ||
                     op == SpvOpSLessThan;
        if (!inv_left) /* `c > x` is `x < c` */
            greater = !greater;
        uint32_t c = bnd->value;
        if ((signed_op && (int32_t)c < 0) || c >= 0x7fffffffu)
            return;
        /* `x >= c` exits and `x < c` guards: c pass; `x > c` and `x <= c`: c + 1 */
        uint32_t count = greater == strict ? c + 1 : c;
        if (count >= 2)
            set_axis(wk, a, 'l', 0, count);
    } else if (bnd->origin >= BLOCK_BASE || (bnd->flags & F_BUFFER)) {
        set_axis(wk, a, 'b', 0, 0); /* buffer data: a later `i < 64u` guards a part, not the invocations */
    }
}

/* An ordered integer comparison (result `res`) of an invocation index with a value from a push member or a spec
 * constant: record that origin (the first one met); with a value read from a buffer, mark the condition. */
static void compare(walk *wk, uint32_t op, uint32_t res, uint32_t a, uint32_t b)
{
    const flow *x = &wk->ids[a], *y = &wk->ids[b];
    const flow *bound = (x->flags & F_INVOCATION) && !(y->flags & F_INVOCATION)   ? y
                        : (y->flags & F_INVOCATION) && !(x->flags & F_INVOCATION) ? x
                                                                                  : NULL;
    if (bound)
        axis_compare(wk, op, bound == y ? x : y, bound, bound == y);
    if (bound && bound->origin >= BLOCK_BASE && !wk->found_block)
        wk->found_block = bound->origin; /* buffer data too: marked below */
    else if (bound && bound->origin && bound->origin < BLOCK_BASE && (!wk->found || wk->found == bound->origin)) {
        if (!wk->found)
            wk->found_by_group = !((bound == y ? x : y)->flags & F_LOCAL);
        wk->found = bound->origin; /* `p.x >= s.x || p.y >= s.y`: each component compared */
        wk->found_mask |= bound->comp ? (uint8_t)(1u << (bound->comp - 1)) : 0xfu;
    }
    if (bound && (!bound->origin || bound->origin >= BLOCK_BASE) && (bound->flags & F_BUFFER))
        wk->ids[res].flags |= F_BUFBOUND;
}

/* Structured control flow: which stores happen under a buffer-bounded condition. */
static void control(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op)
{
    if (op == SpvOpFunction)
        wk->depth = wk->guarded_rest = wk->loops = 0;
    else if (op == SpvOpSelectionMerge && len >= 2)
        wk->pending_merge = ins[1];
    else if (op == SpvOpLoopMerge) {
        wk->pending_merge = 0; /* a loop's own condition is not a bound */
        if (len >= 2 && wk->loops < MAX_DEPTH)
            wk->loop_merge[wk->loops++] = ins[1];
    } else if (op == SpvOpBranchConditional && len >= 4 && ins[1] < wk->bound) {
        if ((wk->ids[ins[1]].flags & F_BUFBOUND) && wk->pending_merge && wk->depth < MAX_DEPTH) {
            wk->region[wk->depth] = wk->pending_merge;
            wk->returned[wk->depth++] = 0;
        }
        wk->pending_merge = 0;
    } else if (op == SpvOpLabel && len >= 2) {
        while (wk->loops && wk->loop_merge[wk->loops - 1] == ins[1])
            wk->loops--;
        while (wk->depth && wk->region[wk->depth - 1] == ins[1])
            if (wk->returned[--wk->depth])
                wk->guarded_rest = 1; /* `if (i >= count) return;`: what follows runs under the bound */
    } else if ((op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
                op == SpvOpTerminateInvocation) && wk->depth) {
        wk->returned[wk->depth - 1] = 1;
    }
}

static void stored(walk *wk, uint32_t pointer)
{
    if (pointer < wk->bound && (wk->depth || wk->guarded_rest) && wk->ids[pointer].root < wk->bound)
        wk->ids[wk->ids[pointer].root].flags |= F_GUARDED;
}

static int atomic_rmw(uint32_t op)
{
    return (op >= SpvOpAtomicExchange && op <= SpvOpAtomicXor) || op == SpvOpAtomicFMinEXT ||
           op == SpvOpAtomicFMaxEXT || op == SpvOpAtomicFAddEXT;
}

static void step(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op)
{
    flow *ids = wk->ids;
#define OK(i) ((i) < wk->bound)
    control(wk, ins, len, op);
    if (op == SpvOpDecorate && len >= 4 && OK(ins[1])) {
        if (ins[2] == SpvDecorationBuiltIn && invocation_builtin(ins[3]))
            ids[ins[1]].flags |= F_INVOCATION | (ins[3] == SpvBuiltInWorkgroupId ? 0 : F_LOCAL);
        if (ins[2] == SpvDecorationBuiltIn && ins[3] == SpvBuiltInGlobalInvocationId)
            ids[ins[1]].axis = AXIS_VEC;
        else if (ins[2] == SpvDecorationSpecId)
            wk->spec_ids[ins[1]] = ins[3] + 1;
        else if (ins[2] == SpvDecorationDescriptorSet)
            ids[ins[1]].set = (int32_t)ins[3];
        else if (ins[2] == SpvDecorationBinding)
            ids[ins[1]].binding = (int32_t)ins[3];
    } else if (op == SpvOpConstant && len >= 4 && OK(ins[2])) {
        ids[ins[2]].value = ins[3];
        ids[ins[2]].constant = 1;
    } else if ((op == SpvOpSpecConstant || op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse) &&
               len >= 3 && OK(ins[2]) && wk->spec_ids[ins[2]]) {
        ids[ins[2]].origin = SPEC_BASE + wk->spec_ids[ins[2]] - 1;
    } else if (op == SpvOpSpecConstantOp && len >= 5 && OK(ins[2])) {
        for (uint32_t i = 4; i < len; i++)
            if (OK(ins[i]))
                merge(&ids[ins[2]], &ids[ins[i]]);
    } else if (op == SpvOpVariable && len >= 4 && OK(ins[2])) {
        if (ins[3] == SpvStorageClassPushConstant)
            ids[ins[2]].flags |= F_PUSH_VAR;
        else if (ins[3] == SpvStorageClassUniform || ins[3] == SpvStorageClassStorageBuffer)
            ids[ins[2]].flags |= F_BUFFER, ids[ins[2]].root = ins[2];
        if (ins[3] == SpvStorageClassUniform)
            ids[ins[2]].flags |= F_UNIFORM_VAR;
    } else if ((op == SpvOpStore || op == SpvOpAtomicStore) && len >= 3 && OK(ins[1]) && OK(ins[2])) {
        stored(wk, ins[1]);
        if (op == SpvOpStore)
            merge(&ids[ins[1]], &ids[ins[2]]); /* a local variable holds what was stored in it */
    } else if (atomic_rmw(op) && len >= 4) {
        stored(wk, ins[3]);
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[2]) &&
               OK(ins[3]) && OK(ins[4]) && (ids[ins[3]].flags & F_PUSH_VAR)) {
        if (ids[ins[4]].constant && !ids[ins[2]].origin) {
            ids[ins[2]].origin = 1 + ids[ins[4]].value; /* a member of the push block */
            if (len >= 6 && OK(ins[5]) && ids[ins[5]].constant && ids[ins[5]].value < 4)
                ids[ins[2]].comp = (uint8_t)(1 + ids[ins[5]].value); /* p.counts.x: one component of it */
        }
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[2]) &&
               OK(ins[3]) && OK(ins[4]) && (ids[ins[3]].flags & F_UNIFORM_VAR) && ids[ins[4]].constant &&
               ids[ins[4]].value < 256 && ins[3] < (1u << 23)) {
        ids[ins[2]].flags |= F_BUFFER;
        ids[ins[2]].root = ins[3];
        ids[ins[2]].origin = BLOCK_BASE | ins[3] << 8 | ids[ins[4]].value; /* a member of a uniform block */
    } else if (op >= SpvOpUGreaterThan && op <= SpvOpSLessThanEqual && len >= 5 && OK(ins[2]) && OK(ins[3]) &&
               OK(ins[4])) {
        compare(wk, op, ins[2], ins[3], ins[4]);
    } else if (value_op(op) && len >= 4 && OK(ins[2])) {
        /* operands: ids after the result, but an access chain's indices are not what it points to, and an
         * extended instruction's set and number, an extract's or a shuffle's literals are not ids */
        uint32_t first = op == SpvOpExtInst ? 5 : 3;
        uint32_t last = op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpCompositeExtract ? 4
                        : op == SpvOpVectorShuffle                                                          ? 5
                                                                                                            : len;
        for (uint32_t i = first; i < last && i < len; i++)
            if (OK(ins[i]))
                merge(&ids[ins[2]], &ids[ins[i]]);
        if ((op >= SpvOpSNegate && op <= SpvOpFMod) || (op >= SpvOpShiftRightLogical && op <= SpvOpNot))
            ids[ins[2]].flags |= F_ARITH;
        flow *r = &ids[ins[2]];
        if (r->axis == AXIS_VEC && (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 &&
            OK(ins[4]) && ids[ins[4]].constant && ids[ins[4]].value < 3)
            r->axis = (uint8_t)(1 + ids[ins[4]].value); /* gl_GlobalInvocationID.y */
        else if (r->axis == AXIS_VEC && op == SpvOpCompositeExtract && len >= 5 && ins[4] < 3)
            r->axis = (uint8_t)(1 + ins[4]);
        for (uint32_t i = 5; r->axis == AXIS_VEC && op == SpvOpVectorShuffle && i < len; i++)
            if (ins[i] != i - 5)
                r->axis = AXIS_MIXED; /* gid.xy stays the vector, gid.yx does not */
        if ((last == 4 || op == SpvOpCopyObject) && OK(ins[3]))
            ids[ins[2]].root = ids[ins[3]].root; /* a pointer into the variable its base points into */
        if (op == SpvOpCompositeExtract && len >= 5 && OK(ins[3]) && ids[ins[3]].origin &&
            ids[ins[3]].origin < SPEC_BASE && !ids[ins[3]].comp && ins[4] < 4)
            ids[ins[2]].comp = (uint8_t)(1 + ins[4]); /* a component of a loaded vector member */
    }
#undef OK
}

void vkat_spirv_find_bound(const uint32_t *w, size_t n, vkat_spirv_info *info)
{
    info->bound_push_member = info->bound_spec_id = info->bound_block = info->bound_block_member = -1;
    info->bound_push_components = 0;
    info->bound_by_group = 0;
    memset(info->axis_bound, 0, sizeof info->axis_bound);
    if (n < 5 || w[3] == 0 || w[3] > (1u << 24))
        return;
    walk wk = {.ids = calloc(w[3], sizeof(flow)), .spec_ids = calloc(w[3], sizeof(uint32_t)), .bound = w[3]};
    if (!wk.ids || !wk.spec_ids)
        goto done;
    for (uint32_t i = 0; i < wk.bound; i++)
        wk.ids[i].set = wk.ids[i].binding = -1;
    for (size_t at = 5; at < n;) {
        uint32_t len = w[at] >> 16, op = w[at] & 0xffff;
        if (len == 0 || at + len > n)
            break;
        step(&wk, w + at, len, op);
        at += len;
    }
    for (int a = 0; a < 3; a++)
        info->axis_bound[a] = wk.axis[a];
    if (wk.found >= SPEC_BASE)
        info->bound_spec_id = (int32_t)(wk.found - SPEC_BASE);
    else if (wk.found)
        info->bound_push_member = (int32_t)(wk.found - 1), info->bound_push_components = wk.found_mask;
    info->bound_by_group = wk.found && wk.found_by_group;
    uint32_t var = (wk.found_block & ~BLOCK_BASE) >> 8;
    for (uint32_t k = 0; wk.found_block && k < info->binding_count; k++)
        if (wk.ids[var].binding >= 0 && info->bindings[k].binding == (uint32_t)wk.ids[var].binding &&
            info->bindings[k].set == (uint32_t)(wk.ids[var].set < 0 ? 0 : wk.ids[var].set)) {
            info->bound_block = (int32_t)k;
            info->bound_block_member = (int32_t)(wk.found_block & 0xffu);
        }
    for (uint32_t v = 0; v < wk.bound; v++)
        for (uint32_t k = 0; (wk.ids[v].flags & F_GUARDED) && wk.ids[v].binding >= 0 && k < info->binding_count; k++)
            if (info->bindings[k].binding == (uint32_t)wk.ids[v].binding &&
                info->bindings[k].set == (uint32_t)(wk.ids[v].set < 0 ? 0 : wk.ids[v].set))
                info->bindings[k].bounded_by_buffer = 1;
done:
    free(wk.ids);
    free(wk.spec_ids);
}
