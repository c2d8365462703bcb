#version 450
// A density field sampled over a volume, marching cubes' first pass: the position is the whole invocation index
// as a vec3, the field is laid out by the dispatch's own extent, and nothing bounds the invocations.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 8) in;
layout(std430, binding = 0) writeonly buffer Field { float density[]; };

void main()
{
    vec3 p = vec3(gl_GlobalInvocationID);
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    vec3 c = p / vec3(n) - 0.5;
    uint i = gl_GlobalInvocationID.x + n.x * (gl_GlobalInvocationID.y + n.y * gl_GlobalInvocationID.z);
    density[i] = length(c) - 0.25 + 0.05 * sin(8.0 * c.x) * cos(8.0 * c.y);
}
