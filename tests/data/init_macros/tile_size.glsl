// The tile's size for tile_include.comp, as a shader project keeps its constants in a header of their own.
#ifndef TILE_SIZE_GLSL
#define TILE_SIZE_GLSL
#define TILE 16 // one macro sizes the workgroup, the shared tile and the index arithmetic
#endif
