#pragma stage compute
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint count; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        data[i] = data[i] + 3.0;
}
