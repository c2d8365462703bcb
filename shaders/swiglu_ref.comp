#version 450
// Reference fused SwiGLU for checking: one thread per element, OUT = silu(G) * U in plain fp32.
// ROWS, F and the element type DT (0 fp32, 1 fp16, 2 bf16) arrive as #defines from [problem].
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
layout(std430, binding = 0) readonly buffer BufG { T1 G[]; };
layout(std430, binding = 1) readonly buffer BufU { T1 U[]; };
layout(std430, binding = 2) writeonly buffer BufO { T1 OUT[]; };

void main()
{
    const uint i = gl_GlobalInvocationID.y * 65535u * 64u + gl_GlobalInvocationID.x;
    if (i >= ROWS * F)
        return;
    const float g = float(G[i]);
    OUT[i] = T1(g / (1.0 + exp(-g)) * float(U[i]));
}
