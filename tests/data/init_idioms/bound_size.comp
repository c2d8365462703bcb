#version 450
// The size the shader bounds its invocations by is not its push block's first integer: a flag and a stride
// come first (a CFD solver's imax/jmax/size, ncnn's dims/w/h/c).
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint flags; uint stride; float scale; uint count; } p;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    uint last = p.count - 1u;
    if (i > last)
        return;
    y[i] = (p.flags != 0u ? p.scale : 1.0) * x[i];
}
