/* device_key.c — device identity (device_key.h): the key a device is stored under, and when two are the same. */
#include "device_key.h"

#include <stdio.h>
#include <string.h>

static void format_uuid(const uint8_t u[16], char out[40])
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[u[i] >> 4];
        out[o++] = hex[u[i] & 15];
    }
    out[o] = 0;
}

void vkat_device_key_from_info(const vkat_device_info *info, vkat_device_key *key)
{
    memset(key, 0, sizeof *key);
    snprintf(key->name, sizeof key->name, "%s", info->name);
    snprintf(key->vendor, sizeof key->vendor, "%s", info->vendor ? info->vendor : "unknown");
    key->vendor_id = info->vendor_id;
    key->device_id = info->device_id;
    key->driver_version = info->driver_version;
    snprintf(key->driver_version_string, sizeof key->driver_version_string, "%s", info->driver_version_string);
    format_uuid(info->driver_uuid, key->driver_uuid);
    format_uuid(info->pipeline_cache_uuid, key->pipeline_cache_uuid);
}

int vkat_device_key_equal(const vkat_device_key *a, const vkat_device_key *b)
{
    return strcmp(a->name, b->name) == 0 && a->vendor_id == b->vendor_id && a->device_id == b->device_id &&
           a->driver_version == b->driver_version && strcmp(a->driver_uuid, b->driver_uuid) == 0;
}

int vkat_device_identical(const vkat_device_info *a, const vkat_device_info *b)
{
    vkat_device_key ka, kb;
    vkat_device_key_from_info(a, &ka);
    vkat_device_key_from_info(b, &kb);
    return vkat_device_key_equal(&ka, &kb);
}
