#version 450
// Reference for ggml_rms_norm.ini, written here: one invocation per row, D = A / sqrt(mean(A^2) + eps).
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer BufA { float a[]; };
layout(binding = 1) readonly buffer BufB { float b[]; };
layout(binding = 2) writeonly buffer BufD { float d[]; };
layout(push_constant) uniform Params { uint ne; uint ne00; uint ne01; uint pad[22]; uint misalign_offsets;
                                        float param1; } p;
void main()
{
    uint row = gl_GlobalInvocationID.x;
    if (row >= p.ne01)
        return;
    float s = 0.0;
    for (uint c = 0; c < p.ne00; c++)
        s += a[row * p.ne00 + c] * a[row * p.ne00 + c];
    float scale = inversesqrt(s / float(p.ne00) + p.param1);
    for (uint c = 0; c < p.ne00; c++)
        d[row * p.ne00 + c] = a[row * p.ne00 + c] * scale;
}
