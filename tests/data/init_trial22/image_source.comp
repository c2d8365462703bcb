#version 450
// A 3x3 box filter between two r8 images declared without qualifiers (an OpenGL-era habit), and a count of bright
// texels in an r32ui image by image atomics: the source is only read, the other two are written.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, r8) uniform image2D source;
layout(binding = 1, r8) uniform image2D result;
layout(binding = 2, r32ui) uniform uimage2D bright;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    float sum = 0.0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += imageLoad(source, p + ivec2(dx, dy)).r;
    imageStore(result, p, vec4(sum / 9.0));
    if (sum > 4.5)
        imageAtomicAdd(bright, ivec2(0, 0), 1u);
}
