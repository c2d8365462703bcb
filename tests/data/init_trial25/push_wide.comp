#version 450
// A push-constant block of 160 bytes: more than Vulkan's least maxPushConstantsSize (128, lavapipe's), within the
// 256 of NVIDIA's, AMD's and Intel's drivers.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params {
    mat4 transform;
    vec4 tint[5];
    uint n;
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { vec4 o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    o[i] = p.transform * p.tint[i % 5u];
}
