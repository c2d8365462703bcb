#version 450
// A 64-wide workgroup fixed in the source with shared memory sized for it: a larger workgroup would write past the
// array, so init keeps the shader's size and says why.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
shared float tile[64];
void main()
{
    uint t = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    tile[t] = src[i];
    barrier();
    dst[i] = tile[63u - t];
}
