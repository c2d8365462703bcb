#version 450
// Bad inputs (with image_*.ini): a storage image of format r32f at binding 1 and an image read through a sampler
// at binding 2, each 2D.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { float v[]; };
layout(binding = 1, r32f) uniform readonly image2D img;
layout(binding = 2) uniform sampler2D tex;
void main() { v[0] = imageLoad(img, ivec2(0, 0)).x + texelFetch(tex, ivec2(0, 0), 0).x; }
