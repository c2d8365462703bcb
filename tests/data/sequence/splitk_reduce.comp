#version 450
// Split-K, pass 2: C[i] = the sum of the SPLIT partial products of element i.
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
        sum += P[z * p.m * p.n + i];
    C[i] = sum;
}
