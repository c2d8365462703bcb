#version 450
// Reference rotary embedding for checking: one thread per (token, head, pair), plain fp32.
// TOK, HEADS, D, SEQ and the element type DT (0 fp32, 1 fp16, 2 bf16) arrive as #defines from [problem].
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
layout(std430, binding = 1) readonly buffer BufC { float COS[]; };
layout(std430, binding = 2) readonly buffer BufS { float SIN[]; };
layout(std430, binding = 3) writeonly buffer BufO { T1 OUT[]; };

void main()
{
    const uint g = gl_GlobalInvocationID.x;
    if (g >= TOK * HEADS * (D / 2))
        return;
    const uint tok = g / (HEADS * (D / 2)), head = (g / (D / 2)) % HEADS, i = g % (D / 2);
    const uint a = (tok * HEADS + head) * D + i, b = a + D / 2;
    const float c = COS[(tok % SEQ) * (D / 2) + i], s = SIN[(tok % SEQ) * (D / 2) + i];
    const float x1 = float(X[a]), x2 = float(X[b]);
    OUT[a] = T1(x1 * c - x2 * s);
    OUT[b] = T1(x2 * c + x1 * s);
}
