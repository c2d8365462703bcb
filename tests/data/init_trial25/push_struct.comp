#version 450
// A push-constant block of structs, an array of structs and a nested array. Each invocation writes one pushed
// value (in the block's order) to its element, so that a value pushed at the wrong offset shows in the output.
layout(local_size_x = 64) in;
struct Light { vec3 color; float intensity; };
struct Ramp { float start; float step; ivec2 range; };
layout(push_constant) uniform Params {
    uint n;
    Light light;
    float weights[3];
    Ramp ramps[2];
    uvec2 grid[2][2];
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    float v[24] = float[24](float(p.n), p.light.color.x, p.light.color.y, p.light.color.z, p.light.intensity,
                            p.weights[0], p.weights[1], p.weights[2],
                            p.ramps[0].start, p.ramps[0].step, float(p.ramps[0].range.x), float(p.ramps[0].range.y),
                            p.ramps[1].start, p.ramps[1].step, float(p.ramps[1].range.x), float(p.ramps[1].range.y),
                            float(p.grid[0][0].x), float(p.grid[0][0].y), float(p.grid[0][1].x),
                            float(p.grid[0][1].y), float(p.grid[1][0].x), float(p.grid[1][0].y),
                            float(p.grid[1][1].x), float(p.grid[1][1].y));
    o[i] = v[i % 24u];
}
