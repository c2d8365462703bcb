/* measured_spirv.h — internal: the SPIR-V a variant was measured with, kept in the results database under its
 * row's spirv_hash (store.h, schema 5) when the tuner stores an "ok" row, and read back by export, which writes
 * those very bytes instead of compiling again.
 *
 * One dispatch: the module's words, under vkat_spirv_hash of them. A sequence of dispatches: each distinct module
 * under its own hash, and under the sequence's hash (vkat_sequence.hash) the list of its steps' module hashes in
 * step order (8 bytes each, little-endian), from which export rebuilds the sequence without a compiler. What is
 * read back is checked against the hash it was asked for. */
#ifndef VKAT_MEASURED_SPIRV_H
#define VKAT_MEASURED_SPIRV_H

#include "compile.h"
#include "sequence.h"
#include "store.h"

/* Keeps a measured variant: `module` for one dispatch, else `sequence` (the other NULL). `hash` is the row's
 * spirv_hash (16 hex digits). Content-addressed: keeping the same module again writes nothing new. */
vkat_result vkat_measured_put(vkat_store *st, const char *hash, const vkat_spirv *module,
                              const vkat_sequence *sequence, vkat_error *err);

/* The module measured under `hash`: 1 with *out filled (vkat_spirv_free), 0 when the database holds none (a row
 * from before schema 5, or resumed from one), -1 on error: a database error, or VKAT_ERR_DB when the stored
 * bytes do not hash to `hash` (a damaged database). */
int vkat_measured_get_module(vkat_store *st, const char *hash, vkat_spirv *out, vkat_error *err);

/* The sequence measured under `hash`, for the configuration in `env` (problem, device and configuration applied,
 * as vkat_sequence_compile takes it): its steps evaluated from the space, its modules from the store, each step's
 * workgroup size reflected from its module. 1, 0 or -1 as vkat_measured_get_module; also -1 (VKAT_ERR_DB) when
 * the stored list does not match the space's steps. Free *out with vkat_sequence_free, also after a failure. */
int vkat_measured_get_sequence(vkat_store *st, const char *hash, const vkat_space *s, const vkat_value *env,
                               vkat_sequence *out, vkat_error *err);

#endif
