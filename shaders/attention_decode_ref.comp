#version 450
// Reference attention decode for checking: one invocation per query head, plain fp32 in two passes over the first L
// keys of its KV head (max, then exponentials summed and values accumulated; S, the cache's capacity, is the heads'
// stride); KV head = query head / G. Same buffers and layouts as attention_decode.comp.in: elements read and written
// as 32-bit words and converted by hand (DT = 0 fp32, 1 fp16, 2 bf16), so no 16-bit feature is needed. B, HKV, G,
// S, L, D and DT arrive as #defines from [problem].
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufQ { uint Q[]; };
layout(std430, binding = 1) readonly buffer BufK { uint K[]; };
layout(std430, binding = 2) readonly buffer BufV { uint V[]; };
layout(std430, binding = 3) writeonly buffer BufO { uint O[]; };

// Element n of a buffer of DT elements, as fp32.
#if DT == 0
#define ELEM(buf, n) uintBitsToFloat(buf[n])
#elif DT == 1
#define ELEM(buf, n) unpackHalf2x16(buf[(n) / 2] >> (16 * ((n) % 2))).x
#else
#define ELEM(buf, n) uintBitsToFloat((n) % 2 == 0 ? buf[(n) / 2] << 16 : buf[(n) / 2] & 0xffff0000u)
uint bf16_bits(float x)  // round to nearest even
{
    const uint u = floatBitsToUint(x);
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
#endif

void main()
{
    const uint qh = gl_GlobalInvocationID.x;
    if (qh >= B * HKV * G)
        return;
    const uint kv0 = (qh / G) * S * D;
    const float scale = 1.0 / sqrt(float(D));
    float m = -1.0 / 0.0;
    for (uint j = 0; j < L; j++) {
        float s = 0.0;
        for (uint i = 0; i < D; i++)
            s += ELEM(Q, qh * D + i) * ELEM(K, kv0 + j * D + i);
        m = max(m, s * scale);
    }
    float acc[D];
    for (uint i = 0; i < D; i++)
        acc[i] = 0.0;
    float l = 0.0;
    for (uint j = 0; j < L; j++) {
        float s = 0.0;
        for (uint i = 0; i < D; i++)
            s += ELEM(Q, qh * D + i) * ELEM(K, kv0 + j * D + i);
        const float p = exp(s * scale - m);
        l += p;
        for (uint i = 0; i < D; i++)
            acc[i] += p * ELEM(V, kv0 + j * D + i);
    }
    for (uint i = 0; i < D; i += 2) {
        const float a = acc[i] / l, b = acc[i + 1] / l;
#if DT == 0
        O[qh * D + i] = floatBitsToUint(a);
        O[qh * D + i + 1] = floatBitsToUint(b);
#elif DT == 1
        O[(qh * D + i) / 2] = packHalf2x16(vec2(a, b));
#else
        O[(qh * D + i) / 2] = bf16_bits(a) | (bf16_bits(b) << 16);
#endif
    }
}
