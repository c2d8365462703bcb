#version 450
// A reference that runs for days (hang_reference.ini): 65535 x 65535 workgroups, each spinning p.spin times.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufOut { float OUT[]; };
layout(push_constant) uniform Params { uint n; uint spin; } p;
void main()
{
    uint i = gl_GlobalInvocationID.x;
    float v = i < p.n ? IN[i] : 0.0;
    for (uint a = 0; a < p.spin; a++)
        v = v * 0.999999 + 1e-7;
    if (i < p.n && gl_WorkGroupID.y == 0)
        OUT[i] = v == 12345.0 ? 0.0 : IN[i];
}
