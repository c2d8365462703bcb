#version 450
// Reference GEMM for the cooperative-matrix spaces: one thread per element of C, fp32 fma in K order over fp16
// (BF16 = 0) or bf16 (BF16 = 1) inputs, decoded by hand from 32-bit words (two elements each, the first in the low
// half) so that it needs no 16-bit device features. B is K x N when BT = 0, N x K when BT = 1. All are #defines.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { uint A[]; };
layout(std430, binding = 1) readonly buffer BufB { uint B[]; };
layout(std430, binding = 2) writeonly buffer BufC { float C[]; };

float decode(uint word, uint half_index)
{
#if BF16
    return uintBitsToFloat(half_index == 0 ? word << 16 : word & 0xffff0000u);
#else
    return unpackHalf2x16(word)[half_index];
#endif
}

float a_at(uint i) { return decode(A[i >> 1], i & 1); }
float b_at(uint i) { return decode(B[i >> 1], i & 1); }

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < K; k++)
        acc = fma(a_at(row * K + k), BT == 0 ? b_at(k * N + col) : b_at(col * K + k), acc);
    C[row * N + col] = acc;
}
