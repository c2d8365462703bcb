#version 450
// Scales X into Y, BLOCK elements an invocation. BLOCK = 4 adds 0.5 to each block's last element: a bug on purpose,
// which a check against the shader's own BLOCK = 1 ([check] config) must find.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer BufX { float x[]; };
layout(binding = 1) writeonly buffer BufY { float y[]; };
layout(push_constant) uniform Params { uint n; } p;

void main()
{
    uint base = gl_GlobalInvocationID.x * BLOCK;
    for (uint k = 0; k < BLOCK; k++)
        if (base + k < p.n)
            y[base + k] = 2.0 * x[base + k] + (BLOCK == 4 && k == 3 ? 0.5 : 0.0);
}
