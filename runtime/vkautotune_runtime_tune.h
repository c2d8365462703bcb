/* vkautotune_runtime_tune.h — the optional tuning part of the runtime library: on a device nobody tuned on, time
 * the candidates that `vkautotune export --candidates N --header NAME.h` exported for a kernel, check each one's
 * output against the reference candidate's, pick the fastest correct one and remember the pick in a small cache
 * file, so later launches pay nothing (docs/runtime.md).
 *
 * The selection-only part (vkautotune_runtime.h) is unchanged and needs none of this. Unlike it, this part calls
 * Vulkan (only through the application's vkGetInstanceProcAddr and vkGetDeviceProcAddr), allocates (host memory
 * for inputs and read-back, device memory for the buffers; everything is freed before a call returns) and reads
 * and writes the cache file. It never prints and never exits. C99, the Vulkan headers and libc (and POSIX fsync
 * and getpid where the platform has them).
 *
 * Thread-safety: vkat_rt_tune submits to the application's queue and waits on its own fence; the application must
 * not use that queue from another thread meanwhile (Vulkan's external synchronization). The cache functions are
 * safe against other processes: the file is replaced by an atomic rename. */
#ifndef VKAUTOTUNE_RUNTIME_TUNE_H
#define VKAUTOTUNE_RUNTIME_TUNE_H

#include "vkautotune_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VKAT_RT_MAX_CANDIDATES 32

/* The application's Vulkan objects. The queue must support compute and timestamps (timestampValidBits > 0). */
typedef struct vkat_rt_vulkan {
    VkInstance instance;
    VkPhysicalDevice physical_device;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family_index;
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* required */
    PFN_vkGetDeviceProcAddr get_device_proc_addr;     /* NULL: looked up through get_instance_proc_addr */
} vkat_rt_vulkan;

/* The application's data for one binding: `bytes` bytes at `data` (copied; at least what the candidates' buffer
 * sizes need). data NULL: generated the way vkautotune filled the buffer when it measured (the exported fills). */
typedef struct vkat_rt_input {
    const void *data;
    size_t bytes;
} vkat_rt_input;

/* What to tune. Zero means the default where one is named. */
typedef struct vkat_rt_tune_desc {
    const char *kernel;         /* required */
    const int64_t *problem;     /* the kernel's problem sizes, in its problem-name order; required */
    uint32_t problem_count;
    const char *cache_path;     /* NULL: no cache, every call measures */
    double time_limit_s;        /* for measuring all candidates (pipelines, checks, timing); default 5 s. The
                                   reference candidate is always measured; others that the limit leaves no time
                                   for are skipped (VKAT_RT_ERR_TIME_LIMIT) */
    uint32_t warmup;            /* untimed dispatches per candidate; default 3 */
    uint32_t repetitions;       /* timed samples per candidate, as time allows (at least 1); default 7 */
    const vkat_rt_input *inputs; /* NULL, or input_count entries, one per binding in the variant's order */
    uint32_t input_count;
    const char *const *enabled_extensions; /* NULL-terminated names the device was created with; NULL: none. A
                                              candidate that needs another is skipped (VKAT_RT_ERR_UNSUPPORTED) */
    const char *const *enabled_features;   /* the same for feature member names ("shaderFloat16") */
} vkat_rt_tune_desc;

/* One candidate's outcome. */
typedef struct vkat_rt_candidate_report {
    const vkat_rt_variant *variant;
    vkat_rt_result status; /* VKAT_RT_OK: correct and timed; otherwise why it was skipped */
    VkResult vk_result;    /* the failing call's result when status is a Vulkan error */
    double median_ms, min_ms; /* per dispatch; 0 when not timed */
    uint32_t samples, batch;  /* timed samples, dispatches per sample */
    double rel_l2, max_abs;   /* its outputs against the reference candidate's (0 for the reference itself) */
    char detail[192];
} vkat_rt_candidate_report;

typedef struct vkat_rt_tune_report {
    const vkat_rt_variant *chosen;    /* the pick (NULL on failure) */
    const vkat_rt_variant *fallback;  /* vkat_rt_select's pick for this device and problem (the tier fallback) */
    const vkat_rt_variant *reference; /* the candidate whose outputs were taken as correct: the fallback, unless
                                         it failed to run or was outvoted */
    int from_cache;                   /* 1: the pick came from the cache file, nothing was measured */
    double seconds;                   /* wall time of the call */
    vkat_rt_result cache_result;      /* VKAT_RT_OK, or VKAT_RT_ERR_CACHE: the file could not be written */
    uint32_t count;                   /* candidates[0..count) */
    vkat_rt_candidate_report candidates[VKAT_RT_MAX_CANDIDATES];
    VkResult vk_result;               /* when the call fails with a Vulkan error */
    char detail[256];                 /* what failed (the call or the cache write), "" when nothing did */
} vkat_rt_tune_report;

/* Picks the fastest correct candidate of desc->kernel for desc->problem on the application's device: from the
 * cache file when it holds a pick for this device identity, table and problem; else by measuring, then storing
 * the pick in the cache. Candidates are the kernel's variants (winners and VKAT_RT_CANDIDATE_ONLY ones) that fit
 * the device's limits and run the problem, one per configuration, the fallback (vkat_rt_select) first: it is the
 * reference the others' outputs are checked against, within twice the kernel's tolerance (each may differ from
 * the exact result by the tolerance). The first candidate that disagrees with the reference is the challenger, and
 * later ones are compared with it too; when more candidates agree with the challenger than with the reference, the
 * challenger's group is taken as correct (a wrong fallback is outvoted; a tie trusts the reference). A candidate
 * whose outputs are not the correct group's is never chosen (VKAT_RT_ERR_CHECK).
 * *out points into the table. `report` may be NULL. Errors: VKAT_RT_ERR_ARGUMENT, _NOT_FOUND (no candidate
 * fits), _NO_TUNE_DATA (a table exported before candidates), _DEVICE_LOST, _NO_MEMORY, _VULKAN (a call the tuning
 * needs as a whole failed), _NO_CANDIDATE (none ran correctly). A cache that cannot be written is not an error:
 * report->cache_result says so. A cache file that is corrupted or of another device, driver or table is ignored
 * and rewritten. */
vkat_rt_result vkat_rt_tune(const vkat_rt_table *table, const vkat_rt_vulkan *vk, const vkat_rt_tune_desc *desc,
                            const vkat_rt_variant **out, vkat_rt_tune_report *report);

/* ---- The cache's key ---------------------------------------------------------------------------------------- */

typedef struct vkat_rt_device_identity {
    uint32_t vendor_id, device_id, driver_version;
    uint8_t device_uuid[VK_UUID_SIZE]; /* VkPhysicalDeviceIDProperties::deviceUUID; zeros without Vulkan 1.1 */
} vkat_rt_device_identity;

/* Reads the identity of vk->physical_device (vk->instance and get_instance_proc_addr are used). */
vkat_rt_result vkat_rt_device_identity_get(const vkat_rt_vulkan *vk, vkat_rt_device_identity *id);

/* A 64-bit hash of what the table holds (each variant's kernel, configuration, SPIR-V hash, flags, device and
 * tuned problem): a new export gives another hash and so invalidates cached picks. */
uint64_t vkat_rt_table_hash(const vkat_rt_table *table);

/* ---- The cache file ------------------------------------------------------------------------------------------
 * A small text file: a header line, the device identity, the table hash, one line per (kernel, problem) pick and a
 * checksum line. The functions are what vkat_rt_tune uses; an application may call them to pre-seed or inspect. */

/* *out: the cached pick for this identity, table, kernel and problem. VKAT_RT_ERR_NOT_FOUND when the file is
 * missing, corrupted, of another identity or table, or has no such pick. */
vkat_rt_result vkat_rt_cache_lookup(const char *path, const vkat_rt_device_identity *id, const vkat_rt_table *table,
                                    const char *kernel, const int64_t *problem, uint32_t problem_count,
                                    const vkat_rt_variant **out);

/* Records `chosen` (a variant of `table`), keeping the file's other picks when it is valid for this identity and
 * table and starting afresh otherwise. Written to a temporary file in the same directory whose name is this
 * writer's own (process, call, clock; created exclusively), synced and renamed over `path`: writers racing leave
 * one of their files whole, never a mixture (a pick stored at the same moment by another may be lost).
 * VKAT_RT_ERR_CACHE with `detail` (may be NULL) saying why when it cannot be written. */
vkat_rt_result vkat_rt_cache_store(const char *path, const vkat_rt_device_identity *id, const vkat_rt_table *table,
                                   const char *kernel, const int64_t *problem, uint32_t problem_count,
                                   const vkat_rt_variant *chosen, char *detail, size_t detail_size);

#ifdef __cplusplus
}
#endif
#endif
