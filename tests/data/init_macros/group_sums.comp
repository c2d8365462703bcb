#version 450
// One partial sum per workgroup of WG, #defined here: a reduction whose results depend on the workgroup size, so
// init keeps it.
#define WG 256
layout(local_size_x = WG) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Partial { float partial[]; };
layout(push_constant) uniform P { uint n; } p;
shared float sums[WG];

void main()
{
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    sums[l] = i < p.n ? src[i] : 0.0;
    barrier();
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s)
            sums[l] += sums[l + s];
        barrier();
    }
    if (l == 0)
        partial[gl_WorkGroupID.x] = sums[0];
}
