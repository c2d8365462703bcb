/* spirv_bound.c — which size a compute shader bounds its invocations by: the push-constant member or the
 * specialization constant that an ordered comparison sets against an invocation index (`if (gid >= p.n) return;`,
 * `idx < limit` where limit derives from p.size, ncnn's `gx >= psc(w)`). `vkautotune init` takes it as the problem
 * size instead of guessing the block's first integer, which is often a flag or a stride (records/
 * session15-thirdparty-trial.md).
 *
 * A flow-insensitive pass over function bodies: each value carries where it came from (one push member or spec
 * constant, the first met) and whether it derives from an invocation index, through loads, stores to local
 * variables, conversions, arithmetic, selects and extracts. It is a guess for a starting space, never a check:
 * it must not refuse anything. */
#include "spirv_bound.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>

enum { F_INVOCATION = 1, F_PUSH_VAR = 2 };

typedef struct flow {
    uint32_t origin;  /* 0 none; 1 + push member; SPEC_BASE + spec id */
    uint32_t value;   /* OpConstant: its value (an access chain's member index) */
    uint8_t flags;
    uint8_t constant; /* value is known */
} flow;

#define SPEC_BASE 0x10000u

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
           (op >= SpvOpSNegate && op <= SpvOpFMod) || (op >= SpvOpShiftRightLogical && op <= SpvOpNot);
}

static void merge(flow *dst, const flow *src)
{
    dst->flags |= src->flags & F_INVOCATION;
    if (!dst->origin)
        dst->origin = src->origin;
}

/* An ordered integer comparison of an invocation index with a value from a push member or a spec constant:
 * record that origin (the first one met). */
static void compare(const flow *ids, uint32_t a, uint32_t b, uint32_t *found)
{
    const flow *x = &ids[a], *y = &ids[b];
    if (*found)
        return;
    if ((x->flags & F_INVOCATION) && !(y->flags & F_INVOCATION) && y->origin)
        *found = y->origin;
    else if ((y->flags & F_INVOCATION) && !(x->flags & F_INVOCATION) && x->origin)
        *found = x->origin;
}

void vkat_spirv_find_bound(const uint32_t *w, size_t n, vkat_spirv_info *info)
{
    info->bound_push_member = info->bound_spec_id = -1;
    if (n < 5 || w[3] == 0 || w[3] > (1u << 24))
        return;
    uint32_t bound = w[3], found = 0;
    flow *ids = calloc(bound, sizeof *ids);
    uint32_t *spec_ids = calloc(bound, sizeof *spec_ids); /* 1 + SpecId */
    if (!ids || !spec_ids)
        goto done;
#define OK(i) ((i) < bound)
    for (size_t at = 5; at < n;) {
        const uint32_t *ins = w + at;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (len == 0 || at + len > n)
            break;
        if (op == SpvOpDecorate && len >= 4 && OK(ins[1])) {
            if (ins[2] == SpvDecorationBuiltIn && invocation_builtin(ins[3]))
                ids[ins[1]].flags |= F_INVOCATION;
            else if (ins[2] == SpvDecorationSpecId)
                spec_ids[ins[1]] = ins[3] + 1;
        } else if (op == SpvOpConstant && len >= 4 && OK(ins[2])) {
            ids[ins[2]].value = ins[3];
            ids[ins[2]].constant = 1;
        } else if ((op == SpvOpSpecConstant || op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse) &&
                   len >= 3 && OK(ins[2]) && spec_ids[ins[2]]) {
            ids[ins[2]].origin = SPEC_BASE + spec_ids[ins[2]] - 1;
        } else if (op == SpvOpSpecConstantOp && len >= 5 && OK(ins[2])) {
            for (uint32_t i = 4; i < len; i++)
                if (OK(ins[i]))
                    merge(&ids[ins[2]], &ids[ins[i]]);
        } else if (op == SpvOpVariable && len >= 4 && OK(ins[2]) && ins[3] == SpvStorageClassPushConstant) {
            ids[ins[2]].flags |= F_PUSH_VAR;
        } else if (op == SpvOpStore && len >= 3 && OK(ins[1]) && OK(ins[2])) {
            merge(&ids[ins[1]], &ids[ins[2]]); /* a local variable holds what was stored in it */
        } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[2]) &&
                   OK(ins[3]) && OK(ins[4]) && (ids[ins[3]].flags & F_PUSH_VAR)) {
            if (ids[ins[4]].constant && !ids[ins[2]].origin)
                ids[ins[2]].origin = 1 + ids[ins[4]].value; /* a member of the push block */
        } else if (op >= SpvOpUGreaterThan && op <= SpvOpSLessThanEqual && len >= 5 && OK(ins[3]) && OK(ins[4])) {
            compare(ids, ins[3], ins[4], &found);
        } else if (value_op(op) && len >= 4 && OK(ins[2])) {
            /* operands: ids after the result, but an access chain's indices are not what it points to, and an
             * extended instruction's set and number are not ids */
            uint32_t first = op == SpvOpExtInst ? 5 : 3;
            uint32_t last = op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain ? 4 : len;
            for (uint32_t i = first; i < last && i < len; i++)
                if (OK(ins[i]))
                    merge(&ids[ins[2]], &ids[ins[i]]);
        }
        at += len;
    }
#undef OK
    if (found >= SPEC_BASE)
        info->bound_spec_id = (int32_t)(found - SPEC_BASE);
    else if (found)
        info->bound_push_member = (int32_t)(found - 1);
done:
    free(ids);
    free(spec_ids);
}
