#version 450
// One workgroup per row (a softmax's or a norm's reduction, as llama.cpp's soft_max.comp lays it out): the row is
// gl_WorkGroupID.x, the bound counts rows, and the invocations of a workgroup stride over its columns, reduced in
// shared memory. The result does not depend on the workgroup size. Written for tests/cli/init_trial.sh.
layout(constant_id = 0) const uint BLOCK = 64;
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer Src { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { float dst[]; };
layout(push_constant) uniform Params {
    uint cols;
    uint rows;
} p;
shared float part[BLOCK];

void main()
{
    uint row = gl_WorkGroupID.x, tid = gl_LocalInvocationID.x;
    if (row >= p.rows)
        return;
    float s = 0.0;
    for (uint c = tid; c < p.cols; c += BLOCK)
        s += src[row * p.cols + c];
    part[tid] = s;
    barrier();
    for (uint h = BLOCK / 2; h > 0; h >>= 1) {
        if (tid < h)
            part[tid] += part[tid + h];
        barrier();
    }
    if (tid == 0)
        dst[row] = part[0];
}
