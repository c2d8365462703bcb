#version 450
// A uniform block's count bounds the invocations; a second member, limit, guards the store as well. init makes
// count the size, but limit is a plain value (1), so the output stays inout from zero.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std140, binding = 2) uniform Params { uint count; uint limit; } params;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    if (i < params.limit)
        dst[i] = 2.0 * src[i];
}
