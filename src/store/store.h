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

/* vkat_status (VKAT_STATUS_LIST), vkat_status_name/_from_name and vkat_row are public: include/vkautotune.h. */

/* vkat_store_open, _open_readonly, _close, _path: include/vkautotune.h. */

/* Inserts (or replaces the row with the same key) and commits. */
vkat_result vkat_store_put(vkat_store *st, vkat_row *row, vkat_error *err);

/* Finds the row with the key of `key` (device.name + driver_uuid + driver_version + vendor_id + device_id,
 * kernel, template_hash, space_hash, problem, config). Returns 1 and fills *found, 0 when absent, -1 on error. */
int vkat_store_get(vkat_store *st, const vkat_row *key, vkat_row *found, vkat_error *err);

/* vkat_store_best, vkat_store_rows: include/vkautotune.h. */

/* The winner of every measurement series of a kernel: for each (device, problem) with "ok" rows of (kernel,
 * template_hash, space_hash) taken from `key` (its device, problem and config ignored), the row with the least
 * median (ties: lowest id, as vkat_store_best). Ordered by device name, driver version, problem. *rows is
 * malloc'ed (NULL when none); the caller frees it. For exporting devices that are not present. */
vkat_result vkat_store_winners(vkat_store *st, const vkat_row *key, vkat_row **rows, size_t *count, vkat_error *err);

/* vkat_store_resolve_aborted: include/vkautotune.h. */

/* Counts rows per status for that same (device, kernel, hashes, problem) key. */
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

/* vkat_store_list, vkat_merge_stats, vkat_store_merge: include/vkautotune.h. */

/* ---- Device peaks ------------------------------------------------------------------------------------------
 * What a device can do at best, measured by the tool itself (peaks.c) and cached per device and driver (key:
 * device name, vendor id, device id, driver version, driver uuid — the results' device key). Figures that were
 * not measured (e.g. fp16 on a device without shaderFloat16) are NaN. Kept in the table `peaks`, which is
 * created when missing, so databases written before it existed open unchanged. */
/* vkat_coopmat_peak and vkat_peaks are public: include/vkautotune.h. */

/* Inserts or replaces the peaks of peaks->device. */
vkat_result vkat_store_put_peaks(vkat_store *st, vkat_peaks *peaks, vkat_error *err);
/* vkat_store_get_peaks, vkat_store_list_peaks: include/vkautotune.h. */

#endif
