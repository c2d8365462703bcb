#version 450
// texel_passes' reference: both passes' sums at once.
layout(local_size_x = 64) in;
layout(binding = 0, r32f) uniform readonly imageBuffer a;
layout(binding = 1, r32f) uniform writeonly imageBuffer b;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= imageSize(b))
        return;
    imageStore(b, i, imageLoad(a, i) + 2.0);
}
