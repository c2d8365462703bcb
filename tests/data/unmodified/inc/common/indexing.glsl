// Shared by the test shaders in ../shaders/, found through the space's include_dirs (not next to the shader).
#ifndef INDEXING_GLSL
#define INDEXING_GLSL
#include "scalar.glsl"
uint at(uint r, uint c, uint stride) { return r * stride + c; }
#endif
