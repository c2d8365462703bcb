/* spirv_push_qualifiers.c — `layout(push_constant) restrict readonly uniform P { ... }` (Godot's compositor and
 * compute files write it) is accepted by glslang, which decorates the block's variable NonWritable; SPIRV-Tools'
 * validator refuses that ("Target of NonWritable decoration is invalid"), since a push-constant block is read-only
 * anyway, while drivers ignore it and the shader runs in its own project. The decorations mean nothing on a push
 * constant, so they are dropped right after glslang, before validation, instead of refusing the shader. */
#include "spirv_push_qualifiers.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

static int memory_qualifier(uint32_t d)
{
    return d == SpvDecorationNonWritable || d == SpvDecorationNonReadable || d == SpvDecorationRestrict ||
           d == SpvDecorationAliased || d == SpvDecorationCoherent || d == SpvDecorationVolatile;
}

/* Marks in push[] (one byte per id) every variable of the PushConstant storage class; 0 when there is none. */
static int mark_push_variables(const uint32_t *words, size_t count, uint8_t *push, uint32_t bound)
{
    int any = 0;
    for (size_t i = 5; i < count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        if (len == 0 || i + len > count)
            return 0;
        if (op == SpvOpVariable && len >= 4 && words[i + 3] == SpvStorageClassPushConstant && words[i + 2] < bound)
            push[words[i + 2]] = 1, any = 1;
        i += len;
    }
    return any;
}

size_t vkat_spirv_drop_push_qualifiers(uint32_t *words, size_t *count)
{
    if (*count < 5 || words[0] != SpvMagicNumber)
        return 0;
    uint32_t bound = words[3];
    uint8_t *push = calloc(bound ? bound : 1, 1);
    size_t removed = 0, out = 5;
    if (!push || !mark_push_variables(words, *count, push, bound)) {
        free(push);
        return 0;
    }
    for (size_t i = 5; i < *count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        int drop = op == SpvOpDecorate && len >= 3 && words[i + 1] < bound && push[words[i + 1]] &&
                   memory_qualifier(words[i + 2]);
        if (drop)
            removed++;
        else
            memmove(words + out, words + i, len * sizeof *words), out += len;
        i += len;
    }
    *count = out;
    free(push);
    return removed;
}
