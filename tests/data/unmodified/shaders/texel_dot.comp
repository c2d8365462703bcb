#version 450
// Texel buffers, the way particle and skinning shaders read their streams: a uniform texel buffer of rgba16f
// (samplerBuffer, texelFetch), a storage texel buffer of rgba8ui read with imageLoad, and an r32f storage texel
// buffer written with imageStore; the size from a push constant. BLOCK texels per invocation; SHIFT = 1 is wrong
// on purpose (it reads the next texel of src), OVER = 1 writes one texel past the end, into the output's guard.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint BLOCK = 1;
layout(constant_id = 2) const uint SHIFT = 0;
#ifndef OVER
#define OVER 0
#endif

layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, rgba8ui) uniform readonly uimageBuffer w;
layout(set = 0, binding = 2, r32f) uniform writeonly imageBuffer dst;
layout(push_constant) uniform Push { uint n; } pc;

void main()
{
    for (uint b = 0; b < BLOCK; b++) {
        uint i = gl_GlobalInvocationID.x * BLOCK + b;
        if (i > pc.n - 1 + OVER)
            return;
        uint j = min(i + SHIFT, pc.n - 1);
        imageStore(dst, int(i), vec4(dot(texelFetch(src, int(j)), vec4(imageLoad(w, int(i))))));
    }
}
