#version 450
// The blur's reference: one texel per invocation, in an 8 x 8 workgroup.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;

void main()
{
    ivec2 size = imageSize(src), p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y)
        return;
    vec4 sum = vec4(0.0);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += imageLoad(src, clamp(p + ivec2(dx, dy), ivec2(0), size - 1));
    imageStore(dst, p, sum / 9.0);
}
