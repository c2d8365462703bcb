#version 450
// What push_wide.comp writes when its [push] values but n are 2, 3, 4, ... in the block's order.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params {
    mat4 transform;
    vec4 tint[5];
    uint n;
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    uint k = i % 37u;
    o[i] = k < 36u ? float(k + 2u) : float(p.n);
}
