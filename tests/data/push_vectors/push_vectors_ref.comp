#version 450
// The reference of push_vectors.comp: the same block declared as scalars at explicit offsets, so a vector value
// placed at the wrong offset gives another result.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(push_constant) uniform P {
    layout(offset = 0) uint n;
    layout(offset = 16) float t0;
    layout(offset = 20) float t1;
    layout(offset = 24) float t2;
    layout(offset = 28) float t3;
    layout(offset = 32) int sx;
    layout(offset = 36) int sy;
    layout(offset = 40) float scale;
    layout(offset = 48) float bias;
} p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        y[i] = x[i] * p.scale * p.t1 + float(p.sx - p.sy) + p.bias;
}
