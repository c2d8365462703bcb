/* device.c — loads Vulkan (volk), enumerates physical devices, reads what a tuner needs to know about each,
 * picks devices for --device and creates logical devices with the features shaders may use.
 * It must not print: `vkautotune devices` formats vkat_device_info in the CLI. */
#include "atomic_file.h"
#include "device_features.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Extensions worth reporting and enabling when present. */
static const char *const tuning_extensions[] = {
    "VK_KHR_cooperative_matrix",
    "VK_NV_cooperative_matrix2",
    "VK_NV_cooperative_matrix",
    "VK_KHR_shader_bfloat16",
    "VK_KHR_shader_float16_int8",
    "VK_KHR_16bit_storage",
    "VK_KHR_8bit_storage",
    "VK_EXT_subgroup_size_control",
    "VK_KHR_shader_integer_dot_product",
    "VK_KHR_pipeline_executable_properties",
    "VK_KHR_calibrated_timestamps",
    "VK_EXT_calibrated_timestamps",
    "VK_EXT_memory_budget",
    "VK_EXT_pci_bus_info",
    "VK_KHR_vulkan_memory_model",
    "VK_KHR_shader_subgroup_extended_types",
    "VK_EXT_shader_atomic_float",
    "VK_KHR_maintenance4",
    "VK_KHR_shader_expect_assume",
    "VK_KHR_shader_subgroup_rotate",
    "VK_NV_shader_sm_builtins",
    "VK_AMD_shader_core_properties",
};

/* Extensions enabled on the logical device when offered (all needed by features below or harmless). */
static const char *const enable_extensions[] = {
    "VK_KHR_cooperative_matrix",         "VK_NV_cooperative_matrix2",    "VK_KHR_shader_bfloat16",
    "VK_KHR_pipeline_executable_properties", "VK_EXT_memory_budget",    "VK_KHR_shader_integer_dot_product",
    "VK_KHR_shader_subgroup_rotate",     "VK_KHR_shader_expect_assume",  "VK_EXT_shader_atomic_float",
};

int vkat_device_meets(const vkat_device_info *info, const char *const *extensions, size_t extension_count,
                      const char *const *features, size_t feature_count, char *missing, size_t missing_size)
{
    for (size_t i = 0; i < extension_count; i++)
        if (!vkat_device_has_extension(info, extensions[i])) {
            snprintf(missing, missing_size, "%s", extensions[i]);
            return 0;
        }
    for (size_t i = 0; i < feature_count; i++) {
        int f = vkat_feature_index(features[i]);
        if (f < 0 || !info->feature[f]) {
            snprintf(missing, missing_size, "%s", features[i]);
            return 0;
        }
    }
    return 1;
}

int vkat_device_has_extension(const vkat_device_info *info, const char *extension)
{
    for (const char *p = info->extensions; *p; p += strlen(p) + 1)
        if (!strcmp(p, extension))
            return 1;
    return 0;
}

/* ---- Decoding --------------------------------------------------------------------------------------------- */

const char *vkat_vendor_name(uint32_t id)
{
    switch (id) {
    case 0x10DE: return "NVIDIA";
    case 0x1002: return "AMD";
    case 0x1022: return "AMD";
    case 0x8086: return "Intel";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "Imagination";
    case 0x106B: return "Apple";
    case 0x14E4: return "Broadcom";
    case 0x10005: return "Mesa";
    case 0x10002: return "VeriSilicon";
    case 0x10004: return "Codeplay";
    default: return "unknown";
    }
}

static const char *device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

/* NVIDIA packs 10.8.8.6 bits; Intel's Windows driver 18.14; everyone else uses the Vulkan version macros. */
static void decode_driver_version(uint32_t vendor, uint32_t v, char *out, size_t size)
{
    if (vendor == 0x10DE)
        snprintf(out, size, "%u.%u.%u.%u", (v >> 22) & 0x3ff, (v >> 14) & 0xff, (v >> 6) & 0xff, v & 0x3f);
#ifdef _WIN32
    else if (vendor == 0x8086)
        snprintf(out, size, "%u.%u", v >> 14, v & 0x3fff);
#endif
    else
        snprintf(out, size, "%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

static const char *component_name(VkComponentTypeKHR t, vkat_elem_type *elem)
{
    *elem = VKAT_ELEM_TYPE_COUNT;
    switch ((int)t) {
    case VK_COMPONENT_TYPE_FLOAT16_KHR: *elem = VKAT_FLOAT16; return "float16";
    case VK_COMPONENT_TYPE_FLOAT32_KHR: *elem = VKAT_FLOAT32; return "float32";
    case VK_COMPONENT_TYPE_FLOAT64_KHR: return "float64";
    case VK_COMPONENT_TYPE_SINT8_KHR: *elem = VKAT_INT8; return "int8";
    case VK_COMPONENT_TYPE_SINT16_KHR: return "int16";
    case VK_COMPONENT_TYPE_SINT32_KHR: *elem = VKAT_INT32; return "int32";
    case VK_COMPONENT_TYPE_SINT64_KHR: return "int64";
    case VK_COMPONENT_TYPE_UINT8_KHR: *elem = VKAT_UINT8; return "uint8";
    case VK_COMPONENT_TYPE_UINT16_KHR: return "uint16";
    case VK_COMPONENT_TYPE_UINT32_KHR: *elem = VKAT_UINT32; return "uint32";
    case VK_COMPONENT_TYPE_UINT64_KHR: return "uint64";
    case VK_COMPONENT_TYPE_BFLOAT16_KHR: *elem = VKAT_BFLOAT16; return "bfloat16";
    case VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT: return "float_e4m3";
    case VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT: return "float_e5m2";
    case VK_COMPONENT_TYPE_SINT8_PACKED_NV: return "int8_packed";
    case VK_COMPONENT_TYPE_UINT8_PACKED_NV: return "uint8_packed";
    default: return "unknown";
    }
}

static const char *scope_name(VkScopeKHR s)
{
    switch (s) {
    case VK_SCOPE_DEVICE_KHR: return "device";
    case VK_SCOPE_WORKGROUP_KHR: return "workgroup";
    case VK_SCOPE_SUBGROUP_KHR: return "subgroup";
    case VK_SCOPE_QUEUE_FAMILY_KHR: return "queue-family";
    default: return "unknown";
    }
}

/* ---- Reading one physical device ------------------------------------------------------------------------- */

static int ext_in(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(exts[i].extensionName, name))
            return 1;
    return 0;
}

static void read_extensions(VkPhysicalDevice pd, vkat_device_info *d, VkExtensionProperties **all, uint32_t *n)
{
    *n = 0;
    *all = NULL;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, n, NULL) != VK_SUCCESS || *n == 0)
        return;
    *all = calloc(*n, sizeof **all);
    if (!*all || vkEnumerateDeviceExtensionProperties(pd, NULL, n, *all) != VK_SUCCESS) {
        *n = 0;
        return;
    }
    size_t used = 0;
    for (size_t i = 0; i < VKAT_COUNTOF(tuning_extensions); i++) {
        size_t len = strlen(tuning_extensions[i]) + 1;
        if (ext_in(*all, *n, tuning_extensions[i]) && used + len + 1 < sizeof d->extensions) {
            memcpy(d->extensions + used, tuning_extensions[i], len);
            used += len;
        }
    }
    d->extensions[used] = 0;
}

static void read_coopmat_shapes(VkPhysicalDevice pd, vkat_device_info *d)
{
    if (!d->feature[VKAT_FEATURE_COOPMAT] || !vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)
        return;
    uint32_t n = 0;
    if (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, NULL) != VK_SUCCESS || n == 0)
        return;
    VkCooperativeMatrixPropertiesKHR *p = calloc(n, sizeof *p);
    if (!p)
        return;
    for (uint32_t i = 0; i < n; i++)
        p[i].sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR;
    if (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, &n, p) == VK_SUCCESS) {
        for (uint32_t i = 0; i < n && d->coopmat_count < VKAT_MAX_COOPMAT_SHAPES; i++) {
            vkat_coopmat_shape *s = &d->coopmat[d->coopmat_count++];
            s->m = p[i].MSize;
            s->n = p[i].NSize;
            s->k = p[i].KSize;
            s->a_name = component_name(p[i].AType, &s->a_type);
            s->b_name = component_name(p[i].BType, &s->b_type);
            s->c_name = component_name(p[i].CType, &s->c_type);
            s->result_name = component_name(p[i].ResultType, &s->result_type);
            s->saturating = p[i].saturatingAccumulation;
            s->scope = scope_name(p[i].scope);
        }
    }
    free(p);
}

/* Every feature structure `d` knows, chained and filled with what it supports: valid for vkGetPhysicalDeviceFeatures2
 * and, with those supported bits, for vkCreateDevice. `d` needs its api_version and extensions filled. */
static void query_features(VkPhysicalDevice pd, const vkat_device_info *d, vkat_feature_chain *fs)
{
    vkat_feature_chain_init(fs, vkat_feature_structs_known(d));
    vkGetPhysicalDeviceFeatures2(pd, &fs->core);
}

/* Identity, driver, limits and subgroup sizes, from vkGetPhysicalDeviceProperties2. */
static void read_properties(VkPhysicalDevice pd, const VkExtensionProperties *exts, uint32_t next,
                            vkat_device_info *d)
{
    VkPhysicalDeviceProperties base;
    vkGetPhysicalDeviceProperties(pd, &base);
    uint32_t api = base.apiVersion;

    /* Only chain structures the device knows: their core version or extension must be there. */
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceVulkan11Properties p11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceDriverProperties pdrv = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceIDProperties pid = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlProperties psub = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceMaintenance4Properties pm4 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
    VkPhysicalDevicePCIBusInfoPropertiesEXT ppci = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV psm = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    VkPhysicalDeviceShaderCorePropertiesAMD pcore = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
    void **tail = &p2.pNext;
#define CHAIN(s)                                                                                                 \
    do {                                                                                                         \
        *tail = &(s);                                                                                            \
        tail = &(s).pNext;                                                                                       \
    } while (0)
    int v12 = api >= VK_API_VERSION_1_2, v13 = api >= VK_API_VERSION_1_3;
    int has_pci = ext_in(exts, next, "VK_EXT_pci_bus_info");
    if (v12)
        CHAIN(p11);
    if (v12 || ext_in(exts, next, "VK_KHR_driver_properties"))
        CHAIN(pdrv);
    CHAIN(pid);
    if (v13 || ext_in(exts, next, "VK_EXT_subgroup_size_control"))
        CHAIN(psub);
    if (v13 || ext_in(exts, next, "VK_KHR_maintenance4"))
        CHAIN(pm4);
    if (has_pci)
        CHAIN(ppci);
    if (ext_in(exts, next, "VK_NV_shader_sm_builtins"))
        CHAIN(psm);
    if (ext_in(exts, next, "VK_AMD_shader_core_properties"))
        CHAIN(pcore);
    vkGetPhysicalDeviceProperties2(pd, &p2);

#undef CHAIN
    snprintf(d->name, sizeof d->name, "%s", base.deviceName);
    d->vendor_id = base.vendorID;
    d->device_id = base.deviceID;
    d->vendor = vkat_vendor_name(base.vendorID);
    d->device_type = device_type_name(base.deviceType);
    snprintf(d->driver_name, sizeof d->driver_name, "%s", pdrv.driverName);
    snprintf(d->driver_info, sizeof d->driver_info, "%s", pdrv.driverInfo);
    d->driver_version = base.driverVersion;
    decode_driver_version(base.vendorID, base.driverVersion, d->driver_version_string,
                          sizeof d->driver_version_string);
    d->api_version = api;
    snprintf(d->api_version_string, sizeof d->api_version_string, "%u.%u.%u", VK_API_VERSION_MAJOR(api),
             VK_API_VERSION_MINOR(api), VK_API_VERSION_PATCH(api));
    memcpy(d->device_uuid, pid.deviceUUID, 16);
    memcpy(d->driver_uuid, pid.driverUUID, 16);
    memcpy(d->pipeline_cache_uuid, base.pipelineCacheUUID, 16);
    if (has_pci) {
        d->has_pci = 1;
        d->pci_domain = ppci.pciDomain;
        d->pci_bus = ppci.pciBus;
        d->pci_device = ppci.pciDevice;
        d->pci_function = ppci.pciFunction;
    }

    const VkPhysicalDeviceLimits *l = &base.limits;
    d->subgroup_size = p11.subgroupSize;
    d->min_subgroup_size = psub.minSubgroupSize ? psub.minSubgroupSize : p11.subgroupSize;
    d->max_subgroup_size = psub.maxSubgroupSize ? psub.maxSubgroupSize : p11.subgroupSize;
    d->subgroup_operations = p11.subgroupSupportedOperations;
    d->subgroup_in_compute = (p11.subgroupSupportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
    memcpy(d->max_workgroup_size, l->maxComputeWorkGroupSize, sizeof d->max_workgroup_size);
    memcpy(d->max_workgroup_count, l->maxComputeWorkGroupCount, sizeof d->max_workgroup_count);
    d->max_workgroup_invocations = l->maxComputeWorkGroupInvocations;
    d->max_shared_memory = l->maxComputeSharedMemorySize;
    d->max_storage_buffer_range = l->maxStorageBufferRange;
    d->max_uniform_buffer_range = l->maxUniformBufferRange;
    d->max_push_constants_size = l->maxPushConstantsSize;
    d->max_bound_descriptor_sets = l->maxBoundDescriptorSets;
    d->max_buffer_size = pm4.maxBufferSize;
    /* Persistent kernels size their grid by these (e.g. stream-K GEMM); both structures stay 0 when not chained. */
    d->compute_units = psm.shaderSMCount ? psm.shaderSMCount
                                         : pcore.shaderEngineCount * pcore.shaderArraysPerEngineCount *
                                               pcore.computeUnitsPerShaderArray;
    d->timestamp_period = l->timestampPeriod;
}

/* The queue family every run submits to. */
static void pick_compute_queue(VkPhysicalDevice pd, vkat_device_info *d)
{
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof *q);
    d->compute_queue_family = UINT32_MAX;
    if (q) {
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
        /* Prefer a compute queue with timestamps; among those, a compute-only one (less contention). */
        int best = -1;
        for (uint32_t i = 0; i < nq; i++) {
            if (!(q[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
                continue;
            int score = (q[i].timestampValidBits > 0) * 2 + !(q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT);
            if (best < 0 || score > best) {
                best = score;
                d->compute_queue_family = i;
                d->timestamp_valid_bits = q[i].timestampValidBits;
            }
        }
        free(q);
    }
}

/* Memory heaps, with the driver's budget where VK_EXT_memory_budget gives one. */
static void read_memory_heaps(VkPhysicalDevice pd, const VkExtensionProperties *exts, uint32_t next,
                              vkat_device_info *d)
{
    VkPhysicalDeviceMemoryProperties2 m2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
    VkPhysicalDeviceMemoryBudgetPropertiesEXT mb = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    if (ext_in(exts, next, "VK_EXT_memory_budget"))
        m2.pNext = &mb;
    vkGetPhysicalDeviceMemoryProperties2(pd, &m2);
    d->heap_count = m2.memoryProperties.memoryHeapCount;
    if (d->heap_count > VKAT_MAX_HEAPS)
        d->heap_count = VKAT_MAX_HEAPS;
    for (uint32_t i = 0; i < d->heap_count; i++) {
        d->heaps[i].size = m2.memoryProperties.memoryHeaps[i].size;
        d->heaps[i].device_local = !!(m2.memoryProperties.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
        d->heaps[i].budget = mb.heapBudget[i];
    }
}

static void read_device(VkPhysicalDevice pd, uint32_t index, vkat_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    VkExtensionProperties *exts;
    uint32_t next;
    read_extensions(pd, d, &exts, &next);
    read_properties(pd, exts, next, d);
    vkat_feature_chain fs;
    query_features(pd, d, &fs);
    pick_compute_queue(pd, d);
    read_memory_heaps(pd, exts, next, d);
    vkat_feature_chain_read(&fs, vkat_feature_structs_known(d), d->feature);
    read_coopmat_shapes(pd, d);
    free(exts);
}

/* ---- Instance ------------------------------------------------------------------------------------------------ */

vkat_result vkat_instance_create(vkat_instance **out, vkat_error *err)
{
    *out = NULL;
    if (volkInitialize() != VK_SUCCESS)
        return vkat_fail(err, VKAT_ERR_NO_LOADER, NULL, 0,
                         "no Vulkan loader: libvulkan.so.1 could not be loaded (install libvulkan1 and a driver, "
                         "e.g. mesa-vulkan-drivers)");
    uint32_t loader_api = volkGetInstanceVersion();
    if (loader_api < VK_API_VERSION_1_1)
        return vkat_fail(err, VKAT_ERR_NO_LOADER, NULL, 0, "the Vulkan loader supports only Vulkan 1.0; 1.1 or later is needed");

    vkat_instance *inst = calloc(1, sizeof *inst);
    if (!inst)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");

    /* Portability enumeration lets MoltenVK-style drivers show up; enabled only when the loader has it. */
    uint32_t next = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &next, NULL);
    VkExtensionProperties *iext = calloc(next ? next : 1, sizeof *iext);
    const char *enabled[2];
    uint32_t nenabled = 0;
    VkInstanceCreateFlags flags = 0;
    if (iext && vkEnumerateInstanceExtensionProperties(NULL, &next, iext) == VK_SUCCESS &&
        ext_in(iext, next, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        enabled[nenabled++] = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    free(iext);

    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vkautotune";
    app.applicationVersion = VK_MAKE_API_VERSION(0, 0, 1, 0);
    app.pEngineName = "vkautotune";
    app.apiVersion = loader_api >= VK_API_VERSION_1_4 ? VK_API_VERSION_1_4 : loader_api;
    VkInstanceCreateInfo ci = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.flags = flags;
    ci.pApplicationInfo = &app;
    ci.enabledExtensionCount = nenabled;
    ci.ppEnabledExtensionNames = enabled;
    VkResult vr = vkCreateInstance(&ci, NULL, &inst->instance);
    if (vr == VK_ERROR_INCOMPATIBLE_DRIVER) {
        free(inst);
        return vkat_fail(err, VKAT_ERR_NO_DEVICE, NULL, 0, "no Vulkan driver found (VK_ERROR_INCOMPATIBLE_DRIVER)");
    }
    if (vr != VK_SUCCESS) {
        free(inst);
        return vkat_fail_vk(err, vr, "vkCreateInstance");
    }
    volkLoadInstance(inst->instance);

    vr = vkEnumeratePhysicalDevices(inst->instance, &inst->count, NULL);
    if (vr != VK_SUCCESS || inst->count == 0) {
        vkat_instance_destroy(inst);
        return vkat_fail(err, VKAT_ERR_NO_DEVICE, NULL, 0,
                         "no Vulkan device found (no driver offers one; for a CPU device install mesa-vulkan-drivers)");
    }
    inst->physical = calloc(inst->count, sizeof *inst->physical);
    inst->info = calloc(inst->count, sizeof *inst->info);
    if (!inst->physical || !inst->info) {
        vkat_instance_destroy(inst);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    vr = vkEnumeratePhysicalDevices(inst->instance, &inst->count, inst->physical);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
        vkat_instance_destroy(inst);
        return vkat_fail_vk(err, vr, "vkEnumeratePhysicalDevices");
    }
    for (uint32_t i = 0; i < inst->count; i++)
        read_device(inst->physical[i], i, &inst->info[i]);
    *out = inst;
    return VKAT_OK;
}

void vkat_instance_destroy(vkat_instance *inst)
{
    if (!inst)
        return;
    if (inst->instance)
        vkDestroyInstance(inst->instance, NULL);
    free(inst->physical);
    free(inst->info);
    free(inst);
}

uint32_t vkat_instance_device_count(const vkat_instance *inst)
{
    return inst ? inst->count : 0;
}

const vkat_device_info *vkat_instance_device(const vkat_instance *inst, uint32_t index)
{
    return inst && index < inst->count ? &inst->info[index] : NULL;
}

/* ---- Choosing devices ---------------------------------------------------------------------------------------- */

static int type_rank(const char *type)
{
    if (!strcmp(type, "discrete")) return 0;
    if (!strcmp(type, "integrated")) return 1;
    if (!strcmp(type, "virtual")) return 2;
    if (!strcmp(type, "other")) return 3;
    return 4; /* cpu */
}

vkat_result vkat_select_devices(const vkat_instance *inst, const char *spec, uint32_t *out, uint32_t cap,
                                uint32_t *count, vkat_error *err)
{
    *count = 0;
    if (cap == 0)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "no room for devices");
    if (!spec || !*spec) {
        uint32_t best = 0;
        for (uint32_t i = 1; i < inst->count; i++)
            if (type_rank(inst->info[i].device_type) < type_rank(inst->info[best].device_type))
                best = i;
        out[(*count)++] = best;
        return VKAT_OK;
    }
    if (strchr(spec, ',')) {
        /* A list: each element an index or a name, in order; an index may repeat (two lanes on one GPU, which
         * tests of the shared search use). */
        char buf[256];
        snprintf(buf, sizeof buf, "%s", spec);
        for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            uint32_t got = 0;
            vkat_result r = vkat_select_devices(inst, tok, out + *count, cap - *count, &got, err);
            if (r != VKAT_OK)
                return r;
            *count += got;
            if (*count >= cap)
                break;
        }
        return VKAT_OK;
    }
    if (!strcmp(spec, "all")) {
        for (uint32_t i = 0; i < inst->count && *count < cap; i++)
            out[(*count)++] = i;
        return VKAT_OK;
    }
    char *end;
    unsigned long idx = strtoul(spec, &end, 10);
    if (*spec >= '0' && *spec <= '9' && *end == 0) {
        if (idx >= inst->count)
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "--device %lu: only %u device(s) found (0..%u)", idx,
                             inst->count, inst->count - 1);
        out[(*count)++] = (uint32_t)idx;
        return VKAT_OK;
    }
    for (uint32_t i = 0; i < inst->count && *count < cap; i++)
        if (vkat_contains_nocase(inst->info[i].name, spec))
            out[(*count)++] = i;
    if (*count == 0)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0,
                         "--device '%s' matches no device (see `vkautotune devices`)", spec);
    return VKAT_OK;
}

/* ---- Logical devices ------------------------------------------------------------------------------------------- */

vkat_result vkat_gpu_create(const vkat_instance *inst, uint32_t index, vkat_gpu **out, vkat_error *err)
{
    *out = NULL;
    if (index >= inst->count)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "device index %u out of range", index);
    const vkat_device_info *d = &inst->info[index];
    if (d->compute_queue_family == UINT32_MAX)
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "%s has no compute queue", d->name);
    vkat_gpu *g = calloc(1, sizeof *g);
    if (!g)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    g->info = d;
    g->physical = inst->physical[index];
    g->queue_family = d->compute_queue_family;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &g->memory);

    const char *exts[VKAT_COUNTOF(enable_extensions)];
    uint32_t next = 0;
    for (size_t i = 0; i < VKAT_COUNTOF(enable_extensions); i++)
        if (vkat_device_has_extension(d, enable_extensions[i]))
            exts[next++] = enable_extensions[i];

    /* Read what is supported, then enable exactly that: every structure chained is one the device knows. */
    vkat_feature_chain fs;
    query_features(g->physical, d, &fs);
    VkPhysicalDeviceFeatures2 *f2 = &fs.core;
    /* Robustness and sparse features cost speed and tuning never needs them. */
    f2->features.robustBufferAccess = VK_FALSE;
    f2->features.sparseBinding = VK_FALSE;
    f2->features.sparseResidencyBuffer = VK_FALSE;
    f2->features.sparseResidencyImage2D = VK_FALSE;
    f2->features.sparseResidencyImage3D = VK_FALSE;
    f2->features.sparseResidency2Samples = VK_FALSE;
    f2->features.sparseResidency4Samples = VK_FALSE;
    f2->features.sparseResidency8Samples = VK_FALSE;
    f2->features.sparseResidency16Samples = VK_FALSE;
    f2->features.sparseResidencyAliased = VK_FALSE;
    fs.v13.robustImageAccess = VK_FALSE;
    g->float16 = fs.v12.shaderFloat16;
    g->float64 = f2->features.shaderFloat64;
    g->pipeline_statistics = fs.pipeline_exec.pipelineExecutableInfo;

    vkat_result r = vkat_gpu_open_device(g, f2, exts, next, err);
    if (r != VKAT_OK) {
        free(g);
        return r;
    }
    VkPipelineCacheCreateInfo pcci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    if (vkCreatePipelineCache(g->device, &pcci, NULL, &g->pipeline_cache) != VK_SUCCESS)
        g->pipeline_cache = VK_NULL_HANDLE;
    *out = g;
    return VKAT_OK;
}

vkat_result vkat_gpu_open_device(vkat_gpu *g, const VkPhysicalDeviceFeatures2 *features,
                                 const char *const *extensions, uint32_t extension_count, vkat_error *err)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = g->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = features;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = extension_count;
    dci.ppEnabledExtensionNames = extension_count ? extensions : NULL;
    VkResult vr = vkCreateDevice(g->physical, &dci, NULL, &g->device);
    if (vr != VK_SUCCESS) {
        g->device = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateDevice");
    }
    vkGetDeviceQueue(g->device, g->queue_family, 0, &g->queue);
    return VKAT_OK;
}

/* The header every pipeline cache starts with (Vulkan spec, "Pipeline Cache"): length, version, vendor, device,
 * pipelineCacheUUID. A file from another device or driver is ignored rather than handed to the driver. */
static int cache_header_matches(const vkat_device_info *d, const unsigned char *data, size_t size)
{
    if (size < 32)
        return 0;
    uint32_t words[4];
    memcpy(words, data, sizeof words);
    return words[0] >= 32 && words[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && words[2] == d->vendor_id &&
           words[3] == d->device_id && memcmp(data + 16, d->pipeline_cache_uuid, 16) == 0;
}

vkat_result vkat_gpu_load_pipeline_cache(vkat_gpu *gpu, const char *path, vkat_error *err)
{
    size_t size = 0;
    char *data = vkat_read_file(path, &size);
    if (!data)
        return VKAT_OK; /* none yet */
    vkat_result r = VKAT_OK;
    if (cache_header_matches(gpu->info, (const unsigned char *)data, size)) {
        VkPipelineCacheCreateInfo pcci = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
        pcci.initialDataSize = size;
        pcci.pInitialData = data;
        VkPipelineCache cache;
        VkResult vr = vkCreatePipelineCache(gpu->device, &pcci, NULL, &cache);
        if (vr == VK_SUCCESS) {
            if (gpu->pipeline_cache)
                vkDestroyPipelineCache(gpu->device, gpu->pipeline_cache, NULL);
            gpu->pipeline_cache = cache;
            vkat_log(VKAT_LOG_DEBUG, "pipeline cache: loaded %zu bytes from %s", size, path);
        } else if (vr == VK_ERROR_OUT_OF_HOST_MEMORY) {
            r = vkat_fail_vk(err, vr, "vkCreatePipelineCache");
        }
    } else {
        vkat_log(VKAT_LOG_DEBUG, "pipeline cache: %s is for another device or driver; starting empty", path);
    }
    free(data);
    return r;
}

vkat_result vkat_gpu_save_pipeline_cache(vkat_gpu *gpu, const char *path, vkat_error *err)
{
    if (!gpu->pipeline_cache)
        return VKAT_OK;
    size_t size = 0;
    VkResult vr = vkGetPipelineCacheData(gpu->device, gpu->pipeline_cache, &size, NULL);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkGetPipelineCacheData");
    void *data = malloc(size ? size : 1);
    if (!data)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vr = vkGetPipelineCacheData(gpu->device, gpu->pipeline_cache, &size, data);
    vkat_result r = VKAT_OK;
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
        r = vkat_fail_vk(err, vr, "vkGetPipelineCacheData");
    } else {
        /* A temporary name of its own per writer (process and call; atomic_file.c), so that processes sharing a
         * cache directory, or two lanes of one process, never write into each other's file; rename() then
         * replaces atomically. */
        vkat_error werr = {0};
        if (vkat_write_file_atomic(path, data, size, &werr) != VKAT_OK)
            r = vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot write the pipeline cache: %s", werr.message);
    }
    free(data);
    return r;
}

void vkat_gpu_destroy(vkat_gpu *gpu)
{
    if (!gpu)
        return;
    if (gpu->device) {
        vkDeviceWaitIdle(gpu->device);
        if (gpu->pipeline_cache)
            vkDestroyPipelineCache(gpu->device, gpu->pipeline_cache, NULL);
        vkDestroyDevice(gpu->device, NULL);
    }
    free(gpu);
}

vkat_result vkat_gpu_make_buffer(vkat_gpu *gpu, uint64_t size, VkBufferUsageFlags usage,
                                 const VkMemoryPropertyFlags *prefer, size_t prefer_count, VkBuffer *buf,
                                 VkDeviceMemory *mem, vkat_error *err)
{
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VkResult vr = vkCreateBuffer(gpu->device, &bci, NULL, buf);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu->device, *buf, &req);
    int type = -1;
    for (size_t i = 0; i < prefer_count && type < 0; i++)
        type = vkat_gpu_memory_type(gpu, req.memoryTypeBits, prefer[i]);
    if (type < 0)
        return vkat_fail(err, VKAT_ERR_VULKAN, NULL, 0, "no suitable memory type for a %llu-byte buffer",
                         (unsigned long long)size);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)type;
    vr = vkAllocateMemory(gpu->device, &mai, NULL, mem);
    if (vr == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0, "out of device memory allocating %llu bytes",
                         (unsigned long long)size);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkAllocateMemory");
    vr = vkBindBufferMemory(gpu->device, *buf, *mem, 0);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkBindBufferMemory");
    return VKAT_OK;
}

int vkat_gpu_memory_type(const vkat_gpu *gpu, uint32_t type_bits, VkMemoryPropertyFlags required)
{
    for (uint32_t i = 0; i < gpu->memory.memoryTypeCount; i++)
        if ((type_bits & (1u << i)) && (gpu->memory.memoryTypes[i].propertyFlags & required) == required)
            return (int)i;
    return -1;
}
