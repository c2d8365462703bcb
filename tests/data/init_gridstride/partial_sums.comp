#version 450
// A grid-stride reduction: each invocation's partial sum at its own index, which the grid's size decides.
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer S { float partial[]; };
layout(push_constant) uniform P { uint n; } p;

void main()
{
    float s = 0.0;
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x)
        s += a[i];
    partial[gl_GlobalInvocationID.x] = s;
}
