#version 450
// Reads gl_WorkGroupSize, which a fixed size compiles to a WorkgroupSize constant: its module cannot be given
// another size by patching LocalSize (tests/cli/spirv_input.sh expects the refusal).
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer B { uint b[]; };
void main() {
    b[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x;
}
