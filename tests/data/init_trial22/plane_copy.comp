#version 450
// A 2-D scale of a plane laid out by the dispatch's own width, the position kept whole in a local variable first
// and then narrowed to its x and y: nothing bounds the invocations, and nothing reads the z axis.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

void main()
{
    uvec3 id = gl_GlobalInvocationID;
    uvec2 g = id.xy;
    uint w = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    dst[g.x + w * g.y] = 2.0 * src[g.x + w * g.y];
}
