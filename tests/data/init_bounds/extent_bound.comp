#version 450
// A 2-D pass bounded by an integer vector of its push block, compared as a whole (an engine's post-process
// passes: `all(lessThan(gl_GlobalInvocationID.xy, registers.resolution))`): both components are the size.
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform P { uvec2 extent; vec2 texel; } p;
layout(binding = 0, r32f) uniform writeonly image2D dst;
void main()
{
    if (any(greaterThanEqual(gl_GlobalInvocationID.xy, p.extent)))
        return;
    vec2 uv = (vec2(gl_GlobalInvocationID.xy) + 0.5) * p.texel;
    imageStore(dst, ivec2(gl_GlobalInvocationID.xy), vec4(uv.x * uv.y));
}
