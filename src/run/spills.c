/* spills.c — spills read from the driver's pipeline statistics (vkat_stats_spills in vkautotune.h). */
#include "util.h"
#include "vkautotune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* NVIDIA's Local Memory Size carries this in every pipeline, spilling or not (2^36 exactly with no local memory). */
#define NV_LOCAL_OFFSET (1ULL << 36)

int vkat_stats_spills(const char *stats, char *what, size_t what_size)
{
    int known = 0;
    for (const char *p = stats; p && *p;) {
        const char *eq = strchr(p, '='), *end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        if (!eq || eq > end) { /* not a Name=value item */
            p = *end ? end + 1 : end;
            continue;
        }
        while (*p == ' ')
            p++;
        char name[256]; /* a statistic's name is at most VK_MAX_DESCRIPTION_SIZE */
        size_t len = (size_t)(eq - p) < sizeof name ? (size_t)(eq - p) : sizeof name - 1;
        memcpy(name, p, len);
        name[len] = 0;
        char *num_end;
        unsigned long long v = strtoull(eq + 1, &num_end, 10);
        int numeric = num_end > eq + 1;
        if (numeric && !strcmp(name, "Local Memory Size")) {
            known = 1;
            unsigned long long bytes = v >= NV_LOCAL_OFFSET ? v - NV_LOCAL_OFFSET : v;
            if (bytes) {
                if (what && what_size)
                    snprintf(what, what_size, "Local Memory Size %llu bytes", bytes);
                return 1;
            }
        } else if (numeric && (vkat_contains_nocase(name, "spill") || vkat_contains_nocase(name, "scratch"))) {
            known = 1;
            if (v) {
                if (what && what_size)
                    snprintf(what, what_size, "%s %llu", name, v);
                return 1;
            }
        }
        p = *end ? end + 1 : end;
    }
    return known ? 0 : VKAT_SPILLS_UNKNOWN;
}
