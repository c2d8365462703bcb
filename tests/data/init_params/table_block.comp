#version 450
// Two readonly storage blocks without a run-time array: a 256-entry lookup table is data (random, like any input),
// a small block of weights and a count is parameters ([fields]: the weights 1 each, the count the size).
layout(constant_id = 0) const uint WG = 64;
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer Table { float lut[256]; };
layout(std430, set = 0, binding = 1) readonly buffer Coef { float w[3]; uint n; } coef;
layout(std430, set = 0, binding = 2) writeonly buffer Dst { float dst[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= coef.n)
        return;
    dst[i] = coef.w[0] * lut[i % 256u] + coef.w[1] * lut[(i + 1u) % 256u] + coef.w[2];
}
