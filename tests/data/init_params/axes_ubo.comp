#version 450
// A 2-D pass bounded per axis by two members of a uniform block: a size each, given by its field.
layout(constant_id = 0) const uint WG = 8;
layout(local_size_x_id = 0, local_size_y = 8) in;

layout(std140, set = 0, binding = 0) uniform Dims {
    float gain;
    uint width;
    uint height;
} dims;

layout(std430, set = 0, binding = 1) readonly buffer Src { float src[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Dst { float dst[]; };

void main()
{
    uvec2 g = gl_GlobalInvocationID.xy;
    if (g.x >= dims.width || g.y >= dims.height)
        return;
    uint i = g.y * dims.width + g.x;
    dst[i] = src[i] * dims.gain;
}
