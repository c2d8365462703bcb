#version 450
// A transpose through a BY x BX tile: BX and BY, #defined here, are the workgroup's x and y sizes and the tile's;
// each invocation writes its own element, so every tile size computes the same result.
#define BX 32
#define BY 4u
layout(local_size_x = BX, local_size_y = BY) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform P { uint width; uint height; } p;
shared float tile[BY][BX + 1];

void main()
{
    uint x = gl_WorkGroupID.x * BX + gl_LocalInvocationID.x, y = gl_WorkGroupID.y * BY + gl_LocalInvocationID.y;
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    tile[ly][lx] = x < p.width && y < p.height ? src[y * p.width + x] : 0.0;
    barrier();
    if (x < p.width && y < p.height)
        dst[x * p.height + y] = tile[ly][lx];
}
