#version 450
// A 16 x 16 tile of a 2-D grid through shared memory (tile[ly][lx + PAD]): a workgroup wider than 16 - PAD or
// taller than 16 surely indexes past the tile. GUARD = 1 puts the accesses behind `if (lx < 16 - PAD && ly < 16)`,
// which the check does not follow, so it must let those variants through.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
shared float tile[16][16];

void main()
{
    uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y, w = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
#if GUARD
    if (lx < 16 - PAD && ly < 16)
#endif
        tile[ly][lx + PAD] = IN[y * w + x];
    barrier();
#if GUARD
    if (lx < 16 - PAD && ly < 16)
#endif
        OUT[y * w + x] = tile[ly][lx + PAD] + 1.0;
}
