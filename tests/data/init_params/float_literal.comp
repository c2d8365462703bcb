#version 450
// A 2-D pass whose sizes are float literals compared with the converted invocation index (a shader's #defines
// written as floats): x < 96.0 lets 96 columns through, y > 39.5 exits after 40 rows.
layout(constant_id = 0) const uint WG = 32;
layout(local_size_x_id = 0, local_size_y = 2) in;

layout(std430, set = 0, binding = 0) writeonly buffer Dst { float dst[]; };

void main()
{
    vec2 p = vec2(gl_GlobalInvocationID.xy);
    if (p.x >= 96.0 || p.y > 39.5)
        return;
    dst[gl_GlobalInvocationID.y * 96u + gl_GlobalInvocationID.x] = p.x * 0.5 + p.y;
}
