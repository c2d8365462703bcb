#[versions]

plain = "";
doubled = "#define DOUBLED";

#[compute]

#version 450

#VERSION_DEFINES

// A Godot RenderingDevice shader file with versions: Godot's importer compiles it once per named version, with
// that version's defines where #VERSION_DEFINES stands.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) restrict buffer Data { float data[]; } buf;
layout(push_constant, std430) uniform Params { uint count; float scale; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
        return;
    float v = buf.data[i] * p.scale;
#ifdef DOUBLED
    v *= 2.0;
#endif
    buf.data[i] = v + 1.0;
}
