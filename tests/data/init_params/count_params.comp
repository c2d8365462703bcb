#version 450
// The count in a storage block without qualifiers that nothing stores to: a parameter block read like a uniform
// one, bounding the invocations by a signed integer member.
layout(constant_id = 0) const uint WG = 64;
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Counts {
    int first;
    int count;
    float scale;
} u;

layout(set = 0, binding = 1) readonly buffer Src { float src[]; };
layout(set = 0, binding = 2) writeonly buffer Dst { float dst[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= u.count)
        return;
    dst[i] = src[i] * u.scale + float(u.first);
}
