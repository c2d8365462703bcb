#version 450
// A pairwise butterfly in place: invocation i takes elements 2 * i and 2 * i + 1 (w0 = i << 1, w1 = w0 + 1), of a
// buffer it reads and writes. The workgroup size is fixed, so glslang folds gl_WorkGroupSize.x to 64.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint pairs; } p;
layout(std430, binding = 0) buffer Data { vec2 data[]; };
void main()
{
    uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i >= p.pairs)
        return;
    uint w0 = i << 1;
    uint w1 = w0 + 1;
    vec2 a = data[w0], b = data[w1];
    data[w0] = a + b;
    data[w1] = a - b;
}
