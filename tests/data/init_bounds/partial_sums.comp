#version 450
// A reduction's first pass: each workgroup sums its part of the input in shared memory and stores one partial sum
// at gl_WorkGroupID.x. Another workgroup size gives other partial sums (and another count of them), which the check
// against the shader at its own size cannot compare: init keeps the size, and the output is inout from zero, since
// only the first n / WG elements are written.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 64;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Partial { float partial[]; };
layout(push_constant) uniform P { uint n; } p;
shared float s[1024];
void main()
{
    uint i = gl_GlobalInvocationID.x, t = gl_LocalInvocationID.x;
    s[t] = i < p.n ? x[i] : 0.0;
    barrier();
    for (uint k = gl_WorkGroupSize.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        barrier();
    }
    if (t == 0)
        partial[gl_WorkGroupID.x] = s[0];
}
