#version 450
// Reference for reverse_wg.comp: each element scaled in place of the reversal (the reversal undoes itself).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer data_buffer { float data[]; };
layout(set = 0, binding = 1) buffer result_buffer { float result[]; };
layout(push_constant) uniform push_constants { uint N; float value; };
void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < N)
        result[i] = data[i] * value;
}
