#version 450
// Sparse matrix (CSR) times a vector, one row an invocation, both ways of reading a row's range: its count as a
// difference of the row offsets (y) and a loop from one offset to the next (z).
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer RowStart { uint row_start[]; };
layout(std430, binding = 1) readonly buffer Cols { uint col[]; };
layout(std430, binding = 2) readonly buffer Vals { float val[]; };
layout(std430, binding = 3) readonly buffer X { float x[]; };
layout(std430, binding = 4) writeonly buffer Y { float y[]; };
layout(std430, binding = 5) writeonly buffer Z { float z[]; };
layout(push_constant) uniform P { uint rows; } p;

void main()
{
    uint r = gl_GlobalInvocationID.x;
    if (r >= p.rows)
        return;
    uint first = row_start[r], count = row_start[r + 1] - first;
    float sum = 0.0;
    for (uint k = 0u; k < count; k++)
        sum += val[first + k] * x[col[first + k]];
    y[r] = sum;
    float again = 0.0;
    for (uint k = row_start[r]; k < row_start[r + 1]; k++)
        again += val[k] * x[col[k]];
    z[r] = again;
}
