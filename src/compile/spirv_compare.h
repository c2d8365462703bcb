/* spirv_compare.h — internal: what an ordered integer comparison's opcode says (spirv_bound.c, spirv_index.c). */
#ifndef VKAT_SPIRV_COMPARE_H
#define VKAT_SPIRV_COMPARE_H

#include <spirv/unified1/spirv.h>
#include <stdint.h>

/* `x > y`, `x >= y` (signed or not); the others of OpUGreaterThan..OpSLessThanEqual are `x < y`, `x <= y`. */
static inline int vkat_spirv_cmp_greater(uint32_t op)
{
    return op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpUGreaterThanEqual ||
           op == SpvOpSGreaterThanEqual;
}

/* `x > y`, `x < y`: without equality. */
static inline int vkat_spirv_cmp_strict(uint32_t op)
{
    return op == SpvOpUGreaterThan || op == SpvOpSGreaterThan || op == SpvOpULessThan || op == SpvOpSLessThan;
}

static inline int vkat_spirv_cmp_ordered(uint32_t op)
{
    return op >= SpvOpUGreaterThan && op <= SpvOpSLessThanEqual;
}

#endif
