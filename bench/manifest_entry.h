/* manifest_entry.h — reads the entries of one kernel from an export directory's manifest.json (docs/manifest.md)
 * into plain structs, for programs that run exported variants without the tuner (bench/gemm_verify).
 * No Vulkan, no printing: problems come back as a message. */
#ifndef VKAT_BENCH_MANIFEST_ENTRY_H
#define VKAT_BENCH_MANIFEST_ENTRY_H

#include "vkautotune.h"

#include <stddef.h>
#include <stdint.h>

#define MANIFEST_MAX_ITEMS 32 /* bindings, push constants, specialization constants, problem sizes, requirements */
#define MANIFEST_MAX_PASSES 16 /* dispatches of one sequence (version 2 `passes`) */

typedef struct manifest_binding {
    uint32_t binding;
    char name[64];
    vkat_elem_type type;
    uint64_t elements, bytes;
    char direction[8]; /* "in", "out", "inout" */
} manifest_binding;

typedef struct manifest_value {
    char name[64];
    uint32_t id;   /* spec constant id, or push constant byte offset */
    uint32_t bits; /* the 4 bytes to pass: uint32 / int32 two's complement / float32 bits */
} manifest_value;

typedef struct manifest_size {
    char name[32];
    int64_t value;
} manifest_size;

/* One dispatch: a version-1 entry is one, a version-2 sequence one per `passes` item, in order. */
typedef struct manifest_pass {
    char name[128];        /* the pass section's name; the kernel's name for a version-1 entry */
    char spirv_path[4096]; /* the manifest's directory joined with the pass's `spirv` */
    manifest_value spec[MANIFEST_MAX_ITEMS], push[MANIFEST_MAX_ITEMS];
    size_t spec_count, push_count;
    uint32_t push_size; /* bytes: last offset + 4, 0 without push constants */
    uint32_t workgroup_count[3];
} manifest_pass;

typedef struct manifest_entry {
    char kernel[128], entry_point[128], config[512];
    char device_name[256], driver_uuid[40];
    uint32_t vendor_id, device_id;
    manifest_size problem[MANIFEST_MAX_ITEMS];
    size_t problem_count;
    manifest_pass passes[MANIFEST_MAX_PASSES]; /* run in order, a barrier between consecutive ones */
    size_t pass_count;                         /* >= 1 */
    uint32_t push_size;                        /* the pipeline layout's range: the largest of the passes' */
    manifest_binding bindings[MANIFEST_MAX_ITEMS];
    size_t binding_count;
    char extensions[MANIFEST_MAX_ITEMS][128], features[MANIFEST_MAX_ITEMS][64];
    size_t extension_count, feature_count;
    double measured_median_ms, measured_tflops; /* the tuner's figures; NAN when null */
} manifest_entry;

/* Reads DIR/manifest.json and returns, in a malloc'ed array the caller frees, every entry whose `kernel` is
 * `kernel` (in manifest order), winners only (entries of role "candidate" are left out). Manifest versions 1 and 2
 * (sequences: `passes`) are read; a pass that rebinds buffers (`buffers` not the bindings' own names) is refused.
 * Returns 0 on success with *count >= 1; -1 with a message in `err` (file name first) for an unreadable or
 * malformed manifest, an unknown format or version, or no entry for `kernel` (the message then lists the kernels
 * it has). */
int manifest_read_kernel(const char *dir, const char *kernel, manifest_entry **entries, size_t *count, char *err,
                         size_t err_size);

/* The problem size `name` of an entry, or `fallback` when the entry has none. */
int64_t manifest_problem(const manifest_entry *e, const char *name, int64_t fallback);

#endif
