#version 450
// A reduction's first step, two loads an invocation: the workgroup's offset is twice its size
// (`gl_WorkGroupID.x * 256 + l` and that + 128 with 128 invocations a workgroup), so the input is read up to
// 2 * i + 1: 2 * n elements. Sized n, the upper half read zeros past the end, silently.
layout(local_size_x = 128) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    if (gl_GlobalInvocationID.x >= p.n)
        return;
    uint l = gl_LocalInvocationID.x, i = gl_WorkGroupID.x * 256u + l;
    dst[gl_GlobalInvocationID.x] = src[i] + src[i + 128u];
}
