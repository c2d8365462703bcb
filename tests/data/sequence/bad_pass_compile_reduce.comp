#version 450
// Test shader for `vkautotune compile` on a sequence (tests/cli/cases/compile-error-pass): splitk_reduce.comp
// with an undeclared name in line 18, so only the second pass fails to compile.
layout(local_size_x = VKAT_LOCAL_SIZE_X) in;
layout(constant_id = 0) const uint SPLIT = 1;

layout(std430, binding = 2) writeonly buffer BufC { float C[]; };
layout(std430, binding = 3) readonly buffer BufP { float P[]; };
layout(push_constant) uniform Params { uint m, n, k; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.m * p.n)
        return;
    float sum = 0.0;
    for (uint z = 0; z < SPLIT; z++)
        sum += P[z * p.m * p.n + i] * not_declared;
    C[i] = sum;
}
