##GL_VERTEX_SHADER
#version 450
// Two stages tagged as Saiga's shader loader splits a file (##GL_VERTEX_SHADER, ##GL_COMPUTE_SHADER, ...).
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }

##GL_COMPUTE_SHADER
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { float data[]; };
layout(push_constant) uniform Params { uint count; float bias; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.count)
        data[i] += p.bias;
}
