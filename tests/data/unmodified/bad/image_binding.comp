#version 450
// Bad input: binding 1 is a storage image, which the space declares as a buffer.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { float v[]; };
layout(binding = 1, r32f) uniform readonly image2D src;
void main() { v[0] = imageLoad(src, ivec2(0, 0)).x; }
