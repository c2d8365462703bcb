#version 450
// OUT[i] = 2 * IN[i] through shared memory sized for 64 invocations. FORM picks how the index is written; every
// form indexes the array before any branch, so a workgroup of WG > 64 surely writes past its end.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
shared float tile[64];

void main()
{
    uint i = gl_GlobalInvocationID.x;
#if FORM == 0
    uint l = gl_LocalInvocationID.x;  // through a local variable
#elif FORM == 1
    uint l = gl_LocalInvocationIndex; // the flat index
#else
    uint l = (gl_LocalInvocationID.x << 1) / 2; // not followed (a division): counts as within bounds
#endif
    tile[l] = IN[i];
    barrier();
    OUT[i] = 2.0 * tile[l];
}
