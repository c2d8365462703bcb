#version 450
// Minimal template for the CLI test spaces that never get compiled (dry runs and input errors).
layout(local_size_x = 1) in;
layout(std430, binding = 0) writeonly buffer BufOut { float OUT[]; };
void main() { OUT[gl_GlobalInvocationID.x] = 1.0; }
