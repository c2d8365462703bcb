#version 450
// Reference, pass 1: S[g] = sum of X[64 g .. 64 g + 63] (one invocation per block, in order).
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 1) writeonly buffer BufS { float S[]; };

void main()
{
    uint g = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (uint k = 0; k < 64; k++)
        if (g * 64 + k < N)
            sum += X[g * 64 + k];
    S[g] = sum;
}
