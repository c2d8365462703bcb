#version 450
// A 2-D box filter over a rectangular tile: BX and BY, #defined here, are the workgroup's x and y sizes and the
// tile's; each invocation adds its row neighbours inside the tile, so every BX but the shader's own computes
// other sums at the tile edges: the check refuses those variants.
#define BX 32
#define BY 4u
layout(local_size_x = BX, local_size_y = BY) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint width; uint height; } p;
shared float tile[BY][BX];

void main()
{
    uint x = gl_WorkGroupID.x * BX + gl_LocalInvocationID.x, y = gl_WorkGroupID.y * BY + gl_LocalInvocationID.y;
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    tile[ly][lx] = x < p.width && y < p.height ? src[y * p.width + x] : 0.0;
    barrier();
    float left = lx > 0 ? tile[ly][lx - 1] : 0.0, right = lx + 1 < BX ? tile[ly][lx + 1] : 0.0;
    if (x < p.width && y < p.height)
        dst[y * p.width + x] = left + tile[ly][lx] + right;
}
