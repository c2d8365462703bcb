// vector_io.glsl — the memory-bound templates' VEC-wide loads and stores, math in fp32.
// Included after the template defines T1, T2, T4 (its element type, DT = 0 fp32, 1 fp16, 2 bf16) and VEC. Defines
// VT (the stored vector), FV (a math vector), SUB (math vectors per stored vector), part(x, s) (math vector s of
// stored vector x) and join(p) (SUB math vectors stored as one).
// VEC = 8 is for 16-bit types: GLSL has no 8-wide vector, so the buffer is read and written as uvec4 and each
// 32-bit word unpacked to two fp32 values (SUB = 2): one 16-byte access per 8 elements instead of two 8-byte ones.
// Its rounding is the types' own: fp16's conversion, and to nearest even for bf16 (written out: bf16 to bits
// needs 16-bit integer types, a feature the spaces do not ask for; NaNs are not kept).
#ifndef VECTOR_IO_GLSL
#define VECTOR_IO_GLSL
#if VEC == 8
#if DT == 1
vec2 unpack2(uint u) { return vec2(unpackFloat2x16(u)); }
uint pack2(vec2 v) { return packFloat2x16(f16vec2(v)); }
#elif DT == 2
vec2 unpack2(uint u) { return vec2(uintBitsToFloat(u << 16), uintBitsToFloat(u & 0xffff0000u)); }
uint round_bf16(float f)
{
    const uint u = floatBitsToUint(f);
    return (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
}
uint pack2(vec2 v) { return round_bf16(v.x) | (round_bf16(v.y) << 16); }
#else
#error "vector_io.glsl: VEC = 8 needs a 16-bit element type (DT = 1 or 2)"
#endif
#define VT uvec4
#define FV vec4
#define SUB 2
FV part(VT x, uint s) { return s == 0 ? vec4(unpack2(x.x), unpack2(x.y)) : vec4(unpack2(x.z), unpack2(x.w)); }
VT join(FV p[SUB]) { return uvec4(pack2(p[0].xy), pack2(p[0].zw), pack2(p[1].xy), pack2(p[1].zw)); }
#else
#if VEC == 4
#define VT T4
#define FV vec4
#elif VEC == 2
#define VT T2
#define FV vec2
#else
#define VT T1
#define FV float
#endif
#define SUB 1
FV part(VT x, uint s) { return FV(x); }
VT join(FV p[SUB]) { return VT(p[0]); }
#endif
#endif
