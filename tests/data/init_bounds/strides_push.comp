#version 450
// A 3-D pass in the layout of an ML runtime's blobs (ncnn's `gz * cstep + gy * w + gx`): the sizes bound each axis,
// and the plane stride and the output's row stride are push members of their own. init gives each stride the sizes
// below its axis; at 1 the shader wrote one row over and over and left the rest of `dst` unwritten.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Shape { int w; int h; int c; int cstep; int outw; int outcstep; } p;
void main()
{
    int gx = int(gl_GlobalInvocationID.x);
    int gy = int(gl_GlobalInvocationID.y);
    int gz = int(gl_GlobalInvocationID.z);
    if (gx >= p.w || gy >= p.h || gz >= p.c)
        return;
    dst[gz * p.outcstep + gy * p.outw + gx] = 2.0 * src[gz * p.cstep + gy * p.w + gx];
}
