#version 450
// Moves packed points: vec3s 12 bytes apart under the scalar block layout, as a mesh's positions are stored.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;

struct Point {
    vec3 pos;
    float mass;
    vec3 vel;
};

layout(scalar, set = 0, binding = 0) readonly buffer Src { Point src[]; };
layout(scalar, set = 0, binding = 1) writeonly buffer Dst { vec3 dst[]; };
layout(push_constant) uniform Params { uint count; float dt; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= count)
        return;
    Point p = src[i];
    dst[i] = p.pos + p.vel * dt / max(p.mass, 1.0);
}
