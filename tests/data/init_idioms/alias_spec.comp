#version 450
// A size given as a specialization constant and then aliased by a plain constant (uVkCompute's
// `const uint strideA = K;`): glslang names the one constant twice, the declared name first.
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint COUNT = 1024;
const uint stride = COUNT;
layout(std430, binding = 0) buffer Data { float x[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < stride)
        x[i] = 2.0 * x[i];
}
