// Included by indexing.glsl, relative to the including file. A_TYPE comes from the space's [defines].
#ifndef A_TYPE
#error A_TYPE must be defined
#endif
