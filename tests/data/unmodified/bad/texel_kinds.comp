#version 450
// Bad inputs (with texel_*.ini): a storage texel buffer of format r32f at binding 1 and a uniform texel buffer of
// unsigned integers at binding 2.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { float v[]; };
layout(binding = 1, r32f) uniform readonly imageBuffer img;
layout(binding = 2) uniform usamplerBuffer tex;
void main() { v[0] = imageLoad(img, 0).x + float(texelFetch(tex, 0).x); }
