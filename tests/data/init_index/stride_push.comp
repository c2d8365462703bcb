#version 450
// A strided copy whose stride is a push member: the index is not a constant multiple of the invocation's, so the
// buffers keep the problem size (the stride is a value for the user to give).
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; uint stride; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    dst[i] = src[i * p.stride];
}
