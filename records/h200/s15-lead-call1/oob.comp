#version 450
// Bounded by its output's .length(), but one past it when OOB = 1: on a driver that does not bound-check, the write
// lands in the guard after the data.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Src { float x[]; };
layout(std430, binding = 1) writeonly buffer Dst { float y[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i > y.length() - 1 + OOB)
        return;
    y[i] = 2.0 * x[min(i, x.length() - 1)];
}
