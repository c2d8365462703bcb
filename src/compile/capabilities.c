/* capabilities.c — what a SPIR-V capability asks of the device. glslang declares a capability for each extension
 * and type a shader uses (`#extension GL_EXT_shader_16bit_storage` and a float16_t buffer: StorageBuffer16BitAccess);
 * a pipeline whose module declares one its device has not enabled is invalid usage, which some drivers run anyway
 * and others refuse or miscompile. `vkautotune init` writes the features a shader needs from this table. */
#include "capabilities.h"

#include <spirv/unified1/spirv.h>
#include <stddef.h>
#include <string.h>

const char *vkat_capability_feature(uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityFloat16:
        return "shaderFloat16";
    case SpvCapabilityFloat64:
        return "shaderFloat64";
    case SpvCapabilityInt64:
        return "shaderInt64";
    case SpvCapabilityInt16:
        return "shaderInt16";
    case SpvCapabilityInt8:
        return "shaderInt8";
    case SpvCapabilityStorageBuffer16BitAccess:
        return "storageBuffer16BitAccess";
    case SpvCapabilityStorageBuffer8BitAccess:
        return "storageBuffer8BitAccess";
    case SpvCapabilityBFloat16TypeKHR:
        return "shaderBFloat16Type";
    case SpvCapabilityCooperativeMatrixKHR:
        return "cooperativeMatrix";
    case SpvCapabilityAtomicFloat32AddEXT: /* buffers' (shared memory's alone is rarer: a device with only that is
                                              refused, where a space can still list shaderSharedFloat32AtomicAdd) */
        return "shaderBufferFloat32AtomicAdd";
    case SpvCapabilityInt64Atomics: /* buffers' too (the capability covers shared memory as well) */
        return "shaderBufferInt64Atomics";
    case SpvCapabilityStorageImageExtendedFormats:
        return "shaderStorageImageExtendedFormats";
    default:
        return NULL;
    }
}

/* Adds name to out[0..*n) unless it is there. */
static void add_once(const char **out, size_t *n, size_t max, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp(out[i], name))
            return;
    if (*n < max)
        out[(*n)++] = name;
}

size_t vkat_spirv_features(const vkat_spirv_info *si, const char **out, size_t max)
{
    size_t n = 0;
    for (uint32_t i = 0; i < si->capability_count; i++) {
        const char *f = vkat_capability_feature(si->capabilities[i]);
        if (f)
            add_once(out, &n, max, f);
    }
    if (si->uses_local_size_id)
        add_once(out, &n, max, "maintenance4");
    if (si->needs_scalar_layout)
        add_once(out, &n, max, "scalarBlockLayout");
    return n;
}

int vkat_capability_subgroup_operation(uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityGroupNonUniform: return 0;
    case SpvCapabilityGroupNonUniformVote: return 1;
    case SpvCapabilityGroupNonUniformArithmetic: return 2;
    case SpvCapabilityGroupNonUniformBallot: return 3;
    case SpvCapabilityGroupNonUniformShuffle: return 4;
    case SpvCapabilityGroupNonUniformShuffleRelative: return 5;
    case SpvCapabilityGroupNonUniformClustered: return 6;
    case SpvCapabilityGroupNonUniformQuad: return 7;
    default: return -1;
    }
}

const char *vkat_capability_need(uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityUniformAndStorageBuffer16BitAccess:
        return "16-bit uniform buffer access (uniformAndStorageBuffer16BitAccess)";
    case SpvCapabilityUniformAndStorageBuffer8BitAccess:
        return "8-bit uniform buffer access (uniformAndStorageBuffer8BitAccess)";
    default:
        return NULL;
    }
}
