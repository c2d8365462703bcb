#version 450
// Specialization constants of types other than a 32-bit integer (tests/cli/spec_types.sh): the space gives each an
// integer; vkautotune encodes it for the declared type. SCALE (a float) and NEGATE (a bool) are problem sizes,
// FBLOCK (a float) a parameter equal to the workgroup size, OFFSET a 64-bit integer given a negative size.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float SCALE = 1.0;
layout(constant_id = 2) const bool NEGATE = false;
layout(constant_id = 3) const int64_t OFFSET = 0;
layout(constant_id = 4) const float FBLOCK = 1.0;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(std430, binding = 2) writeonly buffer F { uint flag[]; };
layout(push_constant) uniform P { uint n; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= n)
        return;
    float v = x[i] * SCALE + float(OFFSET);
    y[i] = NEGATE ? -v : v;
    flag[i] = FBLOCK == float(gl_WorkGroupSize.x) ? 1u : 0u;
}
