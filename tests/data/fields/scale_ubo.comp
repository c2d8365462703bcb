#version 450
// A kernel that takes its size and scale from a uniform block, as many engines' shaders do: what the block holds
// must be given ([fields.P]), since random bits would make the bound and the scale garbage.
layout(local_size_x_id = 0) in;
layout(std140, binding = 0) uniform Params {
    uint count;
    float scale;
    vec2 shift; // std140: at 8
    uint stride;
} P;
layout(std430, binding = 1) readonly buffer In { float x[]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.count)
        return;
    y[i] = P.scale * x[i * P.stride] + P.shift.x - P.shift.y;
}
