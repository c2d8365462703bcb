/* kernel_runner.h — runs one exported variant (a manifest_entry) on one Vulkan device exactly as its manifest
 * entry says: a logical device with only the extensions and features `requires` names, set-0 storage buffers,
 * specialization and push constants, its workgroup count, every pass of a sequence (manifest version 2) in
 * order; runs timed with timestamp queries.
 * No printing: failures come back as a code and a message. */
#ifndef VKAT_BENCH_KERNEL_RUNNER_H
#define VKAT_BENCH_KERNEL_RUNNER_H

#include "manifest_entry.h"

typedef enum runner_status {
    RUNNER_OK = 0,
    RUNNER_BAD_ENTRY,   /* the entry cannot be run as written (unknown feature name, unreadable SPIR-V, ...) */
    RUNNER_UNSUPPORTED, /* the device lacks an extension, feature, or timestamps the entry needs */
    RUNNER_VULKAN,      /* a Vulkan call failed, or the GPU did not finish in time */
} runner_status;

typedef struct kernel_runner kernel_runner;

/* Creates the device (physical device `index` of `inst`), the pipeline and one device buffer per binding (at least
 * `bytes` each). `e` must outlive the runner. On failure *out is NULL and `err` says why. */
runner_status runner_create(const vkat_instance *inst, uint32_t index, const manifest_entry *e, kernel_runner **out,
                            char *err, size_t err_size);

/* Copies `size` bytes between host memory and the buffer of e->bindings[i], through a host-visible staging buffer. */
runner_status runner_upload(kernel_runner *r, size_t i, const void *data, uint64_t size, char *err, size_t err_size);
runner_status runner_download(kernel_runner *r, size_t i, void *data, uint64_t size, char *err, size_t err_size);

/* Records `count` runs of the entry (each of its passes after a barrier on the previous dispatch, as vkautotune
 * measures) in one submission and waits for it. With `ms` non-NULL, timestamps bracket them and *ms is the time per
 * run (the whole sequence of a multi-pass entry) in milliseconds. */
runner_status runner_dispatch(kernel_runner *r, uint32_t count, double *ms, char *err, size_t err_size);

/* NULL is fine. */
void runner_destroy(kernel_runner *r);

#endif
