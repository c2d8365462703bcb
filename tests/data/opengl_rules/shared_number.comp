#version 430
// OpenGL's binding points are per kind: image unit 0 and buffer binding 0 are two resources there, one Vulkan
// binding here (tests/cli/opengl_rules.sh: init reads it with opengl_rules = separate_bindings).
layout(local_size_x = 8, local_size_y = 8) in;

layout(binding = 0, rgba32f) uniform writeonly image2D target;
layout(std430, binding = 0) readonly buffer Weights { float weights[]; };
uniform float gain;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(target);
    if (p.x >= size.x || p.y >= size.y)
        return;
    imageStore(target, p, vec4(gain * weights[p.y * size.x + p.x]));
}
