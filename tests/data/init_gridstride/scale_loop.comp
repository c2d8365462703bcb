#version 450
// A grid-stride loop as CUDA ports write it: a workgroup size fixed in the source, the stride in a variable.
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint n; float alpha; } p;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride)
        b[i] = p.alpha * a[i];
}
