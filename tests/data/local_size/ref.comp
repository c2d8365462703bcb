#version 450
// Reference for the local_size test spaces: OUT[i] = 2 * IN[i], 64 invocations per workgroup.
layout(local_size_x = 64) in;

layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    OUT[i] = 2.0 * IN[i];
}
