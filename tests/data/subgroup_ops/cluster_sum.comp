#version 450
// Sums of each aligned group of C consecutive elements, written to every element of the group: with subgroup
// clustered operations (CL = 1) or with a loop over the group (CL = 0, no subgroup operation at all).
#extension GL_KHR_shader_subgroup_clustered : enable
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer In { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float y[]; };

void main()
{
    const uint i = gl_GlobalInvocationID.x;
#if CL
    y[i] = subgroupClusteredAdd(x[i], C);
#else
    float s = 0.0;
    for (uint j = i / C * C; j < i / C * C + C; j++)
        s += x[j];
    y[i] = s;
#endif
}
