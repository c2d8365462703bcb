/* sequence.h — internal: a space's sequence of dispatches ([pass.NAME] sections) compiled for one configuration,
 * and made into one kernel that vkat_kernel_run/measure dispatch and time as a whole.
 *
 * Compiling is separate from creating pipelines so that export (which has no device) gets the modules and steps
 * it writes into the manifest from the same code that the tuner measured. */
#ifndef VKAT_SEQUENCE_H
#define VKAT_SEQUENCE_H

#include "bench.h"
#include "compile.h"
#include "space.h"

typedef struct vkat_sequence {
    vkat_step *steps; /* evaluated (vkat_space_steps) */
    size_t step_count;
    uint32_t *module_of;           /* [step_count]: index into modules */
    uint32_t (*workgroup_size)[3]; /* [step_count]: the module's local size after specialization */
    vkat_spirv *modules;           /* distinct SPIR-V modules, in order of first use */
    char **module_paths; /* [module_count]: the template each was instantiated from (borrowed from the space) */
    size_t module_count;
    uint64_t hash;                /* of the modules in step order: the sequence's "SPIR-V hash" */
    double compile_s, validate_s; /* spent compiling now (0 for cache hits) */
    int all_cached;               /* every module came from the cache */
} vkat_sequence;

/* Expands and compiles the variant's (reference == 0) or the reference's sequence for `env` (problem, device and
 * configuration applied): each step's template instantiated with its own local size, compiled (through `cache`,
 * which may be NULL) and validated for `device`. Every module's descriptors must be buffers of the space (set 0,
 * binding < buffer count): VKAT_ERR_TEMPLATE otherwise. Errors carry the template's path. *out is zeroed first;
 * free with vkat_sequence_free, also after a failure. */
vkat_result vkat_sequence_compile(const vkat_space *s, const vkat_device_info *device, vkat_compile_cache *cache,
                                  const vkat_value *env, int reference, vkat_sequence *out, vkat_error *err);
void vkat_sequence_free(vkat_sequence *q);

/* Do two sequences compile to the same distinct modules, in the same order? (Their step counts may differ.) */
int vkat_sequence_same_modules(const vkat_sequence *a, const vkat_sequence *b);

/* Folds the content of every [pass.*] template other than the [kernel] one into *hash (file order, each once), so
 * that a stored result no longer holds once any of them changes. Unchanged for a space without passes.
 * VKAT_ERR_IO when one cannot be read. */
vkat_result vkat_sequence_templates_hash(const vkat_space *s, uint64_t *hash, vkat_error *err);

/* The specialization constants of step i, as vkat_kernel_create takes them. Returns the count (<= 64). */
size_t vkat_sequence_spec(const vkat_sequence *q, size_t i, vkat_spec_value *out);

/* Creates one pipeline per distinct (module, specialization) pair and the sequence kernel over them (see
 * vkat_kernel_create_sequence). `entry` is the entry point of every module. Limits as vkat_kernel_create. */
vkat_result vkat_sequence_kernel(const vkat_sequence *q, vkat_workspace *ws, const char *entry, vkat_kernel **out,
                                 vkat_error *err);

#endif
