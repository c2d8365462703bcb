#version 450
// gl_NumWorkGroups for something else: a 2-D dispatch flattened to one index.
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer B { float b[]; };
layout(push_constant) uniform P { uint n; } p;

void main()
{
    uvec3 gid = gl_GlobalInvocationID;
    uint i = gid.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gid.x;
    if (i < p.n)
        b[i] = float(i);
}
