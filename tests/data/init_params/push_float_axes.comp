#version 450
// A 2-D pass bounded per axis by two float push constants, compared with the converted invocation index.
layout(constant_id = 0) const uint WG = 16;
layout(local_size_x_id = 0, local_size_y = 4) in;

layout(push_constant) uniform Push {
    float width;
    float height;
    float gain;
} pc;

layout(std430, set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { float dst[]; };

void main()
{
    vec2 p = vec2(gl_GlobalInvocationID.xy);
    if (p.x >= pc.width || p.y >= pc.height)
        return;
    uint i = gl_GlobalInvocationID.y * uint(pc.width) + gl_GlobalInvocationID.x;
    dst[i] = src[i] * pc.gain;
}
