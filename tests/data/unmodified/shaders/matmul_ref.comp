#version 450
// Reference for matmul_spec.comp and matmul_push.comp: one output per invocation, sizes as specialization
// constants as well (a space that binds M, N, K to @spec or @push gives its reference the same binding).
layout(local_size_x = 16, local_size_y = 1, local_size_z = 1) in;
layout(binding = 0) readonly buffer BufA { float a[]; };
layout(binding = 1) readonly buffer BufB { float b[]; };
layout(binding = 2) writeonly buffer BufC { float c[]; };
layout(constant_id = 0) const uint M = 1;
layout(constant_id = 1) const uint N = 1;
layout(constant_id = 2) const uint K = 1;
void main()
{
    uint row = gl_WorkGroupID.y, col = gl_GlobalInvocationID.x;
    if (row >= M || col >= N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < K; k++)
        acc += a[row * K + k] * b[k * N + col];
    c[row * N + col] = acc;
}
