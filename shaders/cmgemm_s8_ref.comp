#version 450
// Reference int8 GEMM for spaces/cmgemm_s8.ini: one thread per element of C, exact int32 sums in K order over int8
// inputs, decoded by hand from 32-bit words (four elements each, the first in the low byte, sign-extended) so
// that it needs no 8-bit device features. B is K x N when BT = 0, N x K when BT = 1. All are #defines.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { uint A[]; };
layout(std430, binding = 1) readonly buffer BufB { uint B[]; };
layout(std430, binding = 2) writeonly buffer BufC { int C[]; };

int a_at(uint i) { return bitfieldExtract(int(A[i >> 2]), int(i & 3u) * 8, 8); }
int b_at(uint i) { return bitfieldExtract(int(B[i >> 2]), int(i & 3u) * 8, 8); }

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    int acc = 0;
    for (uint k = 0; k < K; k++)
        acc += a_at(row * K + k) * (BT == 0 ? b_at(k * N + col) : b_at(col * K + k));
    C[row * N + col] = acc;
}
