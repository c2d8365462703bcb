#version 450
// Naive reference GEMM: one output element per invocation.
layout(local_size_x = VKAT_LOCAL_SIZE_X, local_size_y = VKAT_LOCAL_SIZE_Y) in;
layout(set = 0, binding = 0) readonly buffer BufA { float a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };
void main()
{
    uint r = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    if (r >= M || col >= N)
        return;
    float acc = 0.0;
    for (uint l = 0; l < K; l++)
        acc += a[r * K + l] * b[l * N + col];
    c[r * N + col] = acc;
}
