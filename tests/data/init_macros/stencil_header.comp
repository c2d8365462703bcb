#version 450
// stencil_block.comp with BLOCK #defined, and the workgroup size declared by it, in an included header
// (block_layout.glsl): the shared tile here is sized by the header's macro.
#include "block_layout.glsl"
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint n; } p;
shared float tile[BLOCK + 2];

void main()
{
    uint i = gl_WorkGroupID.x * BLOCK + gl_LocalInvocationID.x, l = gl_LocalInvocationID.x + 1;
    tile[l] = i < p.n ? src[i] : 0.0;
    if (gl_LocalInvocationID.x == 0)
        tile[0] = i > 0 && i - 1 < p.n ? src[i - 1] : 0.0;
    if (gl_LocalInvocationID.x == BLOCK - 1)
        tile[BLOCK + 1] = i + 1 < p.n ? src[i + 1] : 0.0;
    barrier();
    if (i < p.n)
        dst[i] = 0.25 * tile[l - 1] + 0.5 * tile[l] + 0.25 * tile[l + 1];
}
