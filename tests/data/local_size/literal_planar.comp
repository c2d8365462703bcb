#version 450
// A 2-D pass whose 8 x 8 workgroup is fixed in the source and whose work depends on gl_GlobalInvocationID alone:
// init tunes its workgroup size over x and y (replace_local_size).
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Extent { uint width; uint height; } p;
void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= p.width || g.y >= p.height)
        return;
    uint i = g.y * p.width + g.x;
    dst[i] = src[i] * 0.5 + float(g.x & 3u);
}
