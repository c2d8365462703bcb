/* device_profile.h — internal: a device described by a file instead of present on this machine, so that spaces can
 * be counted (--dry-run) and variants compiled for a GPU one does not have. */
#ifndef VKAT_DEVICE_PROFILE_H
#define VKAT_DEVICE_PROFILE_H

#include "vkautotune.h"

/* Reads device `select` of a file written by `vkautotune devices --json` (NULL or "": the first; a decimal index
 * into the file's list; else a case-insensitive substring of a device name) into *out: name, vendor, type, Vulkan
 * version, limits, subgroup sizes, features, cooperative-matrix shapes and extensions, everything a space's
 * constraints and requirements read. Errors name the file (VKAT_ERR_IO, VKAT_ERR_PARSE, VKAT_ERR_USAGE). */
vkat_result vkat_device_profile_load(const char *path, const char *select, vkat_device_info *out, vkat_error *err);

#endif
