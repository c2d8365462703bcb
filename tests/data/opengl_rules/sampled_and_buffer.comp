#version 450
// Compiles as Vulkan GLSL, but its texture and its buffer share binding 0, which only OpenGL's binding points (one
// set per kind) allow (tests/cli/opengl_rules.sh: init reads it with opengl_rules = separate_bindings), and its
// texture has an OpenGL uniform location, which glslang keeps and Vulkan's SPIR-V may not hold (it is dropped).
layout(local_size_x = 16, local_size_y = 16) in;

layout(binding = 0, location = 0) uniform sampler2D source;
layout(std430, binding = 0) writeonly buffer Texels { vec4 texels[]; };

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(source, 0);
    if (p.x >= size.x || p.y >= size.y)
        return;
    texels[p.y * size.x + p.x] = 0.5 * texelFetch(source, p, 0);
}
