/* spirv_idle_decorations.h — internal: decorations that mean nothing where glslang leaves them, and that SPIRV-Tools'
 * validator refuses, dropped from a module (spirv_idle_decorations.c). */
#ifndef VKAT_SPIRV_IDLE_DECORATIONS_H
#define VKAT_SPIRV_IDLE_DECORATIONS_H

#include <stddef.h>
#include <stdint.h>

/* Removes, in place, from the module's words[0..*count): every OpDecorate of a PushConstant variable with a memory
 * qualifier (NonWritable, NonReadable, Restrict, Aliased, Coherent, Volatile), and every Location of a resource
 * variable (UniformConstant, Uniform, StorageBuffer: an OpenGL uniform location), and sets *count to what is left.
 * Returns how many it removed. A module it cannot read is left as it is. */
size_t vkat_spirv_drop_idle_decorations(uint32_t *words, size_t *count);

#endif
