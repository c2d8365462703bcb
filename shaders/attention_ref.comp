#version 450
// Reference attention for checking: one thread per (head, query row), plain fp32 in two passes over the keys
// (row max, then exponentials summed and values accumulated), O = softmax(Q K^T / sqrt(D)) V, non-causal.
// HEADS, S, D and the element type DT (0 fp32, 1 fp16, 2 bf16) arrive as #defines from [problem].
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
layout(std430, binding = 0) readonly buffer BufQ { T1 Q[]; };
layout(std430, binding = 1) readonly buffer BufK { T1 K[]; };
layout(std430, binding = 2) readonly buffer BufV { T1 V[]; };
layout(std430, binding = 3) writeonly buffer BufO { T1 O[]; };

void main()
{
    const uint g = gl_GlobalInvocationID.x;  // head * S + query
    if (g >= HEADS * S)
        return;
    const uint kv0 = (g / S) * S * D;
    const float scale = 1.0 / sqrt(float(D));
    float m = -1.0 / 0.0;
    for (uint j = 0; j < S; j++) {
        float d = 0.0;
        for (uint i = 0; i < D; i++)
            d += float(Q[g * D + i]) * float(K[kv0 + j * D + i]);
        m = max(m, d * scale);
    }
    float acc[D];
    for (uint i = 0; i < D; i++)
        acc[i] = 0.0;
    float l = 0.0;
    for (uint j = 0; j < S; j++) {
        float d = 0.0;
        for (uint i = 0; i < D; i++)
            d += float(Q[g * D + i]) * float(K[kv0 + j * D + i]);
        const float p = exp(d * scale - m);
        l += p;
        for (uint i = 0; i < D; i++)
            acc[i] += p * float(V[kv0 + j * D + i]);
    }
    for (uint i = 0; i < D; i++)
        O[g * D + i] = T1(acc[i] / l);
}
