#version 450
// Reference, pass 2: X[0] = the sum of the block sums in S.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer BufX { float X[]; };
layout(std430, binding = 1) readonly buffer BufS { float S[]; };

void main()
{
    float sum = 0.0;
    for (uint g = 0; g < (N + 63) / 64; g++)
        sum += S[g];
    X[0] = sum;
}
