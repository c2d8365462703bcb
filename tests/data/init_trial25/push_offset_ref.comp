#version 450
// What push_offset.comp writes when its [push] values after n are 2, 3, 4, ... in the block's order.
layout(local_size_x = 64) in;
struct Light { vec3 color; float intensity; };
layout(push_constant, std140) uniform Params {
    layout(offset = 16) uint n;
    layout(offset = 24) vec2 scale;
    layout(offset = 40) float bias;
    layout(offset = 48) Light light;
    layout(offset = 64) ivec4 taps;
    layout(offset = 96) float w[2];
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    uint k = i % 14u;
    o[i] = k == 0u ? float(p.n) : float(k + 1u);
}
