#version 450
// Reference for ggml_soft_max.ini, written here: one invocation per row, D = softmax(X * scale), sums in float.
layout(local_size_x = 64) in;
layout(binding = 0) readonly buffer BufX { float x[]; };
layout(binding = 1) readonly buffer BufY { float y[]; };
layout(binding = 2) buffer BufD { float d[]; };
layout(push_constant) uniform Params { uint KX; uint KY; float scale; float max_bias; float m0; float m1;
                                        uint n_head_log2; uint nrows_x; } p;
void main()
{
    uint row = gl_GlobalInvocationID.x;
    if (row >= p.nrows_x)
        return;
    float m = -1.0 / 0.0;
    for (uint c = 0; c < p.KX; c++)
        m = max(m, x[row * p.KX + c] * p.scale);
    float s = 0.0;
    for (uint c = 0; c < p.KX; c++)
        s += exp(x[row * p.KX + c] * p.scale - m);
    for (uint c = 0; c < p.KX; c++)
        d[row * p.KX + c] = exp(x[row * p.KX + c] * p.scale - m) / s;
}
