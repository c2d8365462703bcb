// A shader without a #version line, as MNN's Vulkan shaders are (their build adds it), its element type a macro.
layout(set = 0, binding = 0) writeonly buffer Out { FLOAT y[]; };
layout(set = 0, binding = 1) readonly buffer In { FLOAT x[]; };
layout(push_constant) uniform P { int n; } p;
layout(local_size_x = 64) in;

void main()
{
    int i = int(gl_GlobalInvocationID.x);
    if (i < p.n)
        y[i] = x[i] * FLOAT(2.0);
}
