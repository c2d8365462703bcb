/* export_sequence.h — internal: the manifest's view of a sequence of dispatches (export_sequence.c), and the
 * pieces of export.c it shares. */
#ifndef VKAT_EXPORT_SEQUENCE_H
#define VKAT_EXPORT_SEQUENCE_H

#include "export.h"

#include <json-c/json.h>

/* File name of module `index` of a sequence whose first module is `first` ("k-dev-m64.spv"): `first` itself
 * for 0, else "k-dev-m64-m1.spv", ... */
void vkat_export_module_name(const char *first, size_t index, char *buf, size_t size);

/* The manifest's `passes` array of a sequence item (docs/manifest.md); `first` is its first module's file. */
json_object *vkat_export_passes_json(const vkat_export_item *it, const char *first);

/* export.c: a push-constant block as the manifest lists it. */
json_object *vkat_export_push_json(const vkat_space *s, const uint8_t *block);

#endif
