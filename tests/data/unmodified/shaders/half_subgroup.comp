#version 450
// A shader whose extensions need device support (tests/cli/init.sh): 16-bit storage (a feature init writes in
// [kernel] features) and subgroup arithmetic (a property init names in a comment).
#extension GL_EXT_shader_16bit_storage : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float16_t a[]; };
layout(std430, binding = 1) writeonly buffer S { float s[]; };
layout(push_constant) uniform P { uint n; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    float v = i < n ? float(a[i]) : 0.0;
    float t = subgroupAdd(v);
    if (subgroupElect())
        s[i / gl_SubgroupSize] = t;
}
