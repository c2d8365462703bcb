#version 450
// Each invocation sums a kernel over every particle of a fixed count (a #define), an n-body density: the loop reads
// COUNT positions whatever the number of invocations.
#define COUNT 4096
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Pos { float pos[]; };
layout(std430, binding = 1) writeonly buffer Density { float density[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float sum = 0.0;
    for (int j = 0; j < COUNT; j++) {
        float d = pos[i] - pos[j];
        sum += exp(-d * d);
    }
    density[i] = sum;
}
