#version 450
// What push_struct.comp writes when its [push] values after n are 2, 3, 4, ... in the block's order.
layout(local_size_x = 64) in;
struct Light { vec3 color; float intensity; };
struct Ramp { float start; float step; ivec2 range; };
layout(push_constant) uniform Params {
    uint n;
    Light light;
    float weights[3];
    Ramp ramps[2];
    uvec2 grid[2][2];
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    uint k = i % 24u;
    o[i] = k == 0u ? float(p.n) : float(k + 1u);
}
