#version 450
// One pass of an in-place sum: workgroup g adds X[(g*B + t) * STRIDE] for t < B into X[g*B*STRIDE].
// BUG = 1 leaves out the last element (the check must see the wrong total).
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint B = 64;
layout(constant_id = 1) const uint STRIDE = 1;

layout(std430, binding = 0) buffer BufX { float X[]; };
layout(push_constant) uniform Params { uint n; } p;

shared float part[B];

void main()
{
    uint t = gl_LocalInvocationID.x;
    uint i = (gl_WorkGroupID.x * B + t) * STRIDE;
    uint last = BUG == 1 ? p.n - 1 : p.n;
    part[t] = i < last ? X[i] : 0.0;
    barrier();
    if (t == 0) {
        float sum = 0.0;
        for (uint k = 0; k < B; k++)
            sum += part[k];
        X[gl_WorkGroupID.x * B * STRIDE] = sum;
    }
}
