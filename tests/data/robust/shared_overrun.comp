#version 450
// OUT[i] = 2 * IN[i] through a shared array sized for 64 invocations: a workgroup of WG > 64 writes past its end.
// On lavapipe that corrupts the driver's heap, which a later free() notices, often between variants. The accesses
// sit behind a branch, so the tuner's static check of shared-memory bounds (which refuses only accesses every
// invocation surely makes: tests/cli/shared_bounds.sh) lets these variants run.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
shared float tile[64];

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < IN.length())
        tile[gl_LocalInvocationID.x] = IN[i];
    barrier();
    if (i < IN.length())
        OUT[i] = 2.0 * tile[gl_LocalInvocationID.x];
}
