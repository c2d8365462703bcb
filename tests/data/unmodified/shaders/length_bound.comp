#version 450
// Bounds itself by its output's .length(), as many shaders do, in a grid rounded up past the data.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer Src { float x[]; };
layout(std430, binding = 1) writeonly buffer Dst { float y[]; };
#ifndef BUG
#define BUG 0
#endif

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= y.length())
        return;
    y[i] = (2.0 + float(BUG)) * x[i];
}
