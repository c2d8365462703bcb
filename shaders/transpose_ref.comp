#version 450
// Reference transpose for checking: one thread per element. R and C arrive as #defines from [problem].
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };

void main()
{
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    if (r < R && c < C)
        OUT[c * R + r] = IN[r * C + c];
}
