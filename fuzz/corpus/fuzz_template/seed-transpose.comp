#version 450
// Bandwidth-bound matrix transpose: OUT[C][R] = IN[R][C], fp32, row-major.
// A workgroup moves a TILE x TILE block through shared memory so that both the global reads and the global
// writes are coalesced; each of its TILE x (TILE / RPT) threads moves RPT rows. PAD = 1 shifts each shared row
// by one bank, which removes the column-read bank conflicts.
// Parameters (spaces/transpose.ini): TILE, RPT, PAD. Sizes come as push constants.
#extension GL_EXT_control_flow_attributes : enable

layout(local_size_x = TILE, local_size_y = TILE / RPT) in;

layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
layout(push_constant) uniform Sizes { uint rows, cols; } p;

shared float tile[TILE][TILE + PAD];

void main()
{
    const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    const uint r0 = gl_WorkGroupID.y * TILE, c0 = gl_WorkGroupID.x * TILE;
    [[unroll]] for (uint j = 0; j < TILE; j += TILE / RPT)
        tile[ty + j][tx] = IN[(r0 + ty + j) * p.cols + c0 + tx];
    barrier();
    [[unroll]] for (uint j = 0; j < TILE; j += TILE / RPT)
        OUT[(c0 + ty + j) * p.rows + r0 + tx] = tile[tx][ty + j];
}
