#version 450
// Reference LayerNorm for checking: one thread per row, plain fp32 (mean, variance, write: three passes).
// ROWS, H and the element type DT (0 fp32, 1 fp16, 2 bf16) arrive as #defines from [problem].
#if DT == 1
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define T1 float16_t
#elif DT == 2
#extension GL_EXT_bfloat16 : require
#define T1 bfloat16_t
#else
#define T1 float
#endif
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufX { T1 X[]; };
layout(std430, binding = 1) readonly buffer BufW { T1 W[]; };
layout(std430, binding = 2) readonly buffer BufB { T1 B[]; };
layout(std430, binding = 3) writeonly buffer BufY { T1 Y[]; };
layout(push_constant) uniform Params { float eps; } p;

void main()
{
    const uint r = gl_GlobalInvocationID.x;
    if (r >= ROWS)
        return;
    float s = 0.0, q = 0.0;
    for (uint j = 0; j < H; j++)
        s += float(X[r * H + j]);
    const float mean = s / float(H);
    for (uint j = 0; j < H; j++)
        q += (float(X[r * H + j]) - mean) * (float(X[r * H + j]) - mean);
    const float rstd = 1.0 / sqrt(q / float(H) + p.eps);
    for (uint j = 0; j < H; j++)
        Y[r * H + j] = T1((float(X[r * H + j]) - mean) * rstd * float(W[j]) + float(B[j]));
}
