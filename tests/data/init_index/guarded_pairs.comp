#version 450
// Two elements per invocation where the shader bounds the scaled index itself (`i = 2 * gid; if (i >= n)`): the
// size then counts elements, not invocations, and only the offset past it (i + 1) is added.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint n; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x * 2;
    if (i >= p.n)
        return;
    dst[i] = src[i];
    dst[i + 1] = -src[i + 1];
}
