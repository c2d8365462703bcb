#version 450
// One compare-and-swap step of a sort whose block size is a power of two given as its exponent (a push member
// shifted: 1u << p.level), compared with the invocation first; the invocations are bounded by p.n after it.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
layout(push_constant) uniform P {
    uint n;
    uint level;
} p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint block = 1u << p.level;
    if (i % block < block / 2u) {
        uint j = i + block / 2u;
        if (j < p.n) {
            uint a = data[i], b = data[j];
            if (a > b) {
                data[i] = b;
                data[j] = a;
            }
        }
    }
}
