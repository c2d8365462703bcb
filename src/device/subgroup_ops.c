/* subgroup_ops.c — the subgroup operation classes a device lists (subgroupSupportedOperations), by name. */
#include "vkautotune.h"

#include <stddef.h>

/* Indexed by the bit's position in VkSubgroupFeatureFlagBits: names as `vkautotune devices` prints them and as
 * space constraints name them (device.subgroup_NAME). */
static const char *const op_names[] = {"basic",   "vote",    "arithmetic", "ballot",
                                       "shuffle", "shuffle_relative", "clustered", "quad"};

const char *vkat_subgroup_operation_name(unsigned bit)
{
    return bit < sizeof op_names / sizeof op_names[0] ? op_names[bit] : NULL;
}
