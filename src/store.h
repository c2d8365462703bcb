/* store.h — internal: the results database (SQLite), one row per evaluated variant.
 *
 * Every result is committed as soon as it is measured (WAL journal, synchronous=FULL), so a crash loses nothing
 * that was finished. A row's key is (device identity, kernel, template hash, space hash, problem, config); a rerun
 * with the same key finds it and measures nothing twice (resume).
 * Default path: ./vkautotune.db (the CLI documents it; --db overrides). One connection per thread. */
#ifndef VKAT_STORE_H
#define VKAT_STORE_H

#include "vkautotune.h"

typedef struct vkat_store vkat_store;

/* Status of one variant. Only "ok" rows are ranked. */
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
    X(VKAT_STATUS_ERROR, "error")

typedef enum vkat_status {
#define VKAT_X_ENUM(name, str) name,
    VKAT_STATUS_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_STATUS_COUNT
} vkat_status;

const char *vkat_status_name(vkat_status s);
int vkat_status_from_name(const char *name); /* -1 when unknown */

/* Who measured: enough to tell devices and driver versions apart across machines. */
typedef struct vkat_device_key {
    char name[256];
    char vendor[32];
    uint32_t vendor_id, device_id, driver_version;
    char driver_version_string[64];
    char driver_uuid[40];         /* hex with dashes */
    char pipeline_cache_uuid[40];
} vkat_device_key;

void vkat_device_key_from_info(const vkat_device_info *info, vkat_device_key *key);

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
} vkat_row;

vkat_result vkat_store_open(const char *path, vkat_store **out, vkat_error *err);
void vkat_store_close(vkat_store *st);

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
vkat_result vkat_store_counts(vkat_store *st, const vkat_row *key, uint64_t counts[VKAT_STATUS_COUNT],
                              vkat_error *err);

#endif
