#version 450
// A push-constant block declared `restrict readonly`, as Godot's compute files write it: glslang decorates the
// block NonWritable, which the SPIR-V validator refuses on a push constant. Written for tests/cli/init_trial.sh.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) restrict readonly buffer Src { float src[]; };
layout(set = 0, binding = 1, std430) restrict writeonly buffer Dst { float dst[]; };
layout(push_constant, std430) restrict readonly uniform Params {
    uint count;
    float gain;
} params;

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count)
        return;
    dst[i] = src[i] * params.gain;
}
