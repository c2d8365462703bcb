#version 450
// Reference fp32 GEMM for spaces/sgemm.ini: one thread per element of C, no tiling, fp32 fma in K order.
// B is row-major K x N when BT = 0 and row-major N x K (transposed) when BT = 1. M, N, K, BT are #defines.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 2) writeonly buffer BufC { float C[]; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < K; k++)
        acc = fma(A[row * K + k], BT == 0 ? B[k * N + col] : B[col * K + k], acc);
    C[row * N + col] = acc;
}
