// A Hazel-style file of three stages; its loader compiles each `#type` section apart.
#type vertex
#version 450 core
layout(location = 0) in vec3 a_Position;
layout(location = 0) out vec3 v_Position;
void main()
{
    v_Position = a_Position;
    gl_Position = vec4(a_Position, 1.0);
}

#type fragment
#version 450 core
layout(location = 0) in vec3 v_Position;
layout(location = 0) out vec4 o_Color;
void main() { o_Color = vec4(v_Position, 1.0); }

#type compute
#version 450 core
#ifndef WG
#define WG 64
#endif
layout(local_size_x = WG) in;
layout(set = 0, binding = 0, std430) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Params { uint n; } p;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < p.n)
        dst[i] = 2.0 * src[i];
}
