#version 450
// Bad input (image_reads.ini): an image read through a sampler as unsigned integers (usampler2D) at binding 1.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { uint v[]; };
layout(binding = 1) uniform usampler2D tex;
void main() { v[0] = texelFetch(tex, ivec2(0, 0), 0).x; }
