#version 450
// Sizes as members of a push-constant block named M, N, K (as inference runtimes pass them), a vector type from a
// text parameter (VEC = float, vec2, vec4) and the element type from [defines]: nothing is #defined over a name
// the shader declares.
layout(local_size_x = WG, local_size_y = 1, local_size_z = 1) in;

layout(push_constant) uniform Sizes {
    uint M;
    uint N;
    uint K;
} p;

layout(binding = 0) readonly buffer BufA { A_TYPE a[]; };
layout(binding = 1) readonly buffer BufB { VEC b[]; };
layout(binding = 2) writeonly buffer BufC { VEC c[]; };

void main()
{
    const uint W = uint(VEC_WIDTH);
    uint row = gl_WorkGroupID.y, col = gl_GlobalInvocationID.x; // col counts vectors of W floats
    if (row >= p.M || col * W >= p.N)
        return;
    VEC acc = VEC(0.0);
    for (uint k = 0; k < p.K; k++)
        acc += VEC(a[row * p.K + k]) * b[(k * p.N) / W + col];
    c[(row * p.N) / W + col] = acc;
}
