#version 450
// The invocations bounded by a count read from a buffer, and then a literal guarding part of the work (`i < 16u`):
// the literal is not the problem size.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint count; float vals[]; };
layout(std430, binding = 1) writeonly buffer Firsts { float firsts[16]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= count)
        return;
    vals[i] = vals[i] * 2.0;
    if (i < 16u)
        firsts[i] = vals[i];
}
