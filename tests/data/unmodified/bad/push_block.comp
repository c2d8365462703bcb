#version 450
// Scales a slice of X into Y; its sizes and scale in a push-constant block that the spaces beside it get wrong.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer BufX { float x[]; };
layout(binding = 1) writeonly buffer BufY { float y[]; };
layout(push_constant) uniform Params {
    uint n;
    float scale;
    uint first;
} p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        y[i] = p.scale * x[p.first + i];
}
