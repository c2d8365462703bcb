#version 450
// texel_dot's reference: one texel per invocation, bounded by its output's own size (imageSize: the view must then
// cover the data alone, not the guard after it, which the grid's last 24 invocations would write).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, rgba8ui) uniform readonly uimageBuffer w;
layout(set = 0, binding = 2, r32f) uniform writeonly imageBuffer dst;
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= imageSize(dst))
        return;
    imageStore(dst, i, vec4(dot(texelFetch(src, i), vec4(imageLoad(w, i)))));
}
