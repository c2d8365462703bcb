#version 450
// A subgroup inclusive scan over blocks of 32 whose buffers carry no qualifiers, as many shaders are written
// (session 19's trial): the shader only reads `values` and writes `sums`.
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Values { float values[]; };
layout(set = 0, binding = 1) buffer Sums { float sums[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    sums[i] = subgroupInclusiveAdd(values[i] * 0.5);
}
