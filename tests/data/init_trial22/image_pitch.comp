#version 450
// A 2-D pass with no bound: a diffusion step whose buffers are indexed x + W * y, W the output image's width
// (imageSize), and which also writes a colour per texel. Nothing compares the invocation with a size.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(binding = 2, rgba8) writeonly uniform image2D shade;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(shade);
    int w = size.x;
    int left = p.x == 0 ? size.x - 1 : p.x - 1;
    float v = 0.5 * src[p.x + w * p.y] + 0.5 * src[left + w * p.y];
    dst[p.x + w * p.y] = v;
    imageStore(shade, p, vec4(v, 1.0 - v, 0.0, 1.0));
}
