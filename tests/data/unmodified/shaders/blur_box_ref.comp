#version 450
// The separable blur's reference: the (2 R + 1)^2 box in one pass, rounded to rgba16f between the passes as the
// pair does (its intermediate image is rgba16f).
layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 2) const int R = 1;
layout(set = 0, binding = 0, rgba16f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D dst;

void main()
{
    ivec2 size = imageSize(src), p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y)
        return;
    vec4 sum = vec4(0.0);
    for (int dy = -R; dy <= R; dy++) {
        vec4 row = vec4(0.0);
        for (int dx = -R; dx <= R; dx++)
            row += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), size - 1));
        row /= float(2 * R + 1);
        sum += vec4(unpackHalf2x16(packHalf2x16(row.xy)), unpackHalf2x16(packHalf2x16(row.zw)));
    }
    imageStore(dst, p, sum / float(2 * R + 1));
}
