#version 450
// The reference: the same arithmetic with the block's values as constants (scale_ubo.ini's fields), bounded by
// the input's length.
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer In { float x[]; };
layout(std430, binding = 2) writeonly buffer Out { float y[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= x.length())
        return;
    y[i] = 2.5 * x[i] + 0.75 - 0.25;
}
