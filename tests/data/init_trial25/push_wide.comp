#version 450
// A push-constant block of 148 bytes: more than Vulkan's least maxPushConstantsSize (128, lavapipe's), within the
// 256 of NVIDIA's, AMD's and Intel's drivers. Each invocation writes one pushed value, in the block's order.
layout(local_size_x = 64) in;
layout(push_constant) uniform Params {
    mat4 transform;
    vec4 tint[5];
    uint n;
} p;
layout(set = 0, binding = 0, std430) writeonly buffer Out { float o[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= p.n)
        return;
    uint k = i % 37u;
    o[i] = k < 16u ? p.transform[k / 4u][k % 4u] : k < 36u ? p.tint[(k - 16u) / 4u][(k - 16u) % 4u] : float(p.n);
}
