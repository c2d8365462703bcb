#version 450
// Reference for ggml_mul_mm.ini, written here (no ggml code): D[n * M + m] = sum_k A[m * K + k] * B[n * K + k],
// reading the same push block as mul_mm.comp (its first three members).
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer BufA { float a[]; };
layout(binding = 1) readonly buffer BufB { float b[]; };
layout(binding = 2) writeonly buffer BufD { float d[]; };
layout(push_constant) uniform Sizes { uint M; uint N; uint K; } p;
void main()
{
    uint m = gl_GlobalInvocationID.x, n = gl_GlobalInvocationID.y;
    if (m >= p.M || n >= p.N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < p.K; k++)
        acc += a[m * p.K + k] * b[n * p.K + k];
    d[n * p.M + m] = acc;
}
