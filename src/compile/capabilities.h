/* capabilities.h — what a SPIR-V capability asks of the device: a [kernel] feature, or a property to check. */
#ifndef VKAT_CAPABILITIES_H
#define VKAT_CAPABILITIES_H

#include "compile.h"

#include <stddef.h>
#include <stdint.h>

/* The Vulkan feature (as [kernel] features names it) a module declaring capability `cap` needs enabled, or NULL. */
const char *vkat_capability_feature(uint32_t cap);

/* For a capability that needs the device's support but no [kernel] feature and that vkautotune does not check
 * (64-bit atomics, float atomics, 16/8-bit uniform access): what it needs, in words; NULL for the others. */
const char *vkat_capability_need(uint32_t cap);

/* The subgroup operation class a GroupNonUniform* capability needs the device to list in subgroupSupportedOperations
 * (the bit's position in VkSubgroupFeatureFlagBits, named by vkat_subgroup_operation_name), or -1. */
int vkat_capability_subgroup_operation(uint32_t cap);

/* The features (as [kernel] features names them) the module `si` needs enabled: its capabilities', maintenance4
 * for a workgroup size given by id, scalarBlockLayout for a block laid out by the scalar rules.
 * Each once, into out (at most max); returns how many. */
size_t vkat_spirv_features(const vkat_spirv_info *si, const char **out, size_t max);

#endif
