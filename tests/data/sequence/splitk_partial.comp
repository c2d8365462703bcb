#version 450
// Split-K, pass 1: workgroup (x, y, z) computes a TILE x TILE block of A * B over K's slice z of SPLIT and
// writes it to P[z * M * N + row * N + col].
layout(local_size_x = TILE, local_size_y = TILE) in;
layout(constant_id = 0) const uint SPLIT = 1;

layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 3) writeonly buffer BufP { float P[]; };
layout(push_constant) uniform Params { uint m, n, k; } p;

void main()
{
    uint col = gl_GlobalInvocationID.x, row = gl_GlobalInvocationID.y, z = gl_WorkGroupID.z;
    if (row >= p.m || col >= p.n)
        return;
    uint slice = p.k / SPLIT;
    float sum = 0.0;
    for (uint k = z * slice; k < (z + 1) * slice; k++)
        sum += A[row * p.k + k] * B[k * p.n + col];
    P[z * p.m * p.n + row * p.n + col] = sum;
}
