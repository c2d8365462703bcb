/* spirv_compare.h — internal: what an ordered comparison's opcode says, integer or float (spirv_bound.c,
 * spirv_index.c). */
#ifndef VKAT_SPIRV_COMPARE_H
#define VKAT_SPIRV_COMPARE_H

#include <spirv/unified1/spirv.h>
#include <stdint.h>

/* OpFOrdLessThan..OpFUnordGreaterThanEqual: ordered / unordered pairs of <, >, <=, >= */
static inline int vkat_spirv_cmp_float(uint32_t op)
{
    return op >= SpvOpFOrdLessThan && op <= SpvOpFUnordGreaterThanEqual;
}

/* `x > y`, `x >= y` (signed or not, or float); the others are `x < y`, `x <= y`. */
static inline int vkat_spirv_cmp_greater(uint32_t op)
{
    if (vkat_spirv_cmp_float(op))
        return (op - SpvOpFOrdLessThan) / 2 % 2 == 1;
    return op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpUGreaterThanEqual ||
           op == SpvOpSGreaterThanEqual;
}

/* `x > y`, `x < y`: without equality. */
static inline int vkat_spirv_cmp_strict(uint32_t op)
{
    if (vkat_spirv_cmp_float(op))
        return (op - SpvOpFOrdLessThan) / 2 <= 1;
    return op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpULessThan || op == SpvOpSLessThan;
}

static inline int vkat_spirv_cmp_ordered(uint32_t op)
{
    return op >= SpvOpUGreaterThan && op <= SpvOpSLessThanEqual;
}

#endif
