#version 450
// Reference for hgemm.comp.in (the tuner's own check): one thread per element of C, fp32 accumulation in K order.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { float16_t A[]; };
layout(std430, binding = 1) readonly buffer BufB { float16_t B[]; };
layout(std430, binding = 2) writeonly buffer BufC { float C[]; };

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y;
    if (row >= M || col >= N)
        return;
    float acc = 0.0;
    for (uint x = 0; x < K; x++)
        acc = fma(float(A[row * K + x]), float(BT == 1 ? B[col * K + x] : B[x * N + col]), acc);
    C[row * N + col] = acc;
}
