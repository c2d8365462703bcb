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
#include "spirv_compare.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

enum {
    F_INVOCATION = 1, /* derives from an invocation index */
    F_PUSH_VAR = 2,   /* the push-constant variable */
    F_BUFFER = 4,     /* a uniform or storage buffer's variable, a pointer into it, or a value read from it */
    F_BUFBOUND = 8,   /* a condition comparing an invocation index with buffer data */
    F_GUARDED = 16,   /* a buffer variable stored to under such a condition */
    F_BLOCK_VAR = 32, /* a parameter block's variable (a uniform block, a storage block only read: compile.h) */
    F_ARITH = 64,     /* passed through arithmetic (not only copies, conversions and extracts) */
    F_FLOAT = 128,    /* a float type, or a constant of one */
    F_LOCAL = 256,    /* derives from an index that varies inside a workgroup (not gl_WorkGroupID alone) */
    F_GROUP_INDEX = 512,   /* a pointer indexed by gl_WorkGroupID alone (`out[gl_WorkGroupID.x]`) */
    F_GROUP_STORED = 1024, /* a buffer variable stored to through such a pointer: one result per workgroup */
    F_BLOCKBOUND = 2048,   /* a condition comparing an invocation index with a parameter block's member (guard) */
    F_GUARDED_SIZE = 4096, /* a buffer variable stored to only under such conditions, of the member that bounds the
                              invocations (init makes it the problem size) */
    F_ATOMIC_RESULT = 8192, /* what an atomic read-modify-write returns (atomicAdd(count, 1): a slot handed out) */
    F_APPEND_INDEX = 16384, /* a pointer into a buffer indexed by such a value */
    F_APPENDED = 32768,     /* a buffer variable stored to through such a pointer: an append buffer */
};

/* flow.axis beyond 1 + a component: gl_GlobalInvocationID, gl_WorkGroupID and gl_LocalInvocationID as vectors,
 * and the components of the last two, which added (`gl_WorkGroupID.x * 16 + gl_LocalInvocationID.x`) make the
 * global index of that axis */
enum { AXIS_VEC = 4, AXIS_MIXED = 5, AXIS_GVEC = 6, AXIS_LVEC = 7, AXIS_G0 = 8, AXIS_L0 = 11 };

typedef struct flow {
    uint32_t origin;  /* 0 none; 1 + push member; SPEC_BASE + spec id; BLOCK_BASE | variable << 8 | member */
    uint32_t value;   /* OpConstant: its value (an access chain's member index) */
    uint32_t guard;   /* F_BLOCKBOUND: the block member's origin, the first met */
    uint32_t root;    /* pointers: the variable they point into */
    int32_t set, binding;
    uint16_t flags;
    uint8_t constant; /* value is known */
    uint8_t comp;     /* 1 + the component of a vector push or block member it is, 0 the whole member */
    uint8_t axis;     /* 1 + the gl_GlobalInvocationID component it derives from, AXIS_VEC the vector, AXIS_MIXED */
    uint8_t push;     /* 1 + the push member it derives from, the first met (origin may name a spec constant first:
                         ncnn's `psc(w)`, `w == 0 ? p.w : w`), 0 none */
} flow;

#define SPEC_BASE 0x10000u
#define BLOCK_BASE 0x80000000u /* a parameter block's member: its variable (< 2^23) and member (< 256) */
#define MAX_DEPTH 32
#define GUARD_DATA 1u /* a guard by buffer data other than one parameter block member */

typedef struct walk {
    const vkat_spirv_info *info;
    flow *ids;
    uint32_t *spec_ids; /* 1 + SpecId */
    uint32_t bound, found, found_block, pending_merge;
    uint8_t found_mask, found_block_mask; /* the components of found (found_block) that are compared (bit k:
                                             component k; 0xf: all) */
    int found_by_group; /* the first bound found compares an index of gl_WorkGroupID alone */
    uint8_t stride_axis[32]; /* push member -> 1 + the gl_GlobalInvocationID component it multiplies, 0 none */
    uint32_t region[MAX_DEPTH]; /* merge labels of the selections a buffer-bounded condition branches on */
    uint32_t region_guard[MAX_DEPTH]; /* what each compares with: a block member's origin, or GUARD_DATA */
    uint8_t returned[MAX_DEPTH];
    int depth;
    uint32_t rest_guard; /* after `if (i >= count) return;`: what follows runs under that bound (0: none) */
    uint32_t pair_var[32], pair_guard[32]; /* stores under one block member's bound: checked against the end's */
    int pairs;
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

/* The axis of a value combining one of axis a with one of axis b (a != b, both set): a workgroup's and a local
 * invocation's component of one axis make that axis's global index, anything else is mixed. */
static uint8_t group_plus_local(uint8_t a, uint8_t b)
{
    if (a > b) {
        uint8_t t = a;
        a = b, b = t;
    }
    return a >= AXIS_G0 && a < AXIS_G0 + 3 && b == a - AXIS_G0 + AXIS_L0 ? (uint8_t)(1 + a - AXIS_G0) : AXIS_MIXED;
}

static void merge(flow *dst, const flow *src)
{
    dst->flags |= src->flags & (F_INVOCATION | F_BUFFER | F_BUFBOUND | F_BLOCKBOUND | F_ARITH | F_LOCAL |
                                F_ATOMIC_RESULT);
    if (src->guard && dst->guard && src->guard != dst->guard)
        dst->flags |= F_BUFBOUND; /* `x >= b.w || y >= b.h`: two members, counted as data */
    if (!dst->guard)
        dst->guard = src->guard;
    if (!dst->origin)
        dst->origin = src->origin, dst->comp = src->comp;
    if (!dst->push)
        dst->push = src->push;
    if (src->axis && dst->axis != src->axis)
        dst->axis = !dst->axis ? src->axis : group_plus_local(dst->axis, src->axis);
}

/* merge for operand `which` (0: the first) of `op`: a shift's amount (`1u << p.level`, a bitonic sort's stage) is an
 * exponent, so the result is not that member's size; what else it carries (an invocation index) it passes on. */
static void merge_operand(flow *dst, const flow *src, uint32_t op, uint32_t which)
{
    flow amount = *src;
    if (which == 1 && (op == SpvOpShiftLeftLogical || op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic))
        amount.origin = 0, amount.push = 0, amount.comp = 0;
    merge(dst, &amount);
}

/* `gy * p.w`: a push member multiplying one component of gl_GlobalInvocationID (a row or plane stride, as in
 * `gz * p.cstep + gy * p.w + gx`) is noted for that component, the first met. */
static void stride(walk *wk, const flow *inv, const flow *by)
{
    if ((inv->flags & F_INVOCATION) && inv->axis >= 1 && inv->axis <= 3 && by->push && !(by->flags & F_INVOCATION) &&
        !wk->stride_axis[by->push - 1])
        wk->stride_axis[by->push - 1] = inv->axis;
}

static void set_axis(walk *wk, int a, char kind, uint8_t comp, uint32_t value)
{
    if (!wk->axis[a].kind)
        wk->axis[a].kind = kind, wk->axis[a].comp = comp, wk->axis[a].value = value;
}

/* The invocations a literal bound c lets through in an ordered comparison `op` of an index x with it (x on the left
 * when inv_left), integer or float (c's bits, as_float), 0 where it is not a plain count: `x >= c` exits and `x < c`
 * guards, c pass (a float's ceiling); `x > c` and `x <= c`, c + 1 (a float's floor + 1). */
static uint32_t literal_count(uint32_t op, uint32_t c, int as_float, int inv_left)
{
    int signed_op = op == SpvOpSGreaterThan || op == SpvOpSGreaterThanEqual || op == SpvOpSLessThan ||
                    op == SpvOpSLessThanEqual;
    int greater = vkat_spirv_cmp_greater(op), strict = vkat_spirv_cmp_strict(op);
    if (!inv_left) /* `c > x` is `x < c` */
        greater = !greater;
    double v = signed_op ? (double)(int32_t)c : (double)c;
    if (as_float) {
        float x;
        memcpy(&x, &c, sizeof x);
        v = x;
    }
    if (!(v >= 0 && v < 2147483647.0))
        return 0;
    double whole = (double)(uint32_t)v; /* v's floor */
    return greater == strict ? (uint32_t)whole + 1 : (uint32_t)whole + (whole < v);
}

/* The bound per axis of an ordered comparison `op` of inv (an invocation index) with bnd (not one). A parameter
 * block's member is noted by its origin, which vkat_spirv_find_bound turns into its binding. */
static void axis_compare(walk *wk, uint32_t op, const flow *inv, const flow *bnd, int inv_left)
{
    int block = bnd->origin >= BLOCK_BASE;
    if (inv->axis == AXIS_VEC && bnd->origin && (bnd->origin < SPEC_BASE || block) && !bnd->comp) {
        for (int k = 0; k < 3; k++) /* `lessThan(gid.xy, p.extent)`: component k by component k */
            set_axis(wk, k, block ? 'u' : 'p', (uint8_t)(k + 1), block ? bnd->origin : bnd->origin - 1);
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
        uint32_t count = literal_count(op, bnd->value, (bnd->flags & F_FLOAT) != 0, inv_left);
        if (count >= 2)
            set_axis(wk, a, 'l', 0, count);
    } else if (block) {
        set_axis(wk, a, 'u', bnd->comp, bnd->origin);
    } else if (bnd->flags & F_BUFFER) {
        set_axis(wk, a, 'b', 0, 0); /* buffer data: a later `i < 64u` guards a part, not the invocations */
    }
}

/* An ordered comparison (result `res`; integer, or float of a converted index: `vec2(gid.xy).x >= size.x`) of an
 * invocation index with a value from a push member, a spec constant or a parameter block's member: record that
 * origin (the first one met); with a value read from a buffer, mark the condition. */
static void compare(walk *wk, uint32_t op, uint32_t res, uint32_t a, uint32_t b)
{
    const flow *x = &wk->ids[a], *y = &wk->ids[b];
    const flow *bound = (x->flags & F_INVOCATION) && !(y->flags & F_INVOCATION)   ? y
                        : (y->flags & F_INVOCATION) && !(x->flags & F_INVOCATION) ? x
                                                                                  : NULL;
    if (bound)
        axis_compare(wk, op, bound == y ? x : y, bound, bound == y);
    uint8_t comps = bound && bound->comp ? (uint8_t)(1u << (bound->comp - 1)) : 0xfu;
    if (bound && bound->origin >= BLOCK_BASE && (!wk->found_block || wk->found_block == bound->origin)) {
        wk->found_block = bound->origin; /* buffer data too: marked below */
        wk->found_block_mask |= comps;
    } else if (bound && bound->origin && bound->origin < BLOCK_BASE && (!wk->found || wk->found == bound->origin)) {
        if (!wk->found)
            wk->found_by_group = !((bound == y ? x : y)->flags & F_LOCAL);
        wk->found = bound->origin; /* `p.x >= s.x || p.y >= s.y`: each component compared */
        wk->found_mask |= comps;
    }
    if (bound && bound->origin >= BLOCK_BASE && (bound->flags & F_BUFFER))
        wk->ids[res].flags |= F_BLOCKBOUND, wk->ids[res].guard = bound->origin;
    else if (bound && !bound->origin && (bound->flags & F_BUFFER))
        wk->ids[res].flags |= F_BUFBOUND;
}

/* Structured control flow: which stores happen under a buffer-bounded condition. */
static void control(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op)
{
    if (op == SpvOpFunction)
        wk->depth = wk->loops = 0, wk->rest_guard = 0;
    else if (op == SpvOpSelectionMerge && len >= 2)
        wk->pending_merge = ins[1];
    else if (op == SpvOpLoopMerge) {
        wk->pending_merge = 0; /* a loop's own condition is not a bound */
        if (len >= 2 && wk->loops < MAX_DEPTH)
            wk->loop_merge[wk->loops++] = ins[1];
    } else if (op == SpvOpBranchConditional && len >= 4 && ins[1] < wk->bound) {
        const flow *c = &wk->ids[ins[1]];
        if ((c->flags & (F_BUFBOUND | F_BLOCKBOUND)) && wk->pending_merge && wk->depth < MAX_DEPTH) {
            wk->region[wk->depth] = wk->pending_merge;
            wk->region_guard[wk->depth] = c->flags & F_BUFBOUND ? GUARD_DATA : c->guard;
            wk->returned[wk->depth++] = 0;
        }
        wk->pending_merge = 0;
    } else if (op == SpvOpLabel && len >= 2) {
        while (wk->loops && wk->loop_merge[wk->loops - 1] == ins[1])
            wk->loops--;
        while (wk->depth && wk->region[wk->depth - 1] == ins[1])
            if (wk->returned[--wk->depth]) { /* `if (i >= count) return;`: what follows runs under the bound */
                uint32_t g = wk->region_guard[wk->depth];
                wk->rest_guard = !wk->rest_guard || wk->rest_guard == g ? g : GUARD_DATA;
            }
    } else if ((op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill ||
                op == SpvOpTerminateInvocation) && wk->depth) {
        wk->returned[wk->depth - 1] = 1;
    }
}

/* An access chain [type, result, base, indices...] into a buffer whose indices derive from gl_WorkGroupID alone
 * (or whose base was so indexed): F_GROUP_INDEX on the result; F_APPEND_INDEX where one is an atomic's result. */
static void group_index(walk *wk, const uint32_t *ins, uint32_t len)
{
    flow *r = &wk->ids[ins[2]];
    int group = (wk->ids[ins[3]].flags & F_GROUP_INDEX) != 0;
    for (uint32_t i = 4; i < len && !group; i++)
        group = ins[i] < wk->bound && (wk->ids[ins[i]].flags & (F_INVOCATION | F_LOCAL)) == F_INVOCATION;
    if (group && (wk->ids[ins[3]].flags & F_BUFFER))
        r->flags |= F_GROUP_INDEX;
    for (uint32_t i = 4; i < len; i++) /* `out[atomicAdd(count, 1u)] = v`: an append, in the order slots go out */
        if (ins[i] < wk->bound && (wk->ids[ins[i]].flags & F_ATOMIC_RESULT) && (wk->ids[ins[3]].flags & F_BUFFER))
            r->flags |= F_APPEND_INDEX;
}

/* A store under buffer-bounded conditions: F_GUARDED on its variable, or, when they all compare with one parameter
 * block member, a pair that the end of the walk checks against the member found to bound the invocations. */
static void guarded_store(walk *wk, uint32_t var)
{
    uint32_t g = wk->rest_guard;
    for (int d = 0; d < wk->depth; d++)
        g = !g || g == wk->region_guard[d] ? wk->region_guard[d] : GUARD_DATA;
    if (g != GUARD_DATA && wk->pairs < (int)(sizeof wk->pair_var / sizeof wk->pair_var[0])) {
        wk->pair_var[wk->pairs] = var;
        wk->pair_guard[wk->pairs++] = g;
    } else {
        wk->ids[var].flags |= F_GUARDED;
    }
}

static void stored(walk *wk, uint32_t pointer)
{
    if (pointer < wk->bound && (wk->depth || wk->rest_guard) && wk->ids[pointer].root < wk->bound)
        guarded_store(wk, wk->ids[pointer].root);
    if (pointer < wk->bound && (wk->ids[pointer].flags & F_GROUP_INDEX) && wk->ids[pointer].root < wk->bound)
        wk->ids[wk->ids[pointer].root].flags |= F_GROUP_STORED;
    if (pointer < wk->bound && (wk->ids[pointer].flags & F_APPEND_INDEX) && wk->ids[pointer].root < wk->bound)
        wk->ids[wk->ids[pointer].root].flags |= F_APPENDED;
}

/* An atomic read-modify-write [type, result, pointer, ...]: a store into its buffer, and a result that is a slot
 * handed out (an append's index) wherever it goes. */
static void atomic(walk *wk, const uint32_t *ins)
{
    stored(wk, ins[3]);
    if (ins[2] < wk->bound)
        wk->ids[ins[2]].flags |= F_ATOMIC_RESULT;
}

/* Is set `set`, binding `binding` one of the parameter blocks vkat_spirv_reflect found (compile.h)? */
static int parameter_block(const vkat_spirv_info *info, int32_t set, int32_t binding)
{
    for (uint32_t b = 0; binding >= 0 && b < info->block_count; b++) {
        const __typeof__(info->bindings[0]) *k = &info->bindings[info->block_binding[b]];
        if (k->binding == (uint32_t)binding && k->set == (uint32_t)(set < 0 ? 0 : set))
            return 1;
    }
    return 0;
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
        else if (ins[2] == SpvDecorationBuiltIn && ins[3] == SpvBuiltInWorkgroupId)
            ids[ins[1]].axis = AXIS_GVEC;
        else if (ins[2] == SpvDecorationBuiltIn && ins[3] == SpvBuiltInLocalInvocationId)
            ids[ins[1]].axis = AXIS_LVEC;
        else if (ins[2] == SpvDecorationSpecId)
            wk->spec_ids[ins[1]] = ins[3] + 1;
        else if (ins[2] == SpvDecorationDescriptorSet)
            ids[ins[1]].set = (int32_t)ins[3];
        else if (ins[2] == SpvDecorationBinding)
            ids[ins[1]].binding = (int32_t)ins[3];
    } else if (op == SpvOpTypeFloat && len >= 2 && OK(ins[1])) {
        ids[ins[1]].flags |= F_FLOAT;
    } else if (op == SpvOpConstant && len >= 4 && OK(ins[2])) {
        ids[ins[2]].value = ins[3];
        ids[ins[2]].constant = 1;
        ids[ins[2]].flags |= OK(ins[1]) ? ids[ins[1]].flags & F_FLOAT : 0;
    } else if ((op == SpvOpSpecConstant || op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse) &&
               len >= 3 && OK(ins[2]) && wk->spec_ids[ins[2]]) {
        ids[ins[2]].origin = SPEC_BASE + wk->spec_ids[ins[2]] - 1;
    } else if (op == SpvOpSpecConstantOp && len >= 5 && OK(ins[2])) {
        for (uint32_t i = 4; i < len; i++)
            if (OK(ins[i]))
                merge_operand(&ids[ins[2]], &ids[ins[i]], ins[3], i - 4);
    } else if (op == SpvOpVariable && len >= 4 && OK(ins[2])) {
        if (ins[3] == SpvStorageClassPushConstant)
            ids[ins[2]].flags |= F_PUSH_VAR;
        else if (ins[3] == SpvStorageClassUniform || ins[3] == SpvStorageClassStorageBuffer)
            ids[ins[2]].flags |= F_BUFFER, ids[ins[2]].root = ins[2];
        if (parameter_block(wk->info, ids[ins[2]].set, ids[ins[2]].binding))
            ids[ins[2]].flags |= F_BLOCK_VAR;
    } else if ((op == SpvOpStore || op == SpvOpAtomicStore) && len >= 3 && OK(ins[1]) && OK(ins[2])) {
        stored(wk, ins[1]);
        if (op == SpvOpStore)
            merge(&ids[ins[1]], &ids[ins[2]]); /* a local variable holds what was stored in it */
    } else if (atomic_rmw(op) && len >= 4) {
        atomic(wk, ins);
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[2]) &&
               OK(ins[3]) && OK(ins[4]) && (ids[ins[3]].flags & F_PUSH_VAR)) {
        if (ids[ins[4]].constant && !ids[ins[2]].origin) {
            ids[ins[2]].origin = 1 + ids[ins[4]].value; /* a member of the push block */
            if (ids[ins[4]].value < 32)
                ids[ins[2]].push = (uint8_t)(1 + ids[ins[4]].value);
            if (len >= 6 && OK(ins[5]) && ids[ins[5]].constant && ids[ins[5]].value < 4)
                ids[ins[2]].comp = (uint8_t)(1 + ids[ins[5]].value); /* p.counts.x: one component of it */
        }
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[2]) &&
               OK(ins[3]) && OK(ins[4]) && (ids[ins[3]].flags & F_BLOCK_VAR) && ids[ins[4]].constant &&
               ids[ins[4]].value < 256 && ins[3] < (1u << 23)) {
        ids[ins[2]].flags |= F_BUFFER;
        ids[ins[2]].root = ins[3];
        ids[ins[2]].origin = BLOCK_BASE | ins[3] << 8 | ids[ins[4]].value; /* a member of a parameter block */
        if (len >= 6 && OK(ins[5]) && ids[ins[5]].constant && ids[ins[5]].value < 4)
            ids[ins[2]].comp = (uint8_t)(1 + ids[ins[5]].value); /* params.size.x */
    } else if ((vkat_spirv_cmp_ordered(op) || vkat_spirv_cmp_float(op)) && len >= 5 && OK(ins[2]) && OK(ins[3]) &&
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
                merge_operand(&ids[ins[2]], &ids[ins[i]], op, i - first);
        if ((op >= SpvOpSNegate && op <= SpvOpFMod) || (op >= SpvOpShiftRightLogical && op <= SpvOpNot))
            ids[ins[2]].flags |= F_ARITH;
        if (op == SpvOpIMul && len >= 5 && OK(ins[3]) && OK(ins[4]))
            stride(wk, &ids[ins[3]], &ids[ins[4]]), stride(wk, &ids[ins[4]], &ids[ins[3]]);
        flow *r = &ids[ins[2]];
        int vec = r->axis == AXIS_VEC || r->axis == AXIS_GVEC || r->axis == AXIS_LVEC;
        uint8_t first_comp = r->axis == AXIS_VEC ? 1 : r->axis == AXIS_GVEC ? AXIS_G0 : AXIS_L0;
        if (vec && (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[4]) &&
            ids[ins[4]].constant && ids[ins[4]].value < 3)
            r->axis = (uint8_t)(first_comp + ids[ins[4]].value); /* gl_GlobalInvocationID.y */
        else if (vec && op == SpvOpCompositeExtract && len >= 5 && ins[4] < 3)
            r->axis = (uint8_t)(first_comp + ins[4]);
        for (uint32_t i = 5; vec && op == SpvOpVectorShuffle && i < len; i++)
            if (ins[i] != i - 5)
                r->axis = AXIS_MIXED; /* gid.xy stays the vector, gid.yx does not */
        if ((last == 4 || op == SpvOpCopyObject) && OK(ins[3]))
            ids[ins[2]].root = ids[ins[3]].root; /* a pointer into the variable its base points into */
        if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && OK(ins[3]))
            group_index(wk, ins, len);
        if (op == SpvOpCompositeExtract && len >= 5 && OK(ins[3]) && ids[ins[3]].origin &&
            (ids[ins[3]].origin < SPEC_BASE || ids[ins[3]].origin >= BLOCK_BASE) && !ids[ins[3]].comp && ins[4] < 4)
            ids[ins[2]].comp = (uint8_t)(1 + ins[4]); /* a component of a loaded vector member */
    }
#undef OK
}

/* The index in info->bindings of the variable `var`'s descriptor, -1 when it has none. */
static int binding_of(const walk *wk, const vkat_spirv_info *info, uint32_t var)
{
    for (uint32_t k = 0; var < wk->bound && wk->ids[var].binding >= 0 && k < info->binding_count; k++)
        if (info->bindings[k].binding == (uint32_t)wk->ids[var].binding &&
            info->bindings[k].set == (uint32_t)(wk->ids[var].set < 0 ? 0 : wk->ids[var].set))
            return (int)k;
    return -1;
}

void vkat_spirv_find_bound(const uint32_t *w, size_t n, vkat_spirv_info *info)
{
    info->bound_push_member = info->bound_spec_id = info->bound_block = info->bound_block_member = -1;
    info->bound_push_components = info->bound_block_components = 0;
    info->bound_by_group = 0;
    memset(info->axis_bound, 0, sizeof info->axis_bound);
    memset(info->push_stride_axis, 0, sizeof info->push_stride_axis);
    if (n < 5 || w[3] == 0 || w[3] > (1u << 24))
        return;
    walk wk = {.info = info, .ids = calloc(w[3], sizeof(flow)), .spec_ids = calloc(w[3], sizeof(uint32_t)),
               .bound = w[3]};
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
    memcpy(info->push_stride_axis, wk.stride_axis, sizeof info->push_stride_axis);
    for (int a = 0; a < 3; a++) { /* a block member by its binding's index and its own */
        info->axis_bound[a] = wk.axis[a];
        int k = wk.axis[a].kind == 'u' ? binding_of(&wk, info, (wk.axis[a].value & ~BLOCK_BASE) >> 8) : -1;
        if (wk.axis[a].kind == 'u')
            info->axis_bound[a].value = k < 0 ? 0 : (uint32_t)k << 8 | (wk.axis[a].value & 0xffu);
        if (wk.axis[a].kind == 'u' && k < 0)
            info->axis_bound[a].kind = 'b';
    }
    if (wk.found >= SPEC_BASE)
        info->bound_spec_id = (int32_t)(wk.found - SPEC_BASE);
    else if (wk.found)
        info->bound_push_member = (int32_t)(wk.found - 1), info->bound_push_components = wk.found_mask;
    info->bound_by_group = wk.found && wk.found_by_group;
    int k = wk.found_block ? binding_of(&wk, info, (wk.found_block & ~BLOCK_BASE) >> 8) : -1;
    if (k >= 0) {
        info->bound_block = k;
        info->bound_block_member = (int32_t)(wk.found_block & 0xffu);
        info->bound_block_components = wk.found_block_mask;
    }
    for (int p = 0; p < wk.pairs; p++) {
        uint32_t g = wk.pair_guard[p];
        int size = g == wk.found_block;
        for (int a = 0; a < 3; a++)
            size |= wk.axis[a].kind == 'u' && wk.axis[a].value == g;
        wk.ids[wk.pair_var[p]].flags |= size ? F_GUARDED_SIZE : F_GUARDED;
    }
    for (uint32_t v = 0; v < wk.bound; v++) {
        if ((k = binding_of(&wk, info, v)) < 0)
            continue;
        if (wk.ids[v].flags & F_GUARDED)
            info->bindings[k].bounded_by_buffer = 1;
        else if (wk.ids[v].flags & F_GUARDED_SIZE)
            info->bindings[k].bounded_by_size_member = 1;
    }
    for (uint32_t v = 0; v < wk.bound; v++)
        if ((wk.ids[v].flags & F_GROUP_STORED) && (k = binding_of(&wk, info, v)) >= 0)
            info->bindings[k].per_group_output = 1;
    for (uint32_t v = 0; v < wk.bound; v++)
        if ((wk.ids[v].flags & F_APPENDED) && (k = binding_of(&wk, info, v)) >= 0)
            info->bindings[k].appended = 1;
done:
    free(wk.ids);
    free(wk.spec_ids);
}
