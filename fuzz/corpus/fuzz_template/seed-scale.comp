#version 450
// Test template: OUT[i] = 2 * IN[i] + bias. Two parameters plant faults the tuner must catch:
// BUG = 1 perturbs one element (the checker must reject it), OOB = 1 writes one element past the end of OUT
// (the canary must catch it). WG is an honest tuning parameter; UNROLL a specialization constant.
layout(local_size_x = WG) in;
layout(constant_id = 0) const uint UNROLL = 1;

layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
layout(push_constant) uniform Params { uint n; float bias; } p;

void main()
{
    for (uint u = 0; u < UNROLL; u++) {
        uint i = gl_GlobalInvocationID.x * UNROLL + u;
        if (i < p.n) {
            float v = 2.0 * IN[i] + p.bias;
            if (BUG == 1 && i == p.n / 3)
                v += 0.5;
            OUT[i] = v;
        }
        if (OOB == 1 && i == p.n - 1)
            OUT[p.n] = 1.0;
    }
}
