#shader compute
#version 450
// One stage, tagged the way TheCherno-style engines' loaders split a file (`#shader vertex`, `#shader fragment`, ...).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint count; float scale; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        data[i] = data[i] * p.scale + 1.0;
}
