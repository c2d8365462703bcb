#version 450
// A shader that numbers its descriptors its own way, as engines do: the inputs in two descriptor sets, binding
// numbers with gaps (set 0 bindings 2 and 5, set 1 binding 0), the size a push constant, the workgroup size a
// specialization constant.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 64;

layout(set = 0, binding = 2) readonly buffer BufX { float x[]; };
layout(set = 1, binding = 0) readonly buffer BufY { float y[]; };
layout(set = 0, binding = 5) writeonly buffer BufZ { float z[]; };
layout(push_constant) uniform Params { uint n; float a; } p;

void main()
{
    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * WG)
        z[i] = p.a * x[i] + y[i];
}
