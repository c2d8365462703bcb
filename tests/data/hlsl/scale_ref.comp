#version 450
// The reference of scale.ini: scale.hlsl in GLSL with scale.ini's values written in (count 1000, scale 2.5,
// bias 0.75), at the bindings scale.hlsl's registers take (u0: 0, t0: 200).
layout(local_size_x = 64) in;
layout(std430, binding = 200) readonly buffer Values { float values[]; };
layout(std430, binding = 0) writeonly buffer Result { float result[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= 1000u)
        return;
    result[i] = 2.5 * values[i] + 0.75;
}
