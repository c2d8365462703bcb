#version 450
// A 1-D scale whose work is in a helper given the whole invocation index, of which it reads x alone: the
// vector passed whole is not a read of its y and z.
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { float data[]; };

void scale(uvec3 id, float by)
{
    data[id.x] = data[id.x] * by;
}

void main()
{
    scale(gl_GlobalInvocationID, 2.0);
}
