#version 450
// Loads and stores through function-like macros the host defines (ncnn's buffer_ld1 / buffer_st1 and psc(x)).
layout(local_size_x = 64) in;
layout(push_constant) uniform P { int n; } p;
layout(std430, binding = 0) buffer Data { float data[]; };
void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i >= p.n)
        return;
    float v = LOAD(data, i);
    STORE(data, i, abs(v));
}
