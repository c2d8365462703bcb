#version 450
// A 2-D pass (a size per axis) that writes two elements per invocation along x: its buffer's count is the product
// of the sizes, which one index along x does not give, so it stays, with a note.
layout(local_size_x = 16, local_size_y = 4) in;
layout(push_constant) uniform P { uint width; uint height; } p;
layout(std430, binding = 0) writeonly buffer Out { float dst[]; };
void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= p.width || g.y >= p.height)
        return;
    dst[2 * g.x + 1] = float(g.y);
}
