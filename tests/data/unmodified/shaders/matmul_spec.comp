#version 450
// A matmul written the way third-party shaders are: the problem sizes and the tile are specialization constants
// the shader declares itself, the workgroup size comes from one of them (local_size_x_id), and a push-constant
// block names its members M, N, K as well (only the strides are read from it). Nothing here is vkautotune's.
#extension GL_GOOGLE_include_directive : require
#include "common/indexing.glsl"

layout(local_size_x_id = 3, local_size_y = 1, local_size_z = 1) in;

layout(constant_id = 0) const uint M = 1;
layout(constant_id = 1) const uint N = 1;
layout(constant_id = 2) const uint K = 1;
layout(constant_id = 3) const uint WG = 32;
layout(constant_id = 4) const uint TN = 1;

layout(binding = 0) readonly buffer BufA { A_TYPE a[]; };
layout(binding = 1) readonly buffer BufB { A_TYPE b[]; };
layout(binding = 2) writeonly buffer BufC { float c[]; };

void main()
{
    uint row = gl_WorkGroupID.y;
    for (uint t = 0; t < TN; t++) {
        uint col = gl_GlobalInvocationID.x * TN + t;
        if (row >= M || col >= N)
            continue;
        float acc = 0.0;
        for (uint k = 0; k < K; k++)
            acc += float(a[at(row, k, K)]) * float(b[at(k, col, N)]);
        c[at(row, col, N)] = acc;
    }
}
