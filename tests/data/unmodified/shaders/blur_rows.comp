#version 450
// The first pass of a separable box blur: each texel of `tmp` averages 2 R + 1 texels of its row of `src` (the
// edges clamped). The workgroup size is two specialization constants.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int R = 1;
layout(set = 0, binding = 0, rgba16f) uniform readonly image2D src;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D tmp;

void main()
{
    ivec2 size = imageSize(src), p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y)
        return;
    vec4 sum = vec4(0.0);
    for (int d = -R; d <= R; d++)
        sum += imageLoad(src, ivec2(clamp(p.x + d, 0, size.x - 1), p.y));
    imageStore(tmp, p, sum / float(2 * R + 1));
}
