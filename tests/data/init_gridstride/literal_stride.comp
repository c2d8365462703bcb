#version 450
// The stride written as the size's literal: right at 128 invocations a workgroup only, so the size stays fixed.
layout(local_size_x = 128) in;
layout(std430, binding = 0) writeonly buffer B { uint b[]; };
layout(push_constant) uniform P { uint n; } p;

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 128u)
        b[i] = i * 7u;
}
