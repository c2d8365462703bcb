#version 450
// Reference for iscale.comp.in: one 32-bit word of BYTES (four elements) per thread. N arrives as a #define.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufIn { int IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { int OUT[]; };
layout(std430, binding = 2) writeonly buffer BufBytes { uint BYTES[]; };
void main()
{
    uint w = gl_GlobalInvocationID.x;
    if (w * 4u >= N)
        return;
    uint packed = 0u;
    for (uint u = 0u; u < 4u; u++) {
        uint i = w * 4u + u;
        OUT[i] = 3 * IN[i] - 7;
        packed |= (uint(IN[i]) & 0xffu) << (8u * u);
    }
    BYTES[w] = packed;
}
