/* export.h — internal: writes winning variants for runtimes that do not link vkautotune: one .spv per
 * (kernel, device, problem) and one manifest.json describing how to run each (docs/manifest.md). */
#ifndef VKAT_EXPORT_H
#define VKAT_EXPORT_H

#include "compile.h"
#include "space.h"
#include "store.h"

typedef struct vkat_export_item {
    const vkat_space *space;
    const vkat_device_info *device;
    const vkat_row *row;        /* the winning row (status ok) */
    const vkat_spirv *spirv;    /* its SPIR-V */
    const uint32_t *choice;     /* its configuration */
    const vkat_value *env;      /* environment with problem, device and configuration applied */
    const vkat_launch *launch;  /* evaluated launch for that environment */
} vkat_export_item;

/* Creates `dir` if needed, writes <kernel>-<device-slug>-<problem-slug>.spv for each item and manifest.json
 * listing all of them (an existing manifest.json in dir is replaced). */
vkat_result vkat_export_write(const char *dir, const vkat_export_item *items, size_t count, vkat_error *err);

#endif
