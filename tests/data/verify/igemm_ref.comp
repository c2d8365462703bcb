#version 450
// Reference for igemm.comp.in (the tuner's own check): one thread per element of C, exact int32 sums.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_8bit_storage : require
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { int8_t A[]; };
layout(std430, binding = 1) readonly buffer BufB { int8_t B[]; };
layout(std430, binding = 2) writeonly buffer BufC { int C[]; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    int acc = 0;
    for (uint x = 0; x < K; x++)
        acc += int(A[row * K + x]) * int(BT == 1 ? B[col * K + x] : B[x * N + col]);
    C[row * N + col] = acc;
}
