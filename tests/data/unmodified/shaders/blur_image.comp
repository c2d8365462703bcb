#version 450
// A 3x3 box blur between two storage images, the way engine post-processing shaders are written: a format
// qualifier on each image, imageLoad / imageStore, the image's own size from imageSize, and the workgroup size as
// specialization constants. BLOCK texels per invocation along x; SHIFT = 1 is wrong on purpose (its window is one
// texel to the right), which only data that varies from texel to texel shows.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const int BLOCK = 1;
layout(constant_id = 3) const int SHIFT = 0;

layout(set = 0, binding = 0, rgba32f) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly image2D dst;

void main()
{
    ivec2 size = imageSize(src);
    for (int b = 0; b < BLOCK; b++) {
        ivec2 p = ivec2(gl_GlobalInvocationID.x * BLOCK + b, gl_GlobalInvocationID.y);
        if (p.x >= size.x || p.y >= size.y)
            return;
        vec4 sum = vec4(0.0);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                sum += imageLoad(src, clamp(p + ivec2(dx + SHIFT, dy), ivec2(0), size - 1));
        imageStore(dst, p, sum / 9.0);
    }
}
