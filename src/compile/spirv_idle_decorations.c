/* spirv_idle_decorations.c — decorations glslang leaves where they mean nothing, which SPIRV-Tools' validator refuses
 * while drivers ignore them and the shader runs in its own project; dropped right after glslang, before validation,
 * instead of refusing the shader:
 * - `layout(push_constant) restrict readonly uniform P { ... }` (Godot's compositor and compute files write it):
 *   the block's variable decorated NonWritable ("Target of NonWritable decoration is invalid"); a push-constant
 *   block is read-only anyway.
 * - `layout(binding = 0, location = 0) uniform sampler2D t;` (OpenGL's uniform locations, kept by glslang in
 *   Vulkan's and in its relaxed rules alike): a Location on a UniformConstant variable (VUID-StandaloneSpirv-
 *   Location-06672); a Vulkan resource is found by its set and binding alone. */
#include "spirv_idle_decorations.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

static int memory_qualifier(uint32_t d)
{
    return d == SpvDecorationNonWritable || d == SpvDecorationNonReadable || d == SpvDecorationRestrict ||
           d == SpvDecorationAliased || d == SpvDecorationCoherent || d == SpvDecorationVolatile;
}

enum { PUSH = 1, RESOURCE = 2 };

/* Marks in kind[] (one byte per id) every variable of the PushConstant storage class (PUSH) and every resource
 * variable (RESOURCE); 0 when there is none, or the module cannot be read. */
static int mark_variables(const uint32_t *words, size_t count, uint8_t *kind, uint32_t bound)
{
    int any = 0;
    for (size_t i = 5; i < count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        if (len == 0 || i + len > count)
            return 0;
        if (op == SpvOpVariable && len >= 4 && words[i + 2] < bound) {
            uint32_t c = words[i + 3];
            kind[words[i + 2]] = c == SpvStorageClassPushConstant ? PUSH
                                 : c == SpvStorageClassUniformConstant || c == SpvStorageClassUniform ||
                                           c == SpvStorageClassStorageBuffer
                                     ? RESOURCE
                                     : 0;
            any |= kind[words[i + 2]] != 0;
        }
        i += len;
    }
    return any;
}

size_t vkat_spirv_drop_idle_decorations(uint32_t *words, size_t *count)
{
    if (*count < 5 || words[0] != SpvMagicNumber)
        return 0;
    uint32_t bound = words[3];
    uint8_t *kind = calloc(bound ? bound : 1, 1);
    size_t removed = 0, out = 5;
    if (!kind || !mark_variables(words, *count, kind, bound)) {
        free(kind);
        return 0;
    }
    for (size_t i = 5; i < *count;) {
        uint32_t len = words[i] >> 16, op = words[i] & 0xffffu;
        uint8_t k = op == SpvOpDecorate && len >= 3 && words[i + 1] < bound ? kind[words[i + 1]] : 0;
        int drop = (k == PUSH && memory_qualifier(words[i + 2])) ||
                   (k == RESOURCE && words[i + 2] == SpvDecorationLocation);
        if (drop)
            removed++;
        else
            memmove(words + out, words + i, len * sizeof *words), out += len;
        i += len;
    }
    *count = out;
    free(kind);
    return removed;
}
