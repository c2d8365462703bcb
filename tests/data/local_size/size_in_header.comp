#version 450
// A scale whose workgroup size is declared by value in an included header (size_header.glsl), not in the shader.
#include "size_header.glsl"
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint n; } p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    b[i] = 2.0 * a[i] + 1.0;
}
