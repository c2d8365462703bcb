#version 450
// Reference row softmax for checking: one thread per row, three plain fp32 passes (max, sum, write).
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
layout(std430, binding = 1) writeonly buffer BufY { T1 Y[]; };

void main()
{
    const uint r = gl_GlobalInvocationID.x;
    if (r >= ROWS)
        return;
    float m = -1.0 / 0.0, s = 0.0;
    for (uint j = 0; j < H; j++)
        m = max(m, float(X[r * H + j]));
    for (uint j = 0; j < H; j++)
        s += exp(float(X[r * H + j]) - m);
    for (uint j = 0; j < H; j++)
        Y[r * H + j] = T1(exp(float(X[r * H + j]) - m) / s);
}
