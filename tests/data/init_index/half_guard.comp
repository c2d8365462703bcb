#version 450
// Two elements per invocation with the invocations bounded by half the size (`i >= p.n / 2`): the size counts
// elements, so the buffers stay about n (n + 1: `2 * i < n` is all init takes from the guard), inout from zero.
// Sized 2 * n as an out buffer, the reference left half of it unwritten.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n / 2)
        return;
    dst[2 * i] = src[2 * i + 1];
    dst[2 * i + 1] = src[2 * i];
}
