#version 450
// A 2-D pass bounded per axis by two push members (`gid.x >= p.width || gid.y >= p.height`), a buffer of one item
// per invocation (`y * width + x`): two sizes, the buffers their product, the workgroups over both axes.
layout(local_size_x = 16, local_size_y = 4) in;
layout(push_constant) uniform P { uint width; uint height; float scale; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= p.width || g.y >= p.height)
        return;
    dst[g.y * p.width + g.x] = src[g.y * p.width + g.x] * p.scale + float(g.y);
}
