#version 450 core
// The workgroup size as specialization constants (local_size_x_id) with a shared array sized by it
// (gl_WorkGroupSize.x), the size and a scale in an anonymous push-constant block (members read as globals):
// reverses each workgroup's slice through shared memory and scales it.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(set = 0, binding = 0) buffer data_buffer { float data[]; };
layout(set = 0, binding = 1) buffer result_buffer { float result[]; };
layout(push_constant) uniform push_constants {
    uint N;
    float value;
};
shared float stage[gl_WorkGroupSize.x];

void main()
{
    uint i = gl_GlobalInvocationID.x;
    stage[gl_LocalInvocationID.x] = i < N ? data[i] : 0.0;
    barrier();
    uint j = gl_WorkGroupSize.x - 1 - gl_LocalInvocationID.x;
    uint o = gl_WorkGroupID.x * gl_WorkGroupSize.x + j;
    if (o < N)
        result[o] = stage[j] * value;
}
