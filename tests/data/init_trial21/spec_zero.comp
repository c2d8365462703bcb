#version 450
// Kompute's way: a size as a float specialization constant, 0 by default; at 0 the loop does nothing and every
// output is 0.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer B { float b[]; };
layout(constant_id = 0) const float width_f = 0;

void main()
{
    uint i = gl_GlobalInvocationID.x, w = uint(width_f);
    float s = 0.0;
    for (uint k = 0u; k < w; k++)
        s += a[i + k];
    b[i] = s;
}
