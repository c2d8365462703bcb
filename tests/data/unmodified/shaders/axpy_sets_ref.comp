#version 450
// Reference for axpy_sets.comp: the same descriptor layout and push block, one element per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 2) readonly buffer BufX { float x[]; };
layout(set = 1, binding = 0) readonly buffer BufY { float y[]; };
layout(set = 0, binding = 5) writeonly buffer BufZ { float z[]; };
layout(push_constant) uniform Params { uint n; float a; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        z[i] = p.a * x[i] + y[i];
}
