#version 450
// Reference row reduction for checking: one thread per row, a plain fp32 loop; OP = 0 sum, 1 max.
// ROWS, H, OP and the element type DT (0 fp32, 1 fp16, 2 bf16) arrive as #defines from [problem].
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
layout(std430, binding = 1) writeonly buffer BufOut { T1 OUT[]; };

void main()
{
    const uint r = gl_GlobalInvocationID.x;
    if (r >= ROWS)
        return;
    float v = OP == 0 ? 0.0 : -1.0 / 0.0;
    for (uint j = 0; j < H; j++)
        v = OP == 0 ? v + float(X[r * H + j]) : max(v, float(X[r * H + j]));
    OUT[r] = T1(v);
}
