#version 430
// Written for OpenGL, where image unit 0 and buffer binding 0 are apart: a luminance histogram whose image and
// buffer both take binding 0 (session 19's trial), which one Vulkan binding cannot hold: init reads it with
// opengl_rules = separate_bindings (the image at 200).
layout(local_size_x = 8, local_size_y = 8) in;
layout(std430, binding = 0) buffer Bins { uint bins[8]; };
layout(binding = 0, rgba8) readonly uniform image2D img;

void main()
{
    vec4 c = imageLoad(img, ivec2(gl_GlobalInvocationID.xy));
    atomicAdd(bins[min(uint(dot(c.rgb, vec3(1.0 / 3.0)) * 8.0), 7u)], 1u);
}
