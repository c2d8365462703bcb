#version 450
// The second pass of the separable box blur: each texel of `dst` averages 2 R + 1 texels of its column of `tmp`.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int R = 1;
layout(set = 0, binding = 2, rgba16f) uniform readonly image2D tmp;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;

void main()
{
    ivec2 size = imageSize(tmp), p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y)
        return;
    vec4 sum = vec4(0.0);
    for (int d = -R; d <= R; d++)
        sum += imageLoad(tmp, ivec2(p.x, clamp(p.y + d, 0, size.y - 1)));
    imageStore(dst, p, sum / float(2 * R + 1));
}
