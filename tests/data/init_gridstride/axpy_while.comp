#version 450
// A grid-stride while loop: the workgroup size a specialization constant, the start from the workgroup's offset,
// the stride inline, size first; integers, so that every variant must match exactly.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint BLOCK = 64u;
layout(std430, binding = 0) readonly buffer X { int x[]; };
layout(std430, binding = 1) buffer Y { int y[]; };
layout(push_constant) uniform P { uint count; int a; } p;

void main()
{
    uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    while (i < p.count) {
        y[i] = p.a * x[i] + y[i];
        i += gl_WorkGroupSize.x * gl_NumWorkGroups.x;
    }
}
