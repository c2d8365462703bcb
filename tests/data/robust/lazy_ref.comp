#version 450
// A faulty reference: it writes only the first half of OUT.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
layout(push_constant) uniform Params { uint n; float k; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n / 2)
        OUT[i] = p.k * IN[i];
}
