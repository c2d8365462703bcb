/* export.h — internal: writes winning variants for runtimes that do not link vkautotune: one .spv per
 * (kernel, device, problem) and one manifest.json describing how to run each (docs/manifest.md). */
#ifndef VKAT_EXPORT_H
#define VKAT_EXPORT_H

#include "compile.h"
#include "space.h"
#include "store.h"

typedef struct vkat_export_item {
    const vkat_space *space;
    const vkat_device_info *device; /* NULL: a device that is not present; its identity is row->device */
    const vkat_row *row;        /* the winning row (status ok) */
    const vkat_spirv *spirv;    /* its SPIR-V */
    const uint32_t *choice;     /* its configuration */
    const vkat_value *env;      /* environment with problem, device and configuration applied */
    const vkat_launch *launch;  /* evaluated launch for that environment */
    uint32_t shared_bytes;      /* workgroup memory the module declares (for the header's limit check) */
    uint64_t compiled_problem;  /* bit i: problem size i is compiled into the SPIR-V (a #define the template reads),
                                   so the module is only for its tuned value of that size */
    int candidate_only;         /* not a winner: a configuration exported for runtime tuning (candidates.h); the
                                   manifest's role "candidate", the header's VKAT_RT_CANDIDATE_ONLY */
    /* A sequence of dispatches ([pass.NAME]); NULL: one dispatch. Then `spirv` is its first module and the
     * manifest entry gets `passes` (manifest version 2), the header a passes table. */
    const struct vkat_sequence *sequence;
} vkat_export_item;

/* Creates `dir` if needed, writes <kernel>-<device-slug>-<problem-slug>.spv for each item and manifest.json
 * listing all of them (an existing manifest.json in dir is replaced). */
vkat_result vkat_export_write(const char *dir, const vkat_export_item *items, size_t count, vkat_error *err);

/* Writes dir/header_name: a C header for the runtime library (runtime/vkautotune_runtime.h, docs/runtime.md)
 * embedding each item's SPIR-V words and a selection table named after the file ("gemm_kernels.h" defines
 * `static const vkat_rt_table gemm_kernels`). Dispatch, buffer-size and push-constant expressions and the
 * constraints that involve problem sizes are lowered to the runtime's formulas; one that cannot be (see
 * vkat_expr_lower) is left out with a warning, and the variant then runs only its tuned problem. Atomic like
 * vkat_export_write; call it after that, so the header never names variants the manifest lacks. */
vkat_result vkat_export_write_header(const char *dir, const char *header_name, const vkat_export_item *items,
                                     size_t count, vkat_error *err);

#endif
