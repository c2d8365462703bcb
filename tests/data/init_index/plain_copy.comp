#version 450
// One element per invocation: the buffers are the problem size, as before.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        dst[i] = src[i] + 1.0;
}
