#version 450
// One pass of a sum that reads its input at binding 0 and writes one partial per workgroup at binding 1:
// dst[g] = src[g*B] + ... + src[g*B + B-1] over the first n elements of src.
layout(local_size_x = B) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Params { uint n; } p;

shared float part[B];

void main()
{
    uint t = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    part[t] = i < p.n ? src[i] : 0.0;
    barrier();
    for (uint s = B / 2; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        barrier();
    }
    if (t == 0)
        dst[gl_WorkGroupID.x] = part[0];
}
