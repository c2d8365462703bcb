#version 450
// One pass of texel_passes: b = a + ADD between two r32f storage texel buffers, sized by the output's view.
layout(local_size_x_id = 1) in;
layout(constant_id = 0) const float ADD = 1.0;
layout(binding = 0, r32f) uniform readonly imageBuffer a;
layout(binding = 1, r32f) uniform writeonly imageBuffer b;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= imageSize(b))
        return;
    imageStore(b, i, imageLoad(a, i) + ADD);
}
