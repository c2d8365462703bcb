#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit members, one of them in a struct: [push] values are 32-bit, so init can give them no value.
layout(local_size_x = 64) in;
struct Noise { int64_t seed; float amount; };
layout(push_constant) uniform Params {
    uint n;
    uint64_t base;
    Noise noise;
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    o[i] = float(p.base + uint64_t(i)) + float(p.noise.seed) * p.noise.amount;
}
