#version 450
// Tiny tiled GEMM template for the front-end tests: C = A * B, one TM x TN tile per invocation.
layout(local_size_x = VKAT_LOCAL_SIZE_X, local_size_y = VKAT_LOCAL_SIZE_Y, local_size_z = VKAT_LOCAL_SIZE_Z) in;
layout(constant_id = 0) const int UNROLL = 1;
layout(set = 0, binding = 0) readonly buffer BufA { float a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { float b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };
layout(push_constant) uniform Push { uint m, n, k; float alpha; } pc;
void main()
{
    uint row0 = gl_GlobalInvocationID.y * TM, col0 = gl_GlobalInvocationID.x * TN;
    for (uint i = 0; i < TM; i++)
        for (uint j = 0; j < TN; j++) {
            uint r = row0 + i, col = col0 + j;
            if (r >= pc.m || col >= pc.n)
                continue;
            float acc = 0.0;
            for (uint l = 0; l < pc.k; l++)
                acc += a[r * pc.k + l] * b[l * pc.n + col];
            c[r * pc.n + col] = pc.alpha * acc;
        }
}
