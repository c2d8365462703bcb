#version 450
// Reference for matmul_push.comp: the sizes arrive the same way (push constants M, N, K).
layout(local_size_x = 16, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) readonly buffer BufA { float a[]; };
layout(binding = 1) readonly buffer BufB { float b[]; };
layout(binding = 2) writeonly buffer BufC { float c[]; };
layout(push_constant) uniform Sizes { uint M; uint N; uint K; } p;
void main()
{
    uint row = gl_WorkGroupID.y, col = gl_GlobalInvocationID.x;
    if (row >= p.M || col >= p.N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < p.K; k++)
        acc += a[row * p.K + k] * b[k * p.N + col];
    c[row * p.N + col] = acc;
}
