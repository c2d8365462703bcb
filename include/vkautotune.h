/* vkautotune.h — the public interface of libvkautotune, the one header it installs (docs/library.md).
 *
 * The library tunes Vulkan compute shaders: it reads a search space, instantiates a GLSL template per
 * configuration, compiles it with glslang, validates it with SPIRV-Tools, measures it with timestamp queries,
 * checks it against a reference and stores every result. The vkautotune program (src/cli/) is built on this header
 * alone: the build compiles it with nothing else of the library on its include path.
 *
 * Contract for every function here unless its comment says otherwise:
 * - Fallible functions return a vkat_result (VKAT_OK == 0) and, when `err` is not NULL, fill it.
 * - The library never prints to stdout or stderr and never exits; diagnostics go to the log callback.
 * - Handles (vkat_space, vkat_instance, vkat_store, vkat_tune_run, ...) are opaque. Objects returned through `**out`
 *   are owned by the caller and released with their destroy function; destroy functions accept NULL.
 * - Strings returned as `const char *` live as long as the object they came from; `char **` outputs are malloc'ed
 *   for the caller, who free()s them.
 * - Not thread-safe unless stated: one object, one thread at a time. Distinct objects may be used on distinct
 *   threads.
 */
#ifndef VKAUTOTUNE_H
#define VKAUTOTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version ------------------------------------------------------------------------------------------------
 * The header's version; vkat_version() is the linked library's (they differ when a program is built against one
 * release and linked with another). CMake checks these against project(VERSION) at configure time. */
#define VKAT_VERSION_MAJOR 0
#define VKAT_VERSION_MINOR 1
#define VKAT_VERSION_PATCH 0
#define VKAT_VERSION_STRING "0.1.0"
#define VKAT_VERSION (VKAT_VERSION_MAJOR * 10000 + VKAT_VERSION_MINOR * 100 + VKAT_VERSION_PATCH)

/* VKAT_VERSION and VKAT_VERSION_STRING of the library as built. Thread-safe. */
int vkat_version(void);
const char *vkat_version_string(void);

/* ---- Result codes -----------------------------------------------------------------------------------------
 * One list generates the enum and its message table (X-macro). The CLI maps results to exit codes
 * (docs/exit-codes.md): usage 2, user input 3, compile/validate 4, no Vulkan 5, device/run 6, database 7. */
#define VKAT_RESULT_LIST(X)                                                                                      \
    X(VKAT_OK, "ok")                                                                                             \
    X(VKAT_ERR_NOMEM, "out of memory")                                                                           \
    X(VKAT_ERR_USAGE, "bad command-line usage")                                                                  \
    X(VKAT_ERR_IO, "cannot read or write a file")                                                                \
    X(VKAT_ERR_SYNTAX, "syntax error")                                                                           \
    X(VKAT_ERR_SPACE, "invalid search space")                                                                    \
    X(VKAT_ERR_EXPR, "expression cannot be evaluated")                                                           \
    X(VKAT_ERR_EMPTY_SPACE, "no configuration satisfies the constraints")                                        \
    X(VKAT_ERR_TEMPLATE, "invalid shader template")                                                              \
    X(VKAT_ERR_COMPILE, "GLSL compilation failed")                                                               \
    X(VKAT_ERR_VALIDATE, "SPIR-V validation failed")                                                             \
    X(VKAT_ERR_NO_LOADER, "no Vulkan loader (libvulkan.so.1) found")                                             \
    X(VKAT_ERR_NO_DEVICE, "no Vulkan device found")                                                              \
    X(VKAT_ERR_UNSUPPORTED, "the device lacks a required extension or feature")                                  \
    X(VKAT_ERR_LIMITS, "the variant exceeds the device's limits")                                                \
    X(VKAT_ERR_VULKAN, "a Vulkan call failed")                                                                   \
    X(VKAT_ERR_DEVICE_LOST, "the Vulkan device was lost")                                                        \
    X(VKAT_ERR_TIMEOUT, "the GPU did not finish in time")                                                        \
    X(VKAT_ERR_CHECK, "the variant's output is wrong")                                                           \
    X(VKAT_ERR_DB, "results database error")                                                                     \
    X(VKAT_ERR_INTERNAL, "internal error")

typedef enum vkat_result {
#define VKAT_X_ENUM(name, msg) name,
    VKAT_RESULT_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_RESULT_COUNT
} vkat_result;

/* Static message for a result code; never NULL. */
const char *vkat_result_string(vkat_result r);

/* Error details. `file`/`line` name the user's file (space, template) when the error is about it, else file[0]
 * is 0 and line is 0. `vk_result` is the VkResult when a Vulkan call failed, else 0. `message` is one line
 * without the file:line prefix; vkat_error_format() writes "file:line: message". */
typedef struct vkat_error {
    vkat_result code;
    int vk_result;
    int line;
    char file[512];
    char message[1024];
} vkat_error;

/* Writes "file:line: message" (or "file: message", or "message") into buf; returns buf. */
const char *vkat_error_format(const vkat_error *err, char *buf, size_t size);

/* ---- Logging ------------------------------------------------------------------------------------------------ */
typedef enum vkat_log_level { VKAT_LOG_DEBUG, VKAT_LOG_INFO, VKAT_LOG_WARN, VKAT_LOG_ERROR } vkat_log_level;
typedef void (*vkat_log_fn)(void *user, vkat_log_level level, const char *message);

/* A log callback and its user pointer, as a description struct carries it (vkat_tune_desc.logger). The library may
 * call it from any of its threads, so it must be thread-safe; `message` is one line without a newline, valid for
 * the call only. */
typedef struct vkat_logger {
    vkat_log_fn func; /* NULL: discard */
    void *user_data;
} vkat_logger;

/* Sets the process-wide log callback (NULL: discard). Call before other threads use the library. */
void vkat_set_log(vkat_log_fn fn, void *user);

/* ---- Element types (buffers, push constants) ---------------------------------------------------------------- */
/* unorm8 is a byte read as byte / 255 (the components of 8-bit UNORM images such as rgba8), unorm16 two bytes read
 * as value / 65535 (16-bit UNORM images such as r16): initialised from and compared as floats in [0, 1]. */
#define VKAT_ELEM_TYPE_LIST(X)                                                                                   \
    X(VKAT_FLOAT32, "float32", 4)                                                                                \
    X(VKAT_FLOAT16, "float16", 2)                                                                                \
    X(VKAT_BFLOAT16, "bfloat16", 2)                                                                              \
    X(VKAT_INT32, "int32", 4)                                                                                    \
    X(VKAT_UINT32, "uint32", 4)                                                                                  \
    X(VKAT_INT8, "int8", 1)                                                                                      \
    X(VKAT_UINT8, "uint8", 1)                                                                                    \
    X(VKAT_UNORM8, "unorm8", 1)                                                                                  \
    X(VKAT_UNORM16, "unorm16", 2)

typedef enum vkat_elem_type {
#define VKAT_X_ENUM(name, str, size) name,
    VKAT_ELEM_TYPE_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_ELEM_TYPE_COUNT
} vkat_elem_type;

/* Name as written in space files ("float32"), size in bytes; lookup returns -1 for an unknown name. */
const char *vkat_elem_type_name(vkat_elem_type t);
size_t vkat_elem_type_size(vkat_elem_type t);
int vkat_elem_type_from_name(const char *name);

/* ---- Devices ------------------------------------------------------------------------------------------------- */
typedef struct vkat_coopmat_shape {
    uint32_t m, n, k;
    vkat_elem_type a_type, b_type, c_type, result_type; /* VKAT_ELEM_TYPE_COUNT: a type this enum lacks */
    const char *a_name, *b_name, *c_name, *result_name; /* Vulkan component type names, e.g. "float16" */
    int saturating;
    const char *scope; /* "subgroup", "workgroup", ... */
} vkat_coopmat_shape;

typedef struct vkat_memory_heap {
    uint64_t size;
    int device_local;
    uint64_t budget; /* VK_EXT_memory_budget, 0 when unknown */
} vkat_memory_heap;

#define VKAT_MAX_HEAPS 16
#define VKAT_MAX_COOPMAT_SHAPES 64

/* The Vulkan features a space may require ("features =" in a space file, by structure member name): an index into
 * vkat_device_info.feature and vkat_feature_names. */
enum {
    VKAT_FEATURE_SHADER_FLOAT16, VKAT_FEATURE_SHADER_INT8, VKAT_FEATURE_SHADER_INT16, VKAT_FEATURE_SHADER_INT64,
    VKAT_FEATURE_SHADER_FLOAT64, VKAT_FEATURE_STORAGE_BUFFER_16BIT, VKAT_FEATURE_STORAGE_BUFFER_8BIT,
    VKAT_FEATURE_SUBGROUP_SIZE_CONTROL, VKAT_FEATURE_BFLOAT16, VKAT_FEATURE_BFLOAT16_COOPMAT, VKAT_FEATURE_COOPMAT,
    /* VK_NV_cooperative_matrix2 */
    VKAT_FEATURE_COOPMAT2_WORKGROUP_SCOPE, VKAT_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS, VKAT_FEATURE_COOPMAT2_REDUCTIONS,
    VKAT_FEATURE_COOPMAT2_CONVERSIONS, VKAT_FEATURE_COOPMAT2_PER_ELEMENT, VKAT_FEATURE_COOPMAT2_TENSOR_ADDRESSING,
    VKAT_FEATURE_COOPMAT2_BLOCK_LOADS,
    /* the workgroup size given by id (SPIR-V's LocalSizeId, which glslang writes for local_size_x_id at Vulkan 1.3) */
    VKAT_FEATURE_MAINTENANCE4,
    VKAT_FEATURE_BUFFER_FLOAT32_ATOMIC_ADD, /* VK_EXT_shader_atomic_float: atomicAdd on a float in a buffer */
    VKAT_FEATURE_SHARED_FLOAT32_ATOMIC_ADD, /* ... and in shared memory */
    VKAT_FEATURE_BUFFER_INT64_ATOMICS,      /* Vulkan 1.2: 64-bit integer atomics in a buffer */
    VKAT_FEATURE_SHARED_INT64_ATOMICS,      /* ... and in shared memory */
    VKAT_FEATURE_STORAGE_IMAGE_EXTENDED_FORMATS, /* storage images of formats such as r16, rg16f, r8 */
    VKAT_FEATURE_SCALAR_BLOCK_LAYOUT,            /* Vulkan 1.2: blocks laid out by GL_EXT_scalar_block_layout */
    VKAT_FEATURE_COUNT
};
/* Their names, indexed by VKAT_FEATURE_* and NULL-terminated. */
extern const char *const vkat_feature_names[VKAT_FEATURE_COUNT + 1];

/* Everything the tuner and `vkautotune devices` report about one physical device. Plain data. */
typedef struct vkat_device_info {
    uint32_t index; /* position in the loader's enumeration */
    char name[256];
    uint32_t vendor_id, device_id;
    const char *vendor;      /* "NVIDIA", "AMD", "Intel", "Mesa", ... or "unknown" */
    const char *device_type; /* "discrete", "integrated", "virtual", "cpu", "other" */
    char driver_name[256], driver_info[256];
    uint32_t driver_version;  /* raw */
    char driver_version_string[64]; /* decoded the vendor's way */
    uint32_t api_version;
    char api_version_string[32];
    uint8_t device_uuid[16], driver_uuid[16], pipeline_cache_uuid[16];
    int has_pci;
    uint32_t pci_domain, pci_bus, pci_device, pci_function;

    uint32_t subgroup_size, min_subgroup_size, max_subgroup_size;
    /* VkPhysicalDeviceVulkan11Properties' subgroupSupportedOperations (VK_SUBGROUP_FEATURE_*_BIT: bit b named by
     * vkat_subgroup_operation_name(b)), 0 when unknown (a Vulkan 1.1 device, an older device profile); whether its
     * subgroupSupportedStages include compute */
    uint32_t subgroup_operations;
    int subgroup_in_compute;
    uint32_t max_workgroup_size[3], max_workgroup_invocations, max_workgroup_count[3];
    uint32_t max_shared_memory;          /* maxComputeSharedMemorySize, bytes */
    uint32_t max_storage_buffer_range;   /* bytes */
    uint32_t max_uniform_buffer_range;   /* bytes; 0 when unknown (a device profile): Vulkan guarantees 16384 */
    uint32_t max_push_constants_size;    /* bytes */
    uint32_t max_bound_descriptor_sets;
    uint64_t max_buffer_size;            /* maxBufferSize (Vulkan 1.3), 0 when unknown */
    uint32_t compute_units;              /* SMs (VK_NV_shader_sm_builtins) or CUs (VK_AMD_shader_core_properties); 0 when
                                            the device does not say */
    float timestamp_period;              /* nanoseconds per tick */
    uint32_t timestamp_valid_bits;       /* of the compute queue family; 0: no timestamps */
    uint32_t compute_queue_family;

    uint32_t heap_count;
    vkat_memory_heap heaps[VKAT_MAX_HEAPS];

    /* Features a space may require: feature[VKAT_FEATURE_*] is 1 where supported (names: vkat_feature_names). */
    unsigned char feature[VKAT_FEATURE_COUNT];

    uint32_t coopmat_count;
    vkat_coopmat_shape coopmat[VKAT_MAX_COOPMAT_SHAPES];

    /* Extensions a tuner cares about that this device offers, as a NUL-separated list ending with an empty name. */
    char extensions[4096];
} vkat_device_info;

typedef struct vkat_instance vkat_instance;

/* Loads libvulkan at run time, creates an instance and reads every physical device's info.
 * VKAT_ERR_NO_LOADER when libvulkan cannot be loaded, VKAT_ERR_NO_DEVICE when no device is enumerated. */
vkat_result vkat_instance_create(vkat_instance **out, vkat_error *err);
void vkat_instance_destroy(vkat_instance *inst);
uint32_t vkat_instance_device_count(const vkat_instance *inst);
/* NULL when index is out of range; the pointer lives as long as the instance. */
const vkat_device_info *vkat_instance_device(const vkat_instance *inst, uint32_t index);

/* The name of subgroup operation class `bit` (its bit's position in VkSubgroupFeatureFlagBits: 0 "basic", 1 "vote",
 * 2 "arithmetic", 3 "ballot", 4 "shuffle", 5 "shuffle_relative", 6 "clustered", 7 "quad"); NULL past the last. */
const char *vkat_subgroup_operation_name(unsigned bit);

/* Does the device offer this extension (by name)? */
int vkat_device_has_extension(const vkat_device_info *info, const char *extension);

/* Picks devices for a --device argument: NULL or "" = default (first discrete GPU, else integrated, else any
 * other, else CPU), a decimal index, "all", a case-insensitive name substring, or a comma list of those. Writes up to `cap` indices into
 * `out`, sets *count. VKAT_ERR_USAGE with a message when nothing matches. */
vkat_result vkat_select_devices(const vkat_instance *inst, const char *spec, uint32_t *out, uint32_t cap,
                                uint32_t *count, vkat_error *err);

/* Reads device `select` of a file written by `vkautotune devices --json` (NULL or "": the first; a decimal index
 * into the file's list; else a case-insensitive substring of a device name) into *out: everything a space's
 * constraints and requirements read, for counting or compiling for a GPU that is not here. Errors name the file. */
vkat_result vkat_device_profile_load(const char *path, const char *select, vkat_device_info *out, vkat_error *err);

/* ---- Device identity ----------------------------------------------------------------------------------------
 * Who measured: enough to tell devices and driver versions apart across machines. Results, peaks and the grouping
 * of identical GPUs (they share one search) all name a device by this key; plain data. */
/* Who measured: enough to tell devices and driver versions apart across machines. */
typedef struct vkat_device_key {
    char name[256];
    char vendor[32];
    uint32_t vendor_id, device_id, driver_version;
    char driver_version_string[64];
    char driver_uuid[40];         /* hex with dashes */
    char pipeline_cache_uuid[40];
} vkat_device_key;

/* ---- Measured rows -----------------------------------------------------------------------------------------
 * One row per evaluated variant, a plain value (fixed-size strings), copied, never shared. */
/* Status of one variant. Only "ok" rows (checked, fully measured) are ranked. New statuses go at the end: the
 * enum's order is not stored (names are), but tests and tables list them in this order. */
#define VKAT_STATUS_LIST(X)                                                                                      \
    X(VKAT_STATUS_OK, "ok")                                                                                      \
    X(VKAT_STATUS_INVALID, "invalid")             /* failed a constraint (normally not stored) */              \
    X(VKAT_STATUS_COMPILE_ERROR, "compile-error")                                                                \
    X(VKAT_STATUS_VALIDATE_ERROR, "validate-error")                                                              \
    X(VKAT_STATUS_LIMITS, "limits")               /* exceeds shared memory / workgroup limits */              \
    X(VKAT_STATUS_PIPELINE_ERROR, "pipeline-error")                                                              \
    X(VKAT_STATUS_WRONG, "wrong")                 /* output differs from the reference */                     \
    X(VKAT_STATUS_CANARY, "canary")               /* wrote out of bounds */                                   \
    X(VKAT_STATUS_TIMEOUT, "timeout")                                                                            \
    X(VKAT_STATUS_DEVICE_LOST, "device-lost")                                                                    \
    X(VKAT_STATUS_ABORTED, "aborted") /* written before a variant runs; replaced by its result; left only when the \
                                         process ended mid-run, and then evaluated again on resume */             \
    X(VKAT_STATUS_ERROR, "error")                                                                              \
    X(VKAT_STATUS_RACED, "raced-out") /* checked and correct, but its first timed samples put it clearly behind   \
                                         the best (race.c): a partial measurement, never ranked or exported */

typedef enum vkat_status {
#define VKAT_X_ENUM(name, str) name,
    VKAT_STATUS_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_STATUS_COUNT
} vkat_status;

const char *vkat_status_name(vkat_status s);
int vkat_status_from_name(const char *name); /* -1 when unknown */

typedef struct vkat_row {
    int64_t id;         /* set by the store */
    vkat_device_key device;
    char kernel[128];
    char template_hash[17]; /* 16 hex digits */
    char space_hash[17];
    char problem[256];  /* "M=256,N=256,K=256" */
    char config[512];   /* "TM=4,TN=4,..." */
    vkat_status status;
    char reason[512];
    double median_s, min_s, max_s, mad_s;
    uint32_t samples, batch;
    double flops, bytes;       /* from [metrics] for this problem, 0 when absent */
    double tflops, gbps;       /* derived from median_s */
    double rel_l2, max_abs;    /* from the check, when it ran */
    char spirv_hash[17];
    char created[32];          /* ISO 8601 UTC, set by the store when empty */
    char pipeline_stats[512];  /* driver statistics ("Register Count=40; ..."), "" when the driver has none */
    /* Which peak bounds the flops (schema 3): "" the scalar fp32 rate; "A,C" (e.g. "float16,float32") the
     * measured cooperative-matrix peak with A/B of type A and accumulators of type C; "*" the fastest one. */
    char tensor[48];
    /* A "raced-out" row's timings are its few samples, and this is the bound its lower bound passed (the best's
     * upper bound then, seconds); 0 for a full measurement. Schema version 4. */
    double race_bound_s;
} vkat_row;

/* Whether a row's pipeline keeps values in memory instead of registers (register spills, or an array the compiler
 * could not index by constants), from its pipeline_stats. Such a variant is usually many times slower than it needs
 * to be: on the H200, sgemm_wt's sliced-K variants ran 20x slower and took 3-9 s to create
 * (records/session22-sliced-k.md). Returns VKAT_SPILLS_UNKNOWN (nothing in the statistics says: none, as on
 * lavapipe, or other names), 0 or 1, and with 1 the first statistic that says so in `what` (e.g. "Local Memory Size
 * 512 bytes"; may be NULL). Recognised: NVIDIA's "Local Memory Size" (bytes per invocation; its driver adds 2^36 to
 * every pipeline's, measured on 580.159.04, so the bytes are what lies above), and any statistic whose name holds
 * "spill" or "scratch" (as Mesa's RADV, ANV and NVK name theirs), when not zero. */
#define VKAT_SPILLS_UNKNOWN (-1)
int vkat_stats_spills(const char *pipeline_stats, char *what, size_t what_size);

/* ---- The results database (SQLite) ----------------------------------------------------------------------------
 * Every result is committed as soon as it is measured (WAL journal, synchronous=FULL), so a crash loses nothing
 * that was finished; a rerun with the same key finds it and measures nothing twice. One connection, one thread:
 * a program tuning on several threads opens a store per thread (the tuner opens its own). */
typedef struct vkat_store vkat_store;

/* Opens (creating when missing) for reading and writing: switches the file to WAL and migrates an older schema.
 * A SQLite file with other tables is refused (VKAT_ERR_DB) before anything in it is changed. */
vkat_result vkat_store_open(const char *path, vkat_store **out, vkat_error *err);
/* Opens an existing database for reading only (compare, report, export, merge's inputs): SQLITE_OPEN_READONLY,
 * nothing in the file changes (no WAL switch; an older schema is migrated in a copy in memory), and a read-only
 * file or directory is fine. A missing file is VKAT_ERR_IO; a file that is not a vkautotune database VKAT_ERR_DB.
 * Nothing may be written through it: a write fails on the file (or changes only the copy in memory). */
vkat_result vkat_store_open_readonly(const char *path, vkat_store **out, vkat_error *err);
void vkat_store_close(vkat_store *st);
/* The path the store was opened with. */
const char *vkat_store_path(const vkat_store *st);

/* The `cap` best "ok" rows by median for (device, kernel, template_hash, space_hash, problem) taken from `key`
 * (its config ignored); fills rows, sets *count. */
vkat_result vkat_store_best(vkat_store *st, const vkat_row *key, vkat_row *rows, size_t cap, size_t *count,
                            vkat_error *err);

/* Every row of that same (device, kernel, hashes, problem) key (its config ignored): "ok" rows first by median,
 * then, with include_failed, the other rows (by median, unmeasured first). *rows is malloc'ed (NULL when none);
 * the caller frees it. For listings (--json, --csv) and comparisons. */
vkat_result vkat_store_rows(vkat_store *st, const vkat_row *key, int include_failed, vkat_row **rows, size_t *count,
                            vkat_error *err);

/* Every row of `kernel` (NULL: every kernel), ordered by kernel, device, problem, then ok rows by median; with
 * include_failed the other rows follow each series. *rows is malloc'ed (NULL when none); the caller frees it. */
vkat_result vkat_store_list(vkat_store *st, const char *kernel, int include_failed, vkat_row **rows, size_t *count,
                            vkat_error *err);

/* What a merge did, per table. */
typedef struct vkat_merge_stats {
    uint64_t read;      /* rows read from the source */
    uint64_t added;     /* keys new to the destination */
    uint64_t replaced;  /* keys present in both where the source's row won */
    uint64_t kept;      /* keys present in both where the destination's row won (identical rows included) */
    uint64_t peaks_read, peaks_added, peaks_replaced, peaks_kept;
} vkat_merge_stats;

/* Copies every row (and every peaks entry and stored module) of the database at `src_path` into `dst`, in one
 * transaction. The source is opened read-only and never modified. A key present in both keeps one row by this rule, the same
 * whichever side it comes from: an "ok" row beats a failed one; then the later `created` wins; then the smaller
 * median; an exact tie keeps the destination's row. So merging is idempotent (merging the same file twice changes
 * nothing) and the result does not depend on the order of the inputs. Stats are added to *stats (may be NULL).
 * VKAT_ERR_IO when src_path does not exist, VKAT_ERR_DB when it is not a vkautotune database or is newer. */
vkat_result vkat_store_merge(vkat_store *dst, const char *src_path, vkat_merge_stats *stats, vkat_error *err);

/* Turns the "aborted" rows (variants that were running when their process ended) whose reason contains `claim`
 * (vkat_tune_desc.claim of the run that wrote them) into `status` with `reason`, e.g. after a watchdog killed a
 * hung measuring process: rows other runs left (an earlier kill -9, another kernel) are not touched. A NULL claim
 * takes every aborted row. *count (may be NULL) receives how many rows changed. */
vkat_result vkat_store_resolve_aborted(vkat_store *st, vkat_status status, const char *reason, const char *claim,
                                       uint64_t *count, vkat_error *err);

/* ---- Device peaks -------------------------------------------------------------------------------------------
 * What a device can do at best, measured by vkautotune itself and cached in the store per device and driver.
 * Figures that were not measured (fp16 without shaderFloat16) are NaN. */
/* One cooperative-matrix shape's tensor-core peak (schema 3, table coopmat_peaks): the best rate of a shader that
 * only chains coopMatMulAdd, searched over independent accumulators per subgroup and subgroups per workgroup. */
typedef struct vkat_coopmat_peak {
    uint32_t m, n, k;
    char a_type[16], b_type[16], c_type[16], result_type[16]; /* Vulkan component type names: "float16", "int8" */
    double tflops;                    /* 2 * M * N * K per multiply-add, 1e12/s (int8: tera-ops) */
    uint32_t accumulators, subgroups; /* the search's best: chains per subgroup, subgroups per workgroup */
} vkat_coopmat_peak;

#define VKAT_MAX_COOPMAT_PEAKS 16

typedef struct vkat_peaks {
    vkat_device_key device;
    double mem_gbps;     /* device-memory copy: (read + write) bytes / s, 1e9 */
    double fp32_tflops;  /* fp32 FMA chains, 2 flops per FMA, 1e12/s */
    double fp16_tflops;  /* fp16 FMA chains; NaN when the device has no shaderFloat16 */
    double h2d_gbps;     /* host -> device staging copy, 1e9 bytes/s */
    double d2h_gbps;     /* device -> host staging copy */
    char created[32];    /* ISO 8601 UTC, set by the store when empty */
    /* Every subgroup-scope shape the device lists (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR) whose types
     * the peak shader can declare; none on a device without VK_KHR_cooperative_matrix. */
    uint32_t coopmat_count;
    vkat_coopmat_peak coopmat[VKAT_MAX_COOPMAT_PEAKS];
} vkat_peaks;

/* The peaks of device `index`: from the store's cache unless `refresh` (or the cache predates tensor-core peaks for
 * a device that lists shapes), else measured now (seconds; a logical device is created and destroyed) and cached.
 * Returns 1 when cached, 0 when measured now, -1 on error (err filled). Not for concurrent use on one device. */
int vkat_device_peaks(vkat_store *store, const vkat_instance *inst, uint32_t index, int refresh, vkat_peaks *out,
                      vkat_error *err);
/* Finds the peaks of `device`: 1 and *out filled, 0 when absent, -1 on error. */
int vkat_store_get_peaks(vkat_store *st, const vkat_device_key *device, vkat_peaks *out, vkat_error *err);
/* Every peaks entry, by device name; *out malloc'ed (NULL when none), the caller frees it. */
vkat_result vkat_store_list_peaks(vkat_store *st, vkat_peaks **out, size_t *count, vkat_error *err);

/* The lower bound on a row's time from its device's peaks (a roofline): max(flops / arithmetic peak, bytes / memory
 * peak), each term only when both the metric and the peak are known. The arithmetic peak is the fp32 FMA rate for a
 * row whose `tensor` is empty, else the cooperative-matrix peak it names (vkat_peaks_tensor_tflops); a tensor row
 * whose peak is unknown has no bound at all (NaN), not a memory-only one that would flatter it. Returns the
 * fraction of that bound the row reaches (bound / median), or NaN when nothing is known. */
double vkat_peaks_fraction(const vkat_peaks *peaks, const vkat_row *row);

/* The cooperative-matrix peak a row's `tensor` names, in 1e12 operations/s: "A,C" is the best measured shape with
 * A and B of type A and accumulators of type C ("float16,float32"; C "*": any accumulator), "*" the best of all. NaN when none matches or
 * `tensor` is empty. */
double vkat_peaks_tensor_tflops(const vkat_peaks *peaks, const char *tensor);

/* Seconds to move `bytes_in` host -> device and `bytes_out` device -> host at the measured link bandwidth;
 * NaN when the needed figure is unknown. */
double vkat_peaks_transfer_s(const vkat_peaks *peaks, double bytes_in, double bytes_out);

/* "16x16x16 float16 x float16 -> float32: 649 (8 accumulators x 4 subgroups)", or "...: not measured". */
void vkat_coopmat_peak_format(const vkat_coopmat_peak *p, char *buf, size_t size);

/* ---- Search spaces ------------------------------------------------------------------------------------------
 * A space is an INI file (docs/space-format.md): the template, what it needs of a device, problem sizes, tuning
 * parameters, constraints, buffers, dispatch and the correctness reference. A configuration is written
 * "NAME=VALUE,NAME=VALUE" in parameter order. */
typedef struct vkat_space vkat_space;

/* Reads and checks a space file. Errors: VKAT_ERR_IO (missing or unreadable), VKAT_ERR_SYNTAX (INI or expression
 * syntax), VKAT_ERR_SPACE (unknown section, key or name, empty or duplicate parameter, ...), each with file:line. */
vkat_result vkat_space_load(const char *path, vkat_space **out, vkat_error *err);
/* The same with the template named by the caller (the command line's TEMPLATE): `template_path` (used as given;
 * NULL: the space's own) replaces [kernel] template, whose value is then not read. */
vkat_result vkat_space_load_with_template(const char *path, const char *template_path, vkat_space **out,
                                          vkat_error *err);
void vkat_space_destroy(vkat_space *space);
/* Sets problem sizes from "M=512,N=512"; an unknown name or a bad value is VKAT_ERR_USAGE. */
vkat_result vkat_space_set_problem(vkat_space *space, const char *overrides, vkat_error *err);
/* Resets the problem to the device's defaults: [problem.cpu] on a CPU device (lavapipe), else [problem]; NULL: no
 * device ([problem]). Call before vkat_space_set_problem, whose overrides win. */
void vkat_space_problem_for_device(vkat_space *space, const vkat_device_info *device);
/* The problem in force as the database writes it ("M=512,N=512,K=512"), truncated to size. */
void vkat_space_format_problem(const vkat_space *space, char *buf, size_t size);
/* The file it was loaded from, and its [kernel] name. */
const char *vkat_space_path(const vkat_space *space);
const char *vkat_space_kernel_name(const vkat_space *space);
size_t vkat_space_param_count(const vkat_space *space);
/* Raw configurations (the product of the parameters' value counts); saturates at UINT64_MAX. */
uint64_t vkat_space_raw_count(const vkat_space *space);
/* Constraints in file order: the name of constraint `index` and (line may be NULL) its line; NULL past the end. */
size_t vkat_space_constraint_count(const vkat_space *space);
const char *vkat_space_constraint(const vkat_space *space, size_t index, int *line);
/* Pass sections ([pass.NAME]): 0 for a single-dispatch kernel. */
size_t vkat_space_pass_count(const vkat_space *space);
/* Bytes the space's buffers move for `problem` (NULL or "": the space's current one; else it is set on the space
 * first): inputs (in/inout) host -> device into *in, outputs (out/inout) device -> host into *out. With
 * vkat_peaks_transfer_s, the cost of the link. */
vkat_result vkat_space_transfer_bytes(vkat_space *space, const char *problem, double *in, double *out,
                                      vkat_error *err);

/* ---- Counting a space (no GPU) ------------------------------------------------------------------------------ */
typedef struct vkat_count_desc {
    int exact;       /* 1: walk every configuration, however long; 0: exact within 2 s, else sampled */
    uint64_t seed;   /* of the samples: the same seed gives the same estimate */
    uint32_t shard_index, shard_count; /* count shard_index's share too (shard_count 0 or 1: unsharded) */
    /* Called with the first visit_limit valid configurations ("TM=4,TN=4,..."), in index order, on this thread. */
    void (*visit)(void *user, const char *config);
    void *visit_user;
    size_t visit_limit;
    /* Called about every 0.2 s while counting (sampling 0) or sampling (1); may be NULL. */
    void (*progress)(void *user, int sampling, uint64_t done, uint64_t total);
    void *progress_user;
} vkat_count_desc;

typedef struct vkat_space_count {
    int exact;               /* 1: every configuration was checked; 0: sampled */
    int raw_overflows;       /* the raw count is 2^64 or more: raw is not meaningful, raw_approx is */
    uint64_t raw;
    double raw_approx;
    uint64_t checked;        /* configurations checked: raw when exact, else the samples */
    uint64_t valid;          /* of those, how many pass every constraint */
    double fraction, lo, hi; /* valid / checked and its 95% Wilson interval (exact: all three equal) */
    double valid_estimate;   /* fraction x raw (exact: valid) */
    uint64_t valid_in_shard; /* of the exact walk's valid ones, those in the shard (all when unsharded) */
    uint64_t *removed;       /* [constraint_count]: those each constraint was the first to reject (exact counts, or
                                among the samples); freed by vkat_space_count_free */
} vkat_space_count;

/* Counts the raw and valid configurations at the space's problem with `device`'s limits (NULL: Vulkan's minimum
 * limits). A space with no valid configuration is not an error here (valid 0); an expression that cannot be
 * evaluated is (VKAT_ERR_EXPR with its line). `desc` may be NULL. Free *out with vkat_space_count_free, also after
 * an error. */
vkat_result vkat_space_count_configs(const vkat_space *space, const vkat_device_info *device,
                                     const vkat_count_desc *desc, vkat_space_count *out, vkat_error *err);
void vkat_space_count_free(vkat_space_count *count);
/* The raw count as text: exact, or "more than 2^64 (about 1e+24; ...)" where 64 bits overflow. Returns buf. */
const char *vkat_space_format_raw(const vkat_space *space, char *buf, size_t size);
/* A sequence's dispatches for one configuration (a space with pass sections): *count dispatches, the first 8 as
 * " reduce[0] 16x1x1, reduce[1] 1x1x1" into buf. Errors point at the space's line. */
vkat_result vkat_space_describe_sequence(const vkat_space *space, const vkat_device_info *device,
                                         const char *config, size_t *count, char *buf, size_t size, vkat_error *err);

/* ---- Search strategies ---------------------------------------------------------------------------------------- */
/* The name of strategy `index` ("exhaustive", "random", ...), NULL past the last; the names --strategy accepts. */
const char *vkat_strategy_name(size_t index);
int vkat_strategy_exists(const char *name);

/* ---- Tuning ----------------------------------------------------------------------------------------------------
 * A tuning run: a space tuned on a set of devices, every result stored. Identical GPUs (same model, ids, driver
 * version and driver UUID: vkat_device_key) form one group sharing one search, each measuring the next variant when
 * it is free; other devices each get their own group, and groups run side by side, one thread each. Each group has
 * its own copy of the space (problem sizes fit for its device) and its own store connection. */

/* Where a variant's outputs are compared with the reference's. */
typedef enum vkat_check_on {
    VKAT_CHECK_AUTO = 0, /* on the device for float outputs of at least 2^20 elements, unless
                            the device is a CPU (lavapipe), where reading back costs less than the device check */
    VKAT_CHECK_GPU,      /* on the device for every float output */
    VKAT_CHECK_HOST,     /* read every output back and compare on the host */
} vkat_check_on;

typedef struct vkat_tune_progress {
    uint64_t proposed;  /* proposals seen, invalid ones included */
    uint64_t invalid;   /* failed a constraint: cost no measurement */
    uint64_t other_shard; /* belong to another shard (opts->shard_count > 1): skipped, cost nothing */
    uint64_t evaluated; /* valid proposals done: measured now or found in the database */
    uint64_t resumed;   /* of those, found in the database */
    uint64_t failed;    /* of those, not ok (raced-out ones are not failures) */
    uint64_t raced;     /* of those, raced out: checked, then cut after a few samples */
    uint64_t budget;    /* evaluation budget (0: none) */
    double budget_s;    /* time budget (0: none) */
    double elapsed_s;
    double best_s;      /* best median so far, INFINITY when none */
    char best_config[512];
    int done;           /* the last call of a run */
} vkat_tune_progress;

/* Where the time went. Preparation stages are summed over worker threads (CPU seconds); check and measure are
 * the measuring thread's wall time. */
typedef struct vkat_tune_times {
    unsigned jobs;          /* worker threads (1: serial) */
    double instantiate, compile, validate, pipeline, check, measure;
    uint64_t compile_hits;  /* variants whose SPIR-V came from the compile cache (specialization constants) */
    uint64_t checked;       /* variants given a checked run (check / checked: seconds per variant) */
    uint64_t checked_gpu;   /* of those, judged correct on the device without reading an output back */
    /* The measuring thread's other time: warm-up (a part of measure), waiting for the next prepared variant, and
     * writing rows (the pending row before a variant runs and its result) */
    double warmup, wait, store;
    uint64_t warmup_capped; /* variants warmed up for the whole maximum: times still falling, or a fixed warm-up */
    uint64_t warmup_retaken; /* variants warmed up and sampled again: their samples beat the warm-up's end */
    uint64_t warmup_busy;    /* variants given no minimum warm-up: their GPU had been kept busy at least that long */
    /* Variants whose driver statistics tell whether they keep values in memory instead of registers, and of those,
     * how many do (register spills, or arrays indexed at run time: vkat_stats_spills) */
    uint64_t spill_known, spilled;
} vkat_tune_times;

typedef struct vkat_tune_report {
    int skipped;              /* the device lacks what the kernel requires */
    int interrupted;          /* opts->stop ended the run early */
    char skip_reason[512];
    char strategy[32];
    char stop[16];            /* why the search ended: budget, time, exhausted, converged, interrupted */
    int race;                 /* racing was on (totals.raced counts the variants it cut) */
    vkat_tune_progress totals;
    vkat_row key;             /* device, kernel, hashes, problem of this run (config empty) */
    vkat_tune_times times;
} vkat_tune_report;

typedef struct vkat_tune_desc {
    /* What: the space (required), its template (NULL: its [kernel] template) and problem overrides ("M=512,...",
     * applied to each group after its device's defaults; NULL: the defaults). */
    const char *space_path, *template_path, *problem;
    const char *db_path; /* the results database, created when missing; reruns resume from it (default
                            "vkautotune.db") */
    /* Where: device indices of `inst` (vkat_select_devices), grouped as above; both borrowed for the run's life. */
    const vkat_instance *inst;
    const uint32_t *devices;
    size_t device_count;
    /* The search. */
    const char *strategy;  /* NULL: exhaustive when the raw space fits the budget, else auto (vkat_strategy_name) */
    uint64_t budget;       /* evaluations, resumed ones included (default 100; UINT64_MAX with budget_s: unlimited) */
    double budget_s;       /* wall-clock limit of the search (default: none) */
    uint64_t seed;
    uint32_t shard_index, shard_count; /* only this shard of the space (shard_count 0 or 1: all of it) */
    const char *const *starts; /* configurations measured first, every parameter named */
    size_t start_count;
    int warm_start;        /* first measure the database's winners at other problem sizes */
    /* Measuring. */
    double warmup_s;       /* the most warm-up before timing each variant: timed batches back to back until the
                              variant's times stop falling (default 0.2; negative: none) */
    double warmup_min_s;   /* the least warm-up (default 0.02; negative: none); warmup_min_s >= warmup_s: a fixed
                              warm-up of warmup_s */
    uint32_t repetitions;  /* timed samples per variant (default 10) */
    double min_sample_s;   /* the least time one timed sample spans: a shorter kernel is timed in batches of
                              back-to-back dispatches, each after a barrier (default 1e-4) */
    double kernel_timeout_s; /* one submission to the GPU (default 10; the reference gets at least 60) */
    int no_race;           /* 1: every variant gets its repetitions (default: racing on) */
    double race_tolerance; /* contenders sample until the median's standard error is this fraction (0.01) */
    vkat_check_on check_on;
    unsigned jobs;         /* threads preparing variants ahead of each GPU (default: the cores; 1 on a CPU device) */
    const char *pipeline_cache_dir; /* default $XDG_CACHE_HOME/vkautotune or ~/.cache/vkautotune; "none": off */
    /* Control. `stop`: when it becomes non-zero (a signal handler may set it), every group stops after its variant
     * in flight. `claim`: a tag written into each variant's "aborted" row before it runs, for a watchdog
     * (vkat_store_resolve_aborted). `progress`: after every evaluation of a group, and when a better variant has been
     * measured while an earlier proposal is still being prepared (best_s and best_config change, the counts do not),
     * on that group's thread. */
    const volatile int *stop;
    const char *claim;
    void (*progress)(void *user, const vkat_device_info *device, const vkat_tune_progress *progress);
    void *progress_user;
    /* `stage` (user: progress_user): before each step a lane takes outside a variant, on that lane's thread:
     * "creating the device and filling the inputs", "running the reference shader FILE" (or "... the reference
     * configuration CONFIG"), "measuring variants". A watchdog says from it what a process that died was doing. */
    void (*stage)(void *user, const vkat_device_info *device, const char *what);
    /* Diagnostics. The library has one logger per process (vkat_set_log); a func given here is installed as it by
     * vkat_tune_run_create. NULL func: the logger in place is kept. */
    vkat_logger logger;
} vkat_tune_desc;

/* A description with every default written out (what a zeroed field means). */
vkat_tune_desc vkat_tune_desc_defaults(void);

typedef struct vkat_tune_run vkat_tune_run;

/* One group's outcome, valid while the run lives. */
typedef struct vkat_tune_group {
    const uint32_t *devices; /* the group's devices; devices[0] names it */
    size_t device_count;
    vkat_result result;      /* the group's own failure (its space, its store, a Vulkan error), else VKAT_OK */
    vkat_error error;
    vkat_tune_report report; /* when result is VKAT_OK; report.skipped when the device lacks what the kernel needs */
    vkat_space *space;       /* the group's space, its problem the one tuned; NULL when it failed to load */
} vkat_tune_group;

/* Checks the description, loads the space (checking the template and the problem overrides), opens the store (a
 * bad path fails here, before anything runs) and groups the devices. Measures nothing. `desc` is copied; the
 * strings and arrays it points to are borrowed until vkat_tune_run_destroy. */
vkat_result vkat_tune_run_create(const vkat_tune_desc *desc, vkat_tune_run **out, vkat_error *err);
size_t vkat_tune_run_group_count(const vkat_tune_run *run);
/* Runs every group, one thread each (also for one group), and returns when all have ended; a group's failure is
 * its own (vkat_tune_run_group). Non-OK only when the run cannot start. Call once. */
vkat_result vkat_tune_run_execute(vkat_tune_run *run, vkat_error *err);
/* Group `index` (in device order), NULL past the end. */
const vkat_tune_group *vkat_tune_run_group(const vkat_tune_run *run, size_t index);
/* The run's store connection (for reading its rows: vkat_store_best with a group's report.key). */
vkat_store *vkat_tune_run_store(vkat_tune_run *run);
/* After vkat_tune_run_execute: writes the best variant of every group that has one, each at its problem, into
 * `dir` (SPIR-V + manifest.json, docs/manifest.md). *exported (may be NULL) gets how many; 0 writes nothing. */
vkat_result vkat_tune_run_export(vkat_tune_run *run, const char *dir, size_t *exported, vkat_error *err);
void vkat_tune_run_destroy(vkat_tune_run *run);

/* ---- Comparing devices, the HTML report ---------------------------------------------------------------------
 * Per kernel, each device contributes one measurement series: its rows for one (problem, template hash, space
 * hash). Devices often tune different problem sizes (a CPU device takes the space's [problem.cpu]), so a comparison
 * is by kernel, each device with its own problem: times are not comparable across columns then, the fractions (of
 * peak, of a device's own best) are. When a device has several series, the one with the most correct variants is
 * taken (ties: the latest), or the one of the requested problem. Plain data. */
typedef struct vkat_cmp_device {
    vkat_device_key device;
    char problem[256], template_hash[17], space_hash[17];
    vkat_row *rows;       /* this series' rows, ok ones first by median (rows[0] is the winner when ok_count) */
    size_t count, ok_count;
    size_t raced_count;   /* of count, raced out (checked, cut after a few samples: never the winner) */
    size_t other_series;  /* series of this kernel on this device left out */
    int has_peaks;
    vkat_peaks peaks;
} vkat_cmp_device;

/* Portability cell states. */
enum { VKAT_PORT_UNMEASURED = 0, VKAT_PORT_OK = 1, VKAT_PORT_FAILED = 2, VKAT_PORT_RACED = 3 };

typedef struct vkat_comparison {
    char kernel[128];
    vkat_cmp_device *devices; /* by device name, then driver version */
    size_t device_count;
    int same_problem;         /* every device measured the same problem */
    int same_template;        /* and the same template and space hashes */
    /* [i * device_count + j]: device i's winner measured on device j, as j's best median / that config's median
     * on j (1 = as good as j's own winner). state says whether j measured it. Raced out on j (VKAT_PORT_RACED):
     * j's best median / that config's least sample there, an upper bound on the fraction. */
    double *portability;
    int *port_state;
} vkat_comparison;

/* Builds one comparison per kernel (only `kernel` when not NULL; only series of `problem` when not NULL), kernels
 * by name. *out is malloc'ed; free with vkat_comparisons_free. *count 0 when the database holds nothing that
 * matches (not an error). */
vkat_result vkat_compare_build(vkat_store *st, const char *kernel, const char *problem, vkat_comparison **out,
                               size_t *count, vkat_error *err);
void vkat_comparisons_free(vkat_comparison *c, size_t count);

typedef struct vkat_report_opts {
    const char *title;  /* NULL: "vkautotune report" */
    const char *source; /* what the data came from, shown under the title (e.g. the database path); may be NULL */
    const char *param;  /* parameter on the x axis of the scatter plot and heat map; NULL: each kernel's first */
    const char *param2; /* the heat map's y axis; NULL: the first other parameter */
} vkat_report_opts;

/* Writes one self-contained HTML file (inline SVG, no script) of the comparisons in `store` (only `kernel` and
 * `problem` when not NULL) with the measured peaks, atomically (vkat_write_file's way). *kernels (may be NULL) gets
 * the number of kernels reported; none writes nothing and is not an error. */
vkat_result vkat_report_write_file(vkat_store *store, const char *path, const char *kernel, const char *problem,
                                   const vkat_report_opts *opts, size_t *kernels, size_t *devices_with_peaks,
                                   vkat_error *err);

/* ---- Exporting stored winners --------------------------------------------------------------------------------
 * What `vkautotune export` writes: the best stored variant of each kernel, device and tuned problem as .spv files,
 * manifest.json (docs/manifest.md) and optionally a C header for the runtime library (docs/runtime.md). Nothing is
 * measured. */
#define VKAT_EXPORT_DEFAULT_CANDIDATES 6

typedef struct vkat_export_desc {
    vkat_space *const *spaces; /* the kernels; their problem sizes are changed while exporting */
    size_t space_count;
    const vkat_instance *inst; /* may be NULL: no Vulkan here (then only devices in the database can be exported) */
    const char *device;        /* NULL: this machine's default device; "all": every device present; else an index
                                  or name of a present device, or a case-insensitive substring of database device
                                  names */
    int all_in_db;             /* every device in the database (device is then ignored) */
    const char *problem;       /* NULL: every tuned problem; "M=64,N=64": only problems with these sizes */
    const char *dir;           /* required: SPIR-V files and manifest.json go here (created if needed) */
    const char *header;        /* NULL: no C header; else its file name in dir */
    const vkat_device_info *profile; /* NULL, or a device described by a file: an absent device of the same name,
                                        vendor and device id is exported with its limits */
    int candidates;            /* distinct configurations per kernel for runtime tuning, the winners included
                                  (0: VKAT_EXPORT_DEFAULT_CANDIDATES; negative: the winners only) */
} vkat_export_desc;

/* Exports what `desc` selects from `store`. *exported (may be NULL) gets the number of variants written.
 * VKAT_ERR_DB when nothing matches. */
vkat_result vkat_export_stored(const vkat_export_desc *desc, vkat_store *store, size_t *exported, vkat_error *err);

/* ---- Replaying a strategy against a recorded table (no GPU) --------------------------------------------------
 * A table is a Kernel Tuner cache file (.json) or a vkautotune results database; the search driver runs against
 * it with the table in place of the GPU (bench/strategy_replay, `vkautotune replay`). */
typedef struct vkat_replay_table vkat_replay_table;

/* Loads a table: a SQLite file (the (device, kernel, problem) key with the most rows, or with `kernel` the largest
 * of that kernel's) or else a Kernel Tuner cache JSON file. Free with vkat_replay_free. */
vkat_result vkat_replay_load(const char *path, const char *kernel, vkat_replay_table **out, vkat_error *err);
void vkat_replay_free(vkat_replay_table *table);

/* What vkat_replay_open scores. Zero value: the file's objective, else time. */
typedef struct vkat_replay_load_desc {
    const char *kernel;    /* a database's kernel (NULL: the key with the most rows); ignored for JSON */
    const char *objective; /* the entries' metric ("time", "GFLOP/s", ...); NULL: the file's "objective", else time */
    int higher_is_better;  /* 1 higher is better, -1 lower, 0 the file's objective_higher_is_better (time: lower) */
} vkat_replay_load_desc;

/* vkat_replay_load with an objective. JSON: a Kernel Tuner cache (its keys are Python's str() of each value:
 * "0.5", "1e-05", "True", "None"; schema_version 1.x or none) or T4 results ({"results": [...]}, schema 1.x). An
 * entry scores with a positive number for the objective (time in ms); Kernel Tuner's error strings and 0, negative,
 * NaN or 1e20 times fail; "InvalidConfig" and an entry without the objective are missing, like an absent one. A
 * cache that was not closed (a stopped run) is closed as Kernel Tuner does, with a warning through the log; a file
 * cut inside an entry is VKAT_ERR_SYNTAX with its line, as are keys that do not match tune_params. An objective
 * other than time without a direction (desc or the file's) is VKAT_ERR_USAGE, as is one for a database. */
vkat_result vkat_replay_open(const char *path, const vkat_replay_load_desc *desc, vkat_replay_table **out,
                             vkat_error *err);
/* A score (best_s, best_at, vkat_replay_result.best_s) as the objective's value: ms for time, else as recorded. */
double vkat_replay_value(const vkat_replay_table *table, double score);
/* "ms" for time, else the objective's name. Lives with the table. */
const char *vkat_replay_unit(const vkat_replay_table *table);

/* Gives the table its kernel's constraints, as a live run's space has them: `space_path` is a space file
 * (docs/space-format.md) whose [params] list exactly the table's parameters with the table's values and whose
 * [constraints] are the kernel's; [kernel] may be left out, [problem] sizes may be used; device.* names take
 * Vulkan's minimum limits, so write the recorded device's limits as numbers. Configurations that break them are
 * ruled out before proposal, free, under either counting of missing configurations; those that pass and are missing
 * from the table stay charged under charged counting. NULL removes them. A name or value that does not match the
 * table is VKAT_ERR_SPACE with the space file's line (values are matched as numbers or words: a table value that is
 * not an integer cannot be written in a space file); errors of the file itself as for vkat_space_load; a raw space
 * over 2^28 configurations is VKAT_ERR_USAGE. On error the table has no constraints. Not thread-safe with searches
 * of the same table. */
vkat_result vkat_replay_constrain(vkat_replay_table *table, const char *space_path, vkat_error *err);

typedef struct vkat_replay_info {
    const char *label;    /* file name, or "kernel problem on device" for a database; lives with the table */
    size_t param_count;
    uint64_t raw, valid, failed; /* raw configurations; entries with a time, entries without */
    double best_s;        /* the table's optimum */
    /* vkat_replay_constrain's file (lives with the table), NULL when none; then: raw configurations that pass the
     * constraints, the table's entries that pass them (with a time, without), and the table's entries that break
     * them (never replayed). All 0 without constraints. */
    const char *constraints;
    uint64_t constraint_valid, constrained_valid, constrained_failed, constraint_outside;
    /* What is scored (lives with the table): "time" (best_s in seconds) or another metric, whose scores are its
     * values, or their reciprocals when higher is better (vkat_replay_value converts). format: "Kernel Tuner cache",
     * "T4 results" or "vkautotune database". Entries marked InvalidConfig and entries without the objective, both
     * missing; repaired: a cache that was not closed, closed as Kernel Tuner does. */
    const char *objective, *format;
    int higher_is_better, repaired;
    uint64_t marked_invalid, no_objective;
} vkat_replay_info;
void vkat_replay_describe(const vkat_replay_table *table, vkat_replay_info *info);

typedef struct vkat_replay_desc {
    const char *strategy; /* NULL: "auto" */
    uint64_t seed;
    uint64_t budget;      /* unique evaluations; 0: until the strategy stops */
    uint32_t window;      /* evaluations in flight; 0: 1 */
    /* Configurations absent from the table: 0 free (ruled out without an evaluation, the table is the validity
     * oracle), 1 charged (one evaluation each when proposed, as a failure, and no oracle). */
    int charge_missing;
} vkat_replay_desc;

/* "free" or "charged": the counting of missing configurations, for every output to state. */
const char *vkat_replay_missing_name(int charge_missing);

/* What one replayed search did. */
typedef struct vkat_replay_result {
    double best_s;       /* INFINITY when nothing valid was found */
    char config[2048];   /* the best configuration, "" when none */
    uint64_t proposed, invalid, duplicates, evaluated, failed;
    const char *stop;    /* why it ended: "budget", "exhausted", "converged", ... (static) */
} vkat_replay_result;

/* One search of the table. best_at[k] (k < mark_count) is the best time after marks[k] unique evaluations (the final
 * best when the search stopped before); INFINITY when nothing valid was found by then. `result` may be NULL.
 * Thread-safe for distinct calls on one table. */
vkat_result vkat_replay_search(const vkat_replay_table *table, const vkat_replay_desc *desc, const uint64_t *marks,
                               size_t mark_count, double *best_at, vkat_replay_result *result, vkat_error *err);

/* ---- Compiling one configuration ----------------------------------------------------------------------------
 * The tuner's own build (instantiate the template, compile with glslang, validate with SPIRV-Tools, reflect), for
 * one configuration and no GPU. */
typedef struct vkat_compiled vkat_compiled;

/* Parses `config` ("TM=4,TN=4") and checks the space's constraints on it at the space's problem for `device` (NULL:
 * Vulkan's minimum limits): *failed is the index of the first constraint it fails (vkat_space_constraint names it),
 * or -1. The parameters not named take the values of the first configuration in the space's order that keeps the
 * named ones and satisfies every constraint, or their first values where none does. Errors: a bad configuration,
 * an expression that cannot be evaluated. */
vkat_result vkat_space_check_config(const vkat_space *space, const vkat_device_info *device, const char *config,
                                    long *failed, vkat_error *err);
/* A starting space file for a shader as it is (`vkautotune init`): the shader at `shader_path` compiled for Vulkan
 * 1.3 with `defines` ("NAME=VALUE", or "NAME" for 1, after its #version; they become one-value parameters) and
 * #include looked up beside it, then in include_dirs; its interface read from the SPIR-V: each descriptor a
 * [buffers] entry in its slot, the push-constant block's members as [push] values, the workgroup size's
 * specialization constants as [params], [dispatch] in its workgroups. Sizes, counts and the reference are guesses
 * marked TODO. `template_ref` is how the file names the shader (relative to where it will be written), include_refs
 * (NULL: include_dirs as given) how it names each include directory ([kernel] include_dirs). *text is malloc'ed.
 * Errors: the shader's compile error at its file and line. */
vkat_result vkat_space_skeleton(const char *shader_path, const char *template_ref, const char *const *include_dirs,
                                const char *const *include_refs, size_t include_dir_count,
                                const char *const *defines, size_t define_count, char **text, vkat_error *err);

/* Builds `config` ("TM=4,TN=4"; parameters not named are completed as vkat_space_check_config does) at the space's
 * problem for `device` (its Vulkan version and limits; NULL: generic Vulkan 1.3 with its minimum limits). A
 * configuration that fails a constraint is still built: vkat_compiled_failed_constraint says which. Errors point at
 * the space or template line. */
vkat_result vkat_space_compile(const vkat_space *space, const vkat_device_info *device, const char *config,
                               vkat_compiled **out, vkat_error *err);
/* The SPIR-V words (*count of them); valid until vkat_compiled_destroy. */
const uint32_t *vkat_compiled_words(const vkat_compiled *compiled, size_t *count);
/* The whole configuration built, every parameter named. */
const char *vkat_compiled_config(const vkat_compiled *compiled);
/* The index of the first constraint the configuration fails (vkat_space_constraint names it), or -1. */
long vkat_compiled_failed_constraint(const vkat_compiled *compiled);
/* For a space with [pass.*] sections: how many distinct modules its passes build (every one of them was built and
 * validated by vkat_space_compile; vkat_compiled_words is the [kernel] template's with [dispatch]); 0 without. */
size_t vkat_compiled_pass_modules(const vkat_compiled *compiled);
/* SPIRV-Tools' disassembly into *text (malloc'ed, the caller frees it). */
vkat_result vkat_compiled_disassemble(const vkat_compiled *compiled, char **text, vkat_error *err);
void vkat_compiled_destroy(vkat_compiled *compiled);

/* ---- Files --------------------------------------------------------------------------------------------------- */
/* Writes `size` bytes to `path` atomically: a temporary file in the same directory, synced and renamed over the
 * target, so readers and a crash see the old file or the whole new one; never through a symlink at the name.
 * VKAT_ERR_IO naming the path. Thread-safe. */
vkat_result vkat_write_file(const char *path, const void *data, size_t size, vkat_error *err);

#ifdef __cplusplus
}
#endif
#endif
