#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer BufOut { uint OUT[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < N)
        OUT[i] = i % 2 == 0 ? 0xDEADBEEFu : i;
}
