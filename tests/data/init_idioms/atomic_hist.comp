#version 450
// A histogram into a buffer the shader declares writeonly and only adds to with atomics (a radix sort's
// counting pass, a tone mapper's luminance bins): the bins are read and written, starting from zero.
layout(local_size_x_id = 0) in;
layout(push_constant) uniform P { uint count; } p;
layout(std430, binding = 0) writeonly buffer Hist { uint bins[]; };
layout(std430, binding = 1) readonly buffer Keys { uint keys[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        atomicAdd(bins[keys[i] % 16u], 1u);
}
