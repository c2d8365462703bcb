#version 450
// Reference: Y[0] = the sum of X, in one invocation.
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 3) writeonly buffer BufY { float Y[]; };

void main()
{
    float sum = 0.0;
    for (uint i = 0; i < N; i++)
        sum += X[i];
    Y[0] = sum;
}
