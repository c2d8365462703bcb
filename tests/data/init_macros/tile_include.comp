#version 450
// tile_transpose.comp with its tile's size #defined in an included header (tile_size.glsl), not in the shader.
#include "tile_size.glsl"
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint width; uint height; } p;
shared float tile[TILE][TILE + 1];
void main() {
    uint x = gl_WorkGroupID.x * TILE + gl_LocalInvocationID.x;
    uint y = gl_WorkGroupID.y * TILE + gl_LocalInvocationID.y;
    if (x < p.width && y < p.height)
        tile[gl_LocalInvocationID.y][gl_LocalInvocationID.x] = a[y * p.width + x];
    barrier();
    x = gl_WorkGroupID.y * TILE + gl_LocalInvocationID.x;
    y = gl_WorkGroupID.x * TILE + gl_LocalInvocationID.y;
    if (x < p.height && y < p.width)
        b[y * p.height + x] = tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y];
}
