#version 450
// A 128-wide workgroup fixed in the source, indexed as gl_WorkGroupID.x * 128 + gl_LocalInvocationID.x: another
// size would compute other elements, so init keeps the shader's size and says why.
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
void main()
{
    uint i = gl_WorkGroupID.x * 128u + gl_LocalInvocationID.x;
    dst[i] = src[i] + 1.0;
}
