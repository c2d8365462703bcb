#[compute]
#version 450
// A Godot RenderingDevice shader file: its importer strips the `#[compute]` stage marker above before compiling.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) restrict buffer Data { float data[]; } buf;
layout(push_constant, std430) uniform Params { uint count; float scale; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
        return;
    buf.data[i] = buf.data[i] * p.scale + 1.0;
}
