#version 450
// Reference for hang.comp.in: a copy.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < N)
        OUT[i] = IN[i];
}
