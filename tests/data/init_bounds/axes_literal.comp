#version 450
// Bounds per axis from #defines, which SPIR-V keeps only as literals (`gid.x >= WIDTH || gid.y >= HEIGHT`), over a
// std140 buffer of vec4 structs indexed `WIDTH * y + x`: sizes NX and NY at the literals' values.
#define WIDTH 96
#define HEIGHT 40
layout(local_size_x = 32, local_size_y = 32) in;
struct Pixel { vec4 value; };
layout(std140, binding = 0) buffer Image { Pixel pixels[]; };
void main()
{
    if (gl_GlobalInvocationID.x >= WIDTH || gl_GlobalInvocationID.y >= HEIGHT)
        return;
    vec2 uv = vec2(gl_GlobalInvocationID.xy) / vec2(WIDTH, HEIGHT);
    pixels[WIDTH * gl_GlobalInvocationID.y + gl_GlobalInvocationID.x].value = vec4(uv, uv.x * uv.y, 1.0);
}
