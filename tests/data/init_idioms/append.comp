#version 450
// Stream compaction by an atomic counter (an append buffer): where each kept value lands depends on the order the
// workgroups run in, so the output differs from one run to the next though the counter does not.
layout(local_size_x = 1) in;
layout(push_constant) uniform P { uint count; } p;
layout(std430, binding = 0) buffer Counter { uint kept; };
layout(std430, binding = 1) buffer Out { uint ids[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        ids[atomicAdd(kept, 1u)] = i;
}
