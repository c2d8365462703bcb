#version 450
// A shift by one place: element i goes to i + 1 (the first output element stays as it was).
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const int WG = 64;
layout(push_constant) uniform P { int n; } p;
layout(std430, binding = 0) readonly buffer In { int src[]; };
layout(std430, binding = 1) buffer Out { int dst[]; };
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i < p.n)
        dst[i + 1] = src[i] * 3;
}
