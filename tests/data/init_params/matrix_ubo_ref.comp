#version 450
// matrix_ubo.comp's result where its block holds what init writes (model and tint the identity, the weights and
// the bias 1, count the size): with other values (zero words) the two differ.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 1) readonly buffer Src { vec4 src[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Dst { float dst[]; };
layout(std140, set = 0, binding = 0) uniform Xform {
    mat4 model;
    float weights[4];
    mat3 tint;
    vec3 bias;
    uint count;
} xf;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= xf.count)
        return;
    vec4 p = src[i];
    vec3 q = p.xyz + vec3(1.0);
    dst[i] = p.x + p.y + p.z + p.w + q.x - q.y * q.z;
}
