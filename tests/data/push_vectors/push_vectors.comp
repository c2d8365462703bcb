#version 450
// A push-constant block of vectors and std430 padding (tests/cli/init.sh): n at 0, tint (a vec4) at 16 after 12
// bytes of padding, size (an ivec2) at 32, scale at 40, and bias at 48 by an explicit offset.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P {
    uint n;
    vec4 tint;
    ivec2 size;
    float scale;
    layout(offset = 48) float bias;
} p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        y[i] = x[i] * p.scale * p.tint.y + float(p.size.x - p.size.y) + p.bias;
}
