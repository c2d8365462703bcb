/* spirv_shared_bounds.h — internal: a shared-memory array that every workgroup surely indexes past its end
 * (spirv_shared_bounds.c). */
#ifndef VKAT_SPIRV_SHARED_BOUNDS_H
#define VKAT_SPIRV_SHARED_BOUNDS_H

#include "compile.h"

typedef struct vkat_shared_overrun {
    char name[64];     /* the shared variable's name ("" without debug names) */
    uint32_t length;   /* the elements of the array level indexed */
    uint64_t index;    /* the largest index reached */
    uint32_t line;     /* the access's source line (OpLine; 0 when none) */
    char file[256];    /* and its file, as the module names it ("" when none) */
    int store;         /* a store (else a load) */
} vkat_shared_overrun;

/* Finds an access to a Workgroup array, in the entry point's first block (so every invocation runs it), whose
 * index is a sum of non-negative multiples of gl_LocalInvocationID's components and gl_LocalInvocationIndex plus a
 * constant, and whose largest value over the workgroup (local_size, after specialization) is at or past the
 * array's length: a kernel that writes or reads outside its shared memory whatever its data. `spec` overrides
 * specialization constants that size arrays. Returns 1 and fills *out when it finds one, else 0: anything it
 * cannot follow counts as within bounds, so it never refuses a kernel that stays inside its arrays. */
int vkat_spirv_shared_overrun(const vkat_spirv *m, const vkat_spec_value *spec, size_t spec_count,
                              const uint32_t local_size[3], vkat_shared_overrun *out);

#endif
