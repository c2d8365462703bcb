// An OpenGL compute shader whose build writes the #version line, with loose uniforms and images declared without a
// binding (tests/cli/opengl_rules.sh).
layout(rgba16f) uniform restrict writeonly image2D target;
uniform int radius;
uniform ivec2 direction;
layout(rgba16f) uniform restrict readonly image2D source;

layout(local_size_x = 8, local_size_y = 8) in;
void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 sum = imageLoad(source, p);
    for (int i = 1; i <= radius; ++i)
        sum += imageLoad(source, p + direction * i) + imageLoad(source, p - direction * i);
    imageStore(target, p, sum / float(1 + 2 * radius));
}
