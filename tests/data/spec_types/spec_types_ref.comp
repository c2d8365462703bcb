#version 450
// The reference of spec_types.comp: the same constants declared as 32-bit integers, converted here.
layout(local_size_x = 64) in;
layout(constant_id = 1) const int SCALE_I = 1;
layout(constant_id = 2) const int NEGATE_I = 0;
layout(constant_id = 3) const int OFFSET_I = 0;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(std430, binding = 2) writeonly buffer F { uint flag[]; };
layout(push_constant) uniform P { uint n; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    float v = x[i] * float(SCALE_I) + float(OFFSET_I);
    y[i] = NEGATE_I != 0 ? -v : v;
    flag[i] = 1u;
}
