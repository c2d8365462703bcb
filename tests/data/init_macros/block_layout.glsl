// The block size and the workgroup declaration of stencil_header.comp, both in this header.
#define BLOCK 128
layout(local_size_x = BLOCK) in;
