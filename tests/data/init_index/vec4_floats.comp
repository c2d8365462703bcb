#version 450
// A vec4 copied as four floats, in a loop of a constant trip count: element 4 * i + k for k < 4.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint count; float scale; } p;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
        return;
    for (int k = 0; k < 4; k++)
        dst[4 * i + uint(k)] = p.scale * src[4 * i + uint(k)];
}
