/* tune.h — internal: a tuning run on one device, from a loaded space to stored, checked measurements.
 *
 * Order of work for each proposal: constraints -> resume lookup -> instantiate -> compile -> validate ->
 * device limits (from the SPIR-V) -> pipeline -> one checked run against the reference -> timing -> store.
 * A variant that fails any step is stored with its status and reason and never ranked. Timing races (race.h): a
 * correct variant whose first samples put it clearly behind the best is stored as "raced-out" and never ranked. */
#ifndef VKAT_TUNE_H
#define VKAT_TUNE_H

#include "bench.h"
#include "race.h"
#include "space.h"
#include "store.h"

/* vkat_tune_progress and vkat_tune_times are public: include/vkautotune.h. */

/* vkat_check_on is public: include/vkautotune.h. */

/* Below this many elements a read-back takes well under a millisecond, so auto keeps such outputs on the host. */
#define VKAT_GPU_CHECK_AUTO_MIN (1u << 20)

typedef void (*vkat_tune_progress_fn)(void *user, const vkat_tune_progress *p);

typedef struct vkat_tune_opts {
    const char *strategy;   /* NULL: exhaustive when the raw space fits the budget, else auto */
    uint64_t budget;        /* evaluations (resumed ones count); 0: 100 */
    double budget_s;        /* wall-clock limit for the search; 0: none */
    uint64_t seed;          /* search seed */
    /* Sharding: this run covers only shard shard_index of shard_count (0 or 1: the whole space), a configuration's
     * shard being vkat_search_shard_of(its index). The strategy runs over that subset with seed + shard_index; the
     * budget is this shard's. Exhaustive and random shards together cover every configuration exactly once. */
    uint32_t shard_index, shard_count;
    uint64_t data_seed;     /* seed of the buffers' initial contents; 0: 1 */
    vkat_timing_opts timing;
    /* Racing (race.h): on unless race.disabled. A raced-out variant is stored as "raced-out" with its partial
     * timings and the bound it was cut at; resumed with racing off, it is measured again in full. */
    vkat_race_opts race;
    uint64_t run_timeout_ns; /* the checked run; 0: 10 s */
    /* Where outputs are checked. The device (float sums in float64: it needs shaderFloat64; integer outputs
     * compared exactly, on any device) only passes a variant; one it does not clearly pass is read back and
     * judged by the host, so statuses and reasons are the same either way. Float outputs on a device without
     * shaderFloat64, and compared slices, are always checked on the host. */
    vkat_check_on check_on;
    /* Configurations measured first ("TM=4,TN=4,..." naming every parameter): the user's --start. */
    const char *const *starts;
    size_t start_count;
    /* Also start from the winners this database holds for the same kernel, template and space at other problem
     * sizes (this device's first, then other devices'): a search of 8192^3 begins where 4096^3 ended. */
    int warm_start;
    unsigned jobs;           /* threads preparing variants ahead of the GPU; 0: the machine's cores; 1: serial */
    const char *pipeline_cache_path; /* file of the device's VkPipelineCache, loaded and saved; NULL: none */
    /* When not NULL and set non-zero (e.g. by a SIGINT handler), the run stops after the variant being measured;
     * what is still in flight is dropped unmeasured and report->interrupted is set. */
    const volatile int *stop;
    /* A tag written into the reason of the "aborted" row each variant gets before it runs, so that a watchdog can
     * blame exactly the variants its measuring process left (vkat_store_resolve_aborted). NULL: none. */
    const char *claim;
    vkat_tune_progress_fn progress;
    void *progress_user;
    void (*stage)(void *user, const char *what); /* vkat_tune_desc.stage, with progress_user */
} vkat_tune_opts;

/* vkat_tune_report is public: include/vkautotune.h. */

/* Tunes `space` (its problem already set) on device `device_index`, storing every result in `store`.
 * A device lacking a required extension/feature is not an error: report->skipped is set with the reason. */
vkat_result vkat_tune_device(const vkat_space *space, const vkat_instance *inst, uint32_t device_index,
                             vkat_store *store, const vkat_tune_opts *opts, vkat_tune_report *report,
                             vkat_error *err);

/* One search shared by several identical GPUs of one host (same name, driver and driver version: VKAT_ERR_USAGE
 * otherwise): each gets its own measuring thread and takes the next proposal when it is free; the results form the
 * one series of that device identity. vkat_tune_device is this with one device. The store must be a file (each
 * measuring thread opens its own connection to it). */
vkat_result vkat_tune_devices(const vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                              size_t device_count, vkat_store *store, const vkat_tune_opts *opts,
                              vkat_tune_report *report, vkat_error *err);

/* The database key (device, kernel, template hash, space hash, problem) for a space on a device. The template
 * hash covers the template, the reference and the passes' templates, each with every file it includes. */
vkat_result vkat_tune_key(const vkat_space *space, const vkat_device_info *device, vkat_row *key, vkat_error *err);

/* Compiles one configuration for a device through the one build path (build.h): instantiate, compile, validate.
 * Used by `vkautotune compile`, and by export for a row measured before SPIR-V was stored. */
vkat_result vkat_tune_build(const vkat_space *space, const vkat_device_info *device, const uint32_t *choice,
                            vkat_value *env, vkat_launch *launch, vkat_spirv *spirv, vkat_error *err);

/* Writes the best stored variant of `space` for each device into `dir` (SPIR-V + one manifest; with the default
 * candidates for runtime tuning, as vkat_tune_export_db), each device at its own problem: problems[d] as the results database writes it ("M=256,N=256,K=256"), or NULL for the space's
 * current problem throughout (the space's problem is changed). Writes the SPIR-V each row was measured with, as
 * vkat_tune_export_db does for rows chosen from the database. VKAT_ERR_DB when no device has an ok row.
 * Both are defined in export/export_db.c. */
vkat_result vkat_tune_export(vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                             const char *const *problems, size_t device_count, vkat_store *store, const char *dir,
                             vkat_error *err);

/* What `vkautotune export` exports: the database's winners of one or more spaces, for devices that may or may
 * not be present on this machine. */
typedef struct vkat_export_request {
    vkat_space *const *spaces; /* their problem sizes are changed while exporting */
    size_t space_count;
    const vkat_instance *inst; /* may be NULL: no Vulkan here (then only database devices can be exported) */
    const char *device;        /* NULL: this machine's default device; "all": every device present; else an index
                                  or name of a present device, or a case-insensitive substring of database device
                                  names */
    int all_in_db;             /* every device in the database (device is then ignored) */
    const char *problem;       /* NULL: every tuned problem; "M=64,N=64": only problems with these sizes */
    const char *dir;           /* SPIR-V files and manifest.json go here */
    const char *header;        /* NULL: no C header; else its file name in dir */
    const vkat_device_info *profile; /* NULL, or a device described by a file: an absent device of the same name,
                                        vendor and device id is exported with its limits */
    int candidates;            /* distinct configurations per kernel, the winners included: the winners plus those
                                  best on average across the exported series (candidates.h), for runtime tuning;
                                  0: VKAT_EXPORT_DEFAULT_CANDIDATES; negative: the winners only */
} vkat_export_request;

/* Exports the best stored variant of each (space, device, problem) selected by `req`: the SPIR-V its row was
 * measured with, from the store (measured_spirv.h), so nothing is compiled. A row measured before the store kept
 * modules (schema 4 and older) is compiled again (for a present device with its Vulkan version, for an absent one
 * for Vulkan 1.3) and refused with VKAT_ERR_DB unless that gives the row's spirv_hash. A variant of an absent
 * device whose dispatch reads device limits cannot be exported (a warning says so). *exported (may be NULL) gets the count. VKAT_ERR_DB when nothing matches. */
vkat_result vkat_tune_export_db(const vkat_export_request *req, vkat_store *store, size_t *exported, vkat_error *err);

#endif
