#version 450
// A 1-D three-point stencil through shared memory: BLOCK, #defined here, is the workgroup size, the tile's size
// (with one halo element on each side) and the stride of the workgroups' ranges.
#define BLOCK 128
layout(local_size_x = BLOCK) in;
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
