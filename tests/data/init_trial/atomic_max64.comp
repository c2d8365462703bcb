#version 450
// The largest 64-bit key per bucket by atomicMax on a uint64_t (a depth-and-id visibility buffer's idiom, as a
// compute rasterizer packs them). Written for tests/cli/init_trial.sh.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Keys { uvec2 keys[]; };
layout(set = 0, binding = 1) buffer Best { uint64_t best[]; };
layout(push_constant) uniform Params { uint count; uint buckets; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
        return;
    uvec2 k = keys[i];
    atomicMax(best[k.x % p.buckets], packUint2x32(uvec2(i, k.y & 0xffu)));
}
