/* atomic_file.h — internal: every file vkautotune writes for the user (exported SPIR-V, headers, manifests,
 * reports, pipeline caches) goes through a temporary file in the target's own directory, created exclusively
 * (O_CREAT | O_EXCL | O_NOFOLLOW: never an existing file, never through a symlink planted at its name), synced, and
 * renamed over the target: readers and a crash see the old file or the whole new one, and nothing is written
 * outside the target's directory. Not thread-safe per object; distinct objects may be used on any thread. */
#ifndef VKAT_ATOMIC_FILE_H
#define VKAT_ATOMIC_FILE_H

#include "vkautotune.h"

#include <stdio.h>

typedef struct vkat_atomic_file {
    FILE *f; /* write here between open and commit */
    char path[4096];
    char tmp[4096];
} vkat_atomic_file;

/* Creates the temporary file for `path` (mode 0666 less the umask). VKAT_ERR_IO with the path on failure. */
vkat_result vkat_atomic_open(vkat_atomic_file *af, const char *path, vkat_error *err);
/* Flushes, syncs, closes and renames into place. On any failure the temporary file is removed. */
vkat_result vkat_atomic_commit(vkat_atomic_file *af, vkat_error *err);
/* Closes and removes the temporary file; the target is untouched. Accepts an object never opened (zeroed). */
void vkat_atomic_discard(vkat_atomic_file *af);
/* open + write `size` bytes + commit. */
vkat_result vkat_write_file_atomic(const char *path, const void *data, size_t size, vkat_error *err);

#endif
