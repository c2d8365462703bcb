#version 450
// A stream compaction: each invocation appends its index to one of two lists, by its value's sign, at the slot an
// atomic counter hands out, so which slot holds which index depends on the order the invocations ran in. One list
// is writeonly, the other has no qualifier.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) buffer Count { uint kept_count; uint dropped_count; };
layout(std430, binding = 2) writeonly buffer Kept { uint kept[]; };
layout(std430, binding = 3) buffer Dropped { uint dropped[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (values[i] > 0.0)
        kept[atomicAdd(kept_count, 1u)] = i;
    else
        dropped[atomicAdd(dropped_count, 1u)] = i;
}
