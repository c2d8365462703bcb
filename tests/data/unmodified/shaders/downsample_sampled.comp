#version 450
// A 2x downsample through a sampler (bilinear, between the four source texels) into an rgba8 storage image, as
// bloom and mip-generation passes do; the push block carries the output's size.
// POINT = 1 is wrong on purpose: it fetches one of the four texels instead of their bilinear mean.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int POINT = 0;

layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform Push { uvec2 out_size; } pc;

void main()
{
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.out_size.x || p.y >= pc.out_size.y)
        return;
    vec2 uv = (vec2(p) * 2.0 + 1.0) / (vec2(pc.out_size) * 2.0);
    imageStore(dst, ivec2(p), POINT == 1 ? texelFetch(src, ivec2(2 * p), 0) : texture(src, uv));
}
