#version 450
// Blocks init must size from their layout (tests/cli/init.sh): a std140 uniform block of mixed members (64 bytes,
// its last member an ivec2), a std140 storage array of floats (a 16-byte stride) after a header member, and a storage
// block of a fixed-size array.
layout(local_size_x = 64) in;

layout(std140, binding = 0) uniform Params {
    float dt;
    float mass;
    vec4 gravity;   // offset 16
    vec4 centre;    // offset 32
    float radius;   // offset 48
    ivec2 counts;   // offset 56
} params;

layout(std140, binding = 1) buffer Padded {
    uint count;
    float vals[];   // offset 16, stride 16
};

layout(std430, binding = 2) writeonly buffer Hist {
    uint hist[64];
};

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < count && i < uint(params.counts.x))
        vals[i] = vals[i] * params.dt + params.gravity.y * params.mass + params.radius + params.centre.x;
    if (i < 64u)
        hist[i] = i;
}
