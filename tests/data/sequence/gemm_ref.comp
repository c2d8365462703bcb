#version 450
// Reference GEMM: C[row * N + col] = sum over k of A[row * K + k] * B[k * N + col], in one pass.
layout(local_size_x = VKAT_LOCAL_SIZE_X, local_size_y = VKAT_LOCAL_SIZE_Y) in;
layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 2) writeonly buffer BufC { float C[]; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    float sum = 0.0;
    for (uint k = 0; k < K; k++)
        sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
}
