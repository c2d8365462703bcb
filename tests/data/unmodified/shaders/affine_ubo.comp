#version 450
// y = x * coef.x + coef.y with the coefficients in a uniform block (as shaders of engines pass their constants).
// Bound as a storage buffer it reads std430 memory where std140 is expected; the space says `uniform`.
layout(local_size_x = WG) in;
layout(std140, binding = 0) uniform Coefficients { vec4 coef; } u;
layout(std430, binding = 1) readonly buffer BufX { float x[]; };
layout(std430, binding = 2) writeonly buffer BufY { float y[]; };
layout(push_constant) uniform Sizes { uint n; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        y[i] = x[i] * u.coef.x + u.coef.y;
}
