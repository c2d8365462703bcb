#version 450
// Reference for two_outputs.comp.in: both outputs a copy of IN. N arrives as a #define.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer BufIn { float IN[]; };
layout(std430, binding = 1) writeonly buffer BufNear { float NEAR[]; };
layout(std430, binding = 2) writeonly buffer BufExact { float EXACT[]; };
void main()
{
    const uint i = gl_GlobalInvocationID.x;
    if (i < N) {
        NEAR[i] = IN[i];
        EXACT[i] = IN[i];
    }
}
