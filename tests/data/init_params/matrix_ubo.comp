#version 450
// A std140 uniform block with a matrix, a float array and a mat3 (whose columns are 16 bytes apart), all used:
// with zero words for them every output would be 0 whatever the input.
layout(constant_id = 0) const uint WG = 64;
layout(local_size_x_id = 0) in;

layout(std140, set = 0, binding = 0) uniform Xform {
    mat4 model;
    float weights[4];
    mat3 tint;
    vec3 bias;
    uint count;
} xf;

layout(std430, set = 0, binding = 1) readonly buffer Src { vec4 src[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Dst { float dst[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= xf.count)
        return;
    vec4 p = xf.model * src[i];
    vec3 q = xf.tint * p.xyz + xf.bias;
    float s = 0.0;
    for (int k = 0; k < 4; k++)
        s += xf.weights[k] * p[k];
    dst[i] = s + q.x - q.y * q.z;
}
