#version 460
// Buffers reached through addresses in the push-constant block (buffer_reference), which a space cannot supply.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Floats { float v[]; };
layout(push_constant) uniform Params { Floats src; Floats dst; uint n; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        p.dst.v[i] = 2.0 * p.src.v[i];
}
