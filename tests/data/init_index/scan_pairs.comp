#version 450
// A work-efficient scan's first step: each invocation takes two elements (2 * id and 2 * id + 1) and writes their
// sums one place on, so the output has 2 * n + 1 elements (the first one the scan's zero). The invocation index is
// the workgroup's offset plus the local index, as many scans write it.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Sums { float sums[]; };
void main()
{
    uint id = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (id >= p.n)
        return;
    float a = src[id * 2];
    float b = src[id * 2 + 1];
    sums[id * 2 + 1] = a;
    sums[id * 2 + 2] = a + b;
}
