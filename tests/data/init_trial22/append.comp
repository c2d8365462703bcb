#version 450
// A stream compaction: each invocation whose value passes appends its index to a list at the slot an atomic
// counter hands out, so which slot holds which index depends on the order the invocations ran in.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Values { float values[]; };
layout(std430, binding = 1) buffer Count { uint count; };
layout(std430, binding = 2) writeonly buffer Kept { uint kept[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (values[i] > 0.0) {
        uint slot = atomicAdd(count, 1u);
        kept[slot] = i;
    }
}
