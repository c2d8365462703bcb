#version 450
// Reference GEMM for checking: one thread per element of C, no tiling, fp32 accumulation in K order.
// Sizes M, N, K arrive as #defines from the space's [problem].
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
        acc = fma(A[row * K + k], B[k * N + col], acc);
    C[row * N + col] = acc;
}
