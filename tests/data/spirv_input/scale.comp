#version 450
// Compiled to SPIR-V by tests/cli/spirv_input.sh (vkautotune compile), then tuned as the module alone: a bounded
// scale with its workgroup size fixed in the source and a specialization constant for its factor's unrolling.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint REPEAT = 1;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    float v = a[i];
    for (uint k = 0; k < REPEAT; k++)
        v = 0.5 * v + 1.0;
    b[i] = v;
}
