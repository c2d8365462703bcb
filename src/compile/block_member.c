/* block_member.c — where a block member's 32-bit scalars lie (compile.h's vkat_block_member, reflected by
 * spirv_info.c), so that a [push] value or a field at some byte can be checked against the member's type there: an
 * array's elements and a matrix's columns are strided, and the bytes between them hold nothing. */
#include "compile.h"

char vkat_block_member_scalar_at(const vkat_block_member *m, uint32_t offset)
{
    if (offset < m->offset || offset - m->offset >= m->size || !m->leaf)
        return 0;
    uint32_t rel = offset - m->offset;
    if (m->array_stride) {
        if (rel / m->array_stride >= m->count)
            return 0;
        rel %= m->array_stride;
    }
    if (m->vector_stride) {
        if (rel / m->vector_stride >= m->vectors)
            return 0;
        rel %= m->vector_stride;
    }
    return rel / 4 < m->lanes ? m->leaf : 0;
}
