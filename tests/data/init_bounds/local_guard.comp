#version 450
// A 2-D pass bounded per axis by push members, where the first 8 invocations of each workgroup row also write a
// second output: the literal 8 compared with gl_LocalInvocationID.x bounds part of a workgroup, not an axis.
layout(local_size_x = 16, local_size_y = 4) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) buffer Edge { float edge[]; };
layout(push_constant) uniform P { uint width; uint height; } p;

void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= p.width || g.y >= p.height)
        return;
    dst[g.y * p.width + g.x] = src[g.y * p.width + g.x] + 1.0;
    if (gl_LocalInvocationID.x < 8u)
        edge[g.y * p.width + g.x] += 1.0;
}
