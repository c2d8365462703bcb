#version 450
// The reference of scale.ini: scale.comp with the values scale.ini gives its uniforms written in (count 1000,
// scale 2.5, offset.y 0.75), at the bindings the OpenGL rules give scale.comp's resources.
layout(local_size_x = 64) in;
layout(std430, binding = 1) readonly buffer Values { float values[]; };
layout(std430, binding = 3) writeonly buffer Result { float result[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= 1000u)
        return;
    result[i] = 2.5 * values[i] + 0.75;
}
