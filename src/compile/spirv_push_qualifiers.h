/* spirv_push_qualifiers.h — internal: memory qualifiers on a push-constant block dropped from a module
 * (spirv_push_qualifiers.c). */
#ifndef VKAT_SPIRV_PUSH_QUALIFIERS_H
#define VKAT_SPIRV_PUSH_QUALIFIERS_H

#include <stddef.h>
#include <stdint.h>

/* Removes, in place, every OpDecorate of a PushConstant variable with a memory qualifier (NonWritable, NonReadable,
 * Restrict, Aliased, Coherent, Volatile) from the module's words[0..*count), and sets *count to what is left.
 * Returns how many it removed. A module it cannot read is left as it is. */
size_t vkat_spirv_drop_push_qualifiers(uint32_t *words, size_t *count);

#endif
