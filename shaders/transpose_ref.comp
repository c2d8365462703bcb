#version 450
// Reference transpose for checking: one thread per element. R, C and the element type DT (0 fp32, 1 fp16,
// 2 bf16; 0 when the space does not say) arrive as #defines from [problem].
#ifndef DT
#define DT 0
#endif
#if DT == 1
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define T1 float16_t
#elif DT == 2
#extension GL_EXT_bfloat16 : require
#define T1 bfloat16_t
#else
#define T1 float
#endif
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufIn { T1 IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { T1 OUT[]; };

void main()
{
    uint c = gl_GlobalInvocationID.x, r = gl_GlobalInvocationID.y;
    if (r < R && c < C)
        OUT[c * R + r] = IN[r * C + c];
}
