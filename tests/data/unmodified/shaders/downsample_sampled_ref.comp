#version 450
// The downsample's reference: the four source texels averaged by texelFetch (what a bilinear sample at their
// shared corner gives).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform Push { uvec2 out_size; } pc;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.out_size.x) || p.y >= int(pc.out_size.y))
        return;
    vec4 sum = texelFetch(src, 2 * p, 0) + texelFetch(src, 2 * p + ivec2(1, 0), 0) +
               texelFetch(src, 2 * p + ivec2(0, 1), 0) + texelFetch(src, 2 * p + ivec2(1, 1), 0);
    imageStore(dst, p, sum * 0.25);
}
