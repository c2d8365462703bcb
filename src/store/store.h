/* store.h — internal: the results database (SQLite), one row per evaluated variant.
 *
 * Every result is committed as soon as it is measured (WAL journal, synchronous=FULL), so a crash loses nothing
 * that was finished. A row's key is (device identity, kernel, template hash, space hash, problem, config); a rerun
 * with the same key finds it and measures nothing twice (resume).
 * Default path: ./vkautotune.db (the CLI documents it; --db overrides). One connection per thread. */
#ifndef VKAT_STORE_H
#define VKAT_STORE_H

#include "device_key.h"
#include "vkautotune.h"

typedef struct vkat_store vkat_store;

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

/* Inserts (or replaces the row with the same key) and commits. */
vkat_result vkat_store_put(vkat_store *st, vkat_row *row, vkat_error *err);

/* Finds the row with the key of `key` (device.name + driver_uuid + driver_version + vendor_id + device_id,
 * kernel, template_hash, space_hash, problem, config). Returns 1 and fills *found, 0 when absent, -1 on error. */
int vkat_store_get(vkat_store *st, const vkat_row *key, vkat_row *found, vkat_error *err);

/* The `cap` best "ok" rows by median for (device, kernel, template_hash, space_hash, problem) taken from `key`
 * (its config ignored); fills rows, sets *count. */
vkat_result vkat_store_best(vkat_store *st, const vkat_row *key, vkat_row *rows, size_t cap, size_t *count,
                            vkat_error *err);

/* Every row of that same (device, kernel, hashes, problem) key (its config ignored): "ok" rows first by median,
 * then, with include_failed, the other rows (by median, unmeasured first). *rows is malloc'ed (NULL when none);
 * the caller frees it. For listings (--json, --csv) and comparisons. Added for the CLI. */
vkat_result vkat_store_rows(vkat_store *st, const vkat_row *key, int include_failed, vkat_row **rows, size_t *count,
                            vkat_error *err);

/* The winner of every measurement series of a kernel: for each (device, problem) with "ok" rows of (kernel,
 * template_hash, space_hash) taken from `key` (its device, problem and config ignored), the row with the least
 * median (ties: lowest id, as vkat_store_best). Ordered by device name, driver version, problem. *rows is
 * malloc'ed (NULL when none); the caller frees it. For exporting devices that are not present. */
vkat_result vkat_store_winners(vkat_store *st, const vkat_row *key, vkat_row **rows, size_t *count, vkat_error *err);

/* Counts rows per status for that same (device, kernel, hashes, problem) key. */
/* Turns the "aborted" rows (variants that were running when their process ended) whose reason contains `claim`
 * (vkat_tune_opts.claim of the run that wrote them) into `status` with `reason`, e.g. after a watchdog killed a
 * hung measuring process: rows other runs left (an earlier kill -9, another kernel) are not touched. A NULL claim
 * takes every aborted row. *count (may be NULL) receives how many rows changed. */
vkat_result vkat_store_resolve_aborted(vkat_store *st, vkat_status status, const char *reason, const char *claim,
                                       uint64_t *count, vkat_error *err);

vkat_result vkat_store_counts(vkat_store *st, const vkat_row *key, uint64_t counts[VKAT_STATUS_COUNT],
                              vkat_error *err);

/* ---- Measured SPIR-V (schema 5) -------------------------------------------------------------------------------
 * The modules that were measured, by the hash their rows store (vkat_row.spirv_hash), so that export writes the
 * very bytes that were timed instead of compiling again. Content-addressed: a hash is written once (a second put
 * of the same hash is a no-op) and shared by every row that measured it. What the bytes are is the caller's:
 * the tuner stores a module's words, and for a sequence of dispatches the list of its steps' module hashes. */
vkat_result vkat_store_put_spirv(vkat_store *st, const char *hash, const void *bytes, size_t size, vkat_error *err);
/* 1 and *bytes (malloc'ed, the caller frees) with *size filled; 0 when the database holds nothing under `hash`
 * (a row measured before schema 5, or resumed from one); -1 on error. */
int vkat_store_get_spirv(vkat_store *st, const char *hash, void **bytes, size_t *size, vkat_error *err);

/* ---- Listing and merging (compare, report, merge) ----------------------------------------------------------- */

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
 * transaction. The source is opened read-only and never modified. A key present in both keeps one row by this
 * rule, the same whichever side it comes from: an "ok" row beats a failed one; then the later `created` wins; then
 * the smaller median; an exact tie keeps the destination's row. So merging is idempotent (merging the same file
 * twice changes nothing) and the result does not depend on the order of the inputs. Stats are added to *stats (may
 * be NULL). VKAT_ERR_IO when src_path does not exist, VKAT_ERR_DB when it is not a vkautotune database or is newer. */
vkat_result vkat_store_merge(vkat_store *dst, const char *src_path, vkat_merge_stats *stats, vkat_error *err);

/* ---- Device peaks ------------------------------------------------------------------------------------------
 * What a device can do at best, measured by the tool itself (peaks.c) and cached per device and driver (key:
 * device name, vendor id, device id, driver version, driver uuid — the results' device key). Figures that were
 * not measured (e.g. fp16 on a device without shaderFloat16) are NaN. Kept in the table `peaks`, which is
 * created when missing, so databases written before it existed open unchanged. */
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

/* Inserts or replaces the peaks of peaks->device. */
vkat_result vkat_store_put_peaks(vkat_store *st, vkat_peaks *peaks, vkat_error *err);
/* Finds the peaks of `device`: 1 and *out filled, 0 when absent, -1 on error. */
int vkat_store_get_peaks(vkat_store *st, const vkat_device_key *device, vkat_peaks *out, vkat_error *err);
/* Every peaks entry, by device name; *out malloc'ed (NULL when none), the caller frees it. */
vkat_result vkat_store_list_peaks(vkat_store *st, vkat_peaks **out, size_t *count, vkat_error *err);

#endif
