#version 450
// A 1-D pass bounded by one component of an integer vector in its push block (a sort's `uvec4 data` whose x is
// the element count): that component is the size, the others stay 1.
layout(local_size_x = 32) in;
layout(push_constant) uniform P { uvec4 counts; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.counts.x)
        y[i] = 2.0 * x[i] + float(p.counts.y);
}
