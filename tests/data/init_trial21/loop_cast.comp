#version 450
// A banded (diagonal-storage) matrix times a vector: diagonal d of row r at A[ROWS * d + r], for d below a uint
// constant while d is an int, so the loop's comparison converts it first.
layout(local_size_x = 64) in;
const uint ROWS = 1024u;
const uint DIAGONALS = 3u;
layout(std430, binding = 0) readonly buffer Band { float A[]; };
layout(std430, binding = 1) readonly buffer X { float x[]; };
layout(std430, binding = 2) writeonly buffer Y { float y[]; };

void main()
{
    uint r = gl_GlobalInvocationID.x;
    if (r >= ROWS)
        return;
    float sum = 0.0;
    for (int d = 0; d < DIAGONALS; d++)
        sum += A[ROWS * d + r] * x[r];
    y[r] = sum;
}
