#version 450
// An image of 16-bit UNORM texels (r16, as a 16-bit camera frame or a depth map is stored), filtered in place
// through a 16 x 16 tile of shared memory. Written for tests/cli/init_trial.sh.
layout(local_size_x = 16, local_size_y = 16) in;
layout(binding = 0, r16) uniform image2D frame;
layout(binding = 1, rg16) uniform readonly image2D flow;
shared float tile[16][16];

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 l = ivec2(gl_LocalInvocationID.xy);
    tile[l.y][l.x] = imageLoad(frame, p).r;
    barrier();
    float right = tile[l.y][min(l.x + 1, 15)];
    vec2 w = imageLoad(flow, p).rg;
    imageStore(frame, p, vec4(mix(tile[l.y][l.x], right, w.x * w.y), 0.0, 0.0, 1.0));
}
