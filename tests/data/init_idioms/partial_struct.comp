#version 450
// A culling pass: each draw command's instanceCount is set, its other members are left as they were, in a
// buffer declared writeonly (an indirect-draw command buffer).
layout(local_size_x = 64) in;
struct Command { uint indexCount; uint instanceCount; uint firstIndex; int vertexOffset; uint firstInstance; };
layout(push_constant) uniform P { uint count; } p;
layout(std430, binding = 0) readonly buffer Radii { float radius[]; };
layout(std430, binding = 1) writeonly buffer Commands { Command commands[]; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.count)
        return;
    commands[i].instanceCount = radius[i] > 0.0 ? 1u : 0u;
}
