#version 430
// An OpenGL-style compute shader (tests/cli/opengl_rules.sh): uniforms outside a block, a buffer without a binding.
// Vulkan's GLSL allows neither; [kernel] opengl_rules compiles it as an OpenGL program would see it.
layout(local_size_x = 64) in;

uniform uint count;
uniform float scale;
uniform vec2 offset;

layout(std430) readonly buffer Values { float values[]; };
layout(std430, binding = 3) writeonly buffer Result { float result[]; };

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= count)
        return;
    result[i] = scale * values[i] + offset.y;
}
