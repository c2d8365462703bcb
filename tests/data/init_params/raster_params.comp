#version 450
// A compositor pass in the way of Godot's RenderingDevice effects: the sizes live in a readonly storage block
// without a run-time array (not push constants, not a uniform block) and are compared as floats with the
// invocation's converted index.
layout(constant_id = 0) const uint WG = 8;
layout(local_size_x_id = 0, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer Params {
    vec2 raster_size;
    float strength;
    float reserved;
} params;

layout(set = 0, binding = 1, r32f) uniform readonly image2D src_image;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst_image;

void main()
{
    ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = vec2(texel);
    if (uv.x >= params.raster_size.x || uv.y >= params.raster_size.y)
        return;
    float v = imageLoad(src_image, texel).r;
    imageStore(dst_image, texel, vec4(v * params.strength + uv.x / params.raster_size.x, 0.0, 0.0, 1.0));
}
