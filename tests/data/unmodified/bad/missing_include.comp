#version 450
// Bad input: includes a file that is neither next to it nor in the space's include_dirs.
#include "common/indexing.glsl"
#include "no_such_header.glsl"
layout(local_size_x = 1) in;
layout(binding = 0) buffer Buf { float v[]; };
void main() { v[at(0, 0, 1)] = 1.0; }
