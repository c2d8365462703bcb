#version 450
// A std140 push-constant block with explicit offsets, the first past bytes another stage would use, a struct at
// one of them and an array of 16-byte stride. Each invocation writes one pushed value, in the block's order.
layout(local_size_x = 64) in;
struct Light { vec3 color; float intensity; };
layout(push_constant, std140) uniform Params {
    layout(offset = 16) uint n;
    layout(offset = 24) vec2 scale;
    layout(offset = 40) float bias;
    layout(offset = 48) Light light;
    layout(offset = 64) ivec4 taps;
    layout(offset = 96) float w[2];
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    float v[14] = float[14](float(p.n), p.scale.x, p.scale.y, p.bias, p.light.color.x, p.light.color.y,
                            p.light.color.z, p.light.intensity, float(p.taps.x), float(p.taps.y), float(p.taps.z),
                            float(p.taps.w), p.w[0], p.w[1]);
    o[i] = v[i % 14u];
}
