#version 450
// Reference for affine_ubo.comp: the coefficients (1, 2, 3, 4 from iota(1)) written out.
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Coefficients { vec4 coef; } u;
layout(std430, binding = 1) readonly buffer BufX { float x[]; };
layout(std430, binding = 2) writeonly buffer BufY { float y[]; };
layout(push_constant) uniform Sizes { uint n; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        y[i] = x[i] * 1.0 + 2.0;
}
