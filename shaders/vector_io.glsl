// vector_io.glsl — the memory-bound templates' VEC-wide loads and stores, math in fp32.
// Included after the template defines T1, T2, T4 (its element type, DT = 0 fp32, 1 fp16, 2 bf16) and VEC. Defines
// VT (the stored vector), FV (a math vector), SUB (math vectors per stored vector), part(x, s) (math vector s of
// stored vector x) and join(p) (SUB math vectors stored as one).
// VEC = 8 is for 16-bit types: GLSL has no 8-wide vector, so the buffer is read and written as uvec4 and each
// 32-bit word unpacked to two fp32 values (SUB = 2): one 16-byte access per 8 elements instead of two 8-byte ones.
// Stores convert with the type's own conversion, as VT(FV) does at VEC <= 4: a written-out rounding to nearest even
// gave bf16 results rel_l2 4e-3 off the reference on the H200, where its conversion gives 0. bf16's bits need
// 16-bit integers (shaderInt16, in the spaces that store bf16 at VEC = 8).
#ifndef VECTOR_IO_GLSL
#define VECTOR_IO_GLSL
#if VEC == 8
#if DT == 1
vec2 unpack2(uint u) { return vec2(unpackFloat2x16(u)); }
uint pack2(vec2 v) { return packFloat2x16(f16vec2(v)); }
#elif DT == 2
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
vec2 unpack2(uint u) { return vec2(uintBitsToFloat(u << 16), uintBitsToFloat(u & 0xffff0000u)); }
uint pack2(vec2 v) { return pack32(bfloat16BitsToUintEXT(bf16vec2(v))); }
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
