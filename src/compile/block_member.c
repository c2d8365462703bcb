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

char vkat_push_scalar_at(const vkat_spirv_info *si, uint32_t i, uint32_t offset)
{
    const vkat_block_member *m = &si->push_members[i];
    if (offset + 4 <= m->offset || offset >= m->offset + m->size)
        return 0;
    if (m->leaf)
        return vkat_block_member_scalar_at(m, offset);
    if (i >= 32 || !(si->push_leaves_of & (1u << i)))
        return '?'; /* no layout known: every word of it wants a value */
    for (uint32_t k = 0; k < si->push_leaf_count; k++) {
        const vkat_block_member *l = &si->push_leaves[k];
        if (si->push_leaf_parent[k] == i && offset + 4 > l->offset && offset < l->offset + l->size)
            return l->leaf ? vkat_block_member_scalar_at(l, offset) : '?';
    }
    return 0; /* between a struct's members */
}
