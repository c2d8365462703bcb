#version 450
// Reference for ggml_mul_mm_cm2.ini, written here (no ggml code): D[n * M + m] = sum_k A[m * K + k] * B[n * K + k]
// with fp16 A and B and an fp32 sum in K order, reading the first three members of the matmul's push block.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0) readonly buffer BufA { float16_t a[]; };
layout(binding = 1) readonly buffer BufB { float16_t b[]; };
layout(binding = 2) writeonly buffer BufD { float d[]; };
layout(push_constant) uniform Sizes { uint M; uint N; uint K; } p;
void main()
{
    uint m = gl_GlobalInvocationID.x, n = gl_GlobalInvocationID.y;
    if (m >= p.M || n >= p.N)
        return;
    float acc = 0.0;
    for (uint k = 0; k < p.K; k++)
        acc += float(a[m * p.K + k]) * float(b[n * p.K + k]);
    d[n * p.M + m] = acc;
}
