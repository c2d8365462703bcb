#version 450
// A 3-D volume pass: each invocation clears one voxel of an r32f volume to its distance from the centre, bounded
// by the image's own size (session 19's trial: a photon volume written through an image3D).
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(binding = 0, r32f) uniform writeonly image3D vol;

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(vol);
    if (any(greaterThanEqual(p, size)))
        return;
    imageStore(vol, p, vec4(length(vec3(p) - vec3(size) * 0.5)));
}
