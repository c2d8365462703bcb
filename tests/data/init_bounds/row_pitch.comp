#version 450
// A 2-D pass over rows of `pitch` elements (an image in a buffer with its row length apart from its width): init
// gives the pitch the width, where 1 folded every row onto the first.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Image { uint width; uint height; uint pitch; } p;
void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= p.width || g.y >= p.height)
        return;
    dst[g.y * p.pitch + g.x] = src[g.y * p.pitch + g.x] ^ 0x55u;
}
