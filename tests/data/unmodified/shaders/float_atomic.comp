#version 450
// A sum of squares by float atomics (a gradient norm, a loss): each workgroup reduces in shared memory and adds its
// part to the total with atomicAdd on a float, which needs VK_EXT_shader_atomic_float's feature enabled.
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Total { float total[]; };
shared float part[1024];
void main()
{
    uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationID.x;
    part[l] = i < p.n ? x[i] * x[i] : 0.0;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (l < s)
            part[l] += part[l + s];
        barrier();
    }
    if (l == 0u)
        atomicAdd(total[0], part[0]);
}
