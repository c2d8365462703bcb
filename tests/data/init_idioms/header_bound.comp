#version 450
// The count is read from a buffer's header (a matrix that carries its rows and columns, a culling pass's
// model_count in a uniform block): init fills buffers with random data, so how much of Y the shader writes is
// unknown; Flags, written before the bound, is written whole.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Header { uint count; float data[]; } src;
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(std430, binding = 2) writeonly buffer Flags { uint flags[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    flags[i] = 1u;
    if (i >= src.count)
        return;
    y[i] = 2.0 * src.data[i];
}
