#version 450
// Bad input: a texture and its sampler in two bindings (separate image and sampler), which vkautotune does not bind.
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { float v[]; };
layout(binding = 1) uniform texture2D tex;
layout(binding = 2) uniform sampler smp;
void main() { v[0] = texture(sampler2D(tex, smp), vec2(0.5)).x; }
