/* vkautotune.h — public interface of the vkautotune library.
 *
 * The library tunes Vulkan compute shaders: it reads a search space, instantiates a GLSL template per
 * configuration, compiles it with glslang, validates it with SPIRV-Tools, measures it with timestamp queries,
 * checks it against a reference and stores every result. The CLI (src/cli/main.c) sits on top.
 *
 * Contract for every function here unless its comment says otherwise:
 * - Fallible functions return a vkat_result (VKAT_OK == 0) and, when `err` is not NULL, fill it.
 * - The library never prints to stdout or stderr and never exits; diagnostics go to the log callback.
 * - Objects returned through `**out` are owned by the caller and released with their destroy function;
 *   destroy functions accept NULL.
 * - Not thread-safe unless stated: one object, one thread at a time.
 */
#ifndef VKAUTOTUNE_H
#define VKAUTOTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VKAT_VERSION_STRING "0.1.0"

/* ---- Results ------------------------------------------------------------------------------------------------
 * One list generates the enum and its message table (X-macro). The CLI maps results to exit codes
 * (docs/exit-codes.md): usage 2, user input 3, compile/validate 4, no Vulkan 5, device/run 6, database 7. */
#define VKAT_RESULT_LIST(X)                                                                                      \
    X(VKAT_OK, "ok")                                                                                             \
    X(VKAT_ERR_NOMEM, "out of memory")                                                                           \
    X(VKAT_ERR_USAGE, "bad command-line usage")                                                                  \
    X(VKAT_ERR_IO, "cannot read or write a file")                                                                \
    X(VKAT_ERR_SYNTAX, "syntax error")                                                                           \
    X(VKAT_ERR_SPACE, "invalid search space")                                                                    \
    X(VKAT_ERR_EXPR, "expression cannot be evaluated")                                                           \
    X(VKAT_ERR_EMPTY_SPACE, "no configuration satisfies the constraints")                                        \
    X(VKAT_ERR_TEMPLATE, "invalid shader template")                                                              \
    X(VKAT_ERR_COMPILE, "GLSL compilation failed")                                                               \
    X(VKAT_ERR_VALIDATE, "SPIR-V validation failed")                                                             \
    X(VKAT_ERR_NO_LOADER, "no Vulkan loader (libvulkan.so.1) found")                                             \
    X(VKAT_ERR_NO_DEVICE, "no Vulkan device found")                                                              \
    X(VKAT_ERR_UNSUPPORTED, "the device lacks a required extension or feature")                                  \
    X(VKAT_ERR_LIMITS, "the variant exceeds the device's limits")                                                \
    X(VKAT_ERR_VULKAN, "a Vulkan call failed")                                                                   \
    X(VKAT_ERR_DEVICE_LOST, "the Vulkan device was lost")                                                        \
    X(VKAT_ERR_TIMEOUT, "the GPU did not finish in time")                                                        \
    X(VKAT_ERR_CHECK, "the variant's output is wrong")                                                           \
    X(VKAT_ERR_DB, "results database error")                                                                     \
    X(VKAT_ERR_INTERNAL, "internal error")

typedef enum vkat_result {
#define VKAT_X_ENUM(name, msg) name,
    VKAT_RESULT_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_RESULT_COUNT
} vkat_result;

/* Static message for a result code; never NULL. */
const char *vkat_result_string(vkat_result r);

/* Error details. `file`/`line` name the user's file (space, template) when the error is about it, else file[0]
 * is 0 and line is 0. `vk_result` is the VkResult when a Vulkan call failed, else 0. `message` is one line
 * without the file:line prefix; vkat_error_format() writes "file:line: message". */
typedef struct vkat_error {
    vkat_result code;
    int vk_result;
    int line;
    char file[512];
    char message[1024];
} vkat_error;

/* Writes "file:line: message" (or "file: message", or "message") into buf; returns buf. */
const char *vkat_error_format(const vkat_error *err, char *buf, size_t size);

/* ---- Logging ------------------------------------------------------------------------------------------------ */
typedef enum vkat_log_level { VKAT_LOG_DEBUG, VKAT_LOG_INFO, VKAT_LOG_WARN, VKAT_LOG_ERROR } vkat_log_level;
typedef void (*vkat_log_fn)(void *user, vkat_log_level level, const char *message);

/* Sets the process-wide log callback (NULL: discard). Call before other threads use the library. */
void vkat_set_log(vkat_log_fn fn, void *user);

/* ---- Element types (buffers, push constants) ---------------------------------------------------------------- */
#define VKAT_ELEM_TYPE_LIST(X)                                                                                   \
    X(VKAT_FLOAT32, "float32", 4)                                                                                \
    X(VKAT_FLOAT16, "float16", 2)                                                                                \
    X(VKAT_BFLOAT16, "bfloat16", 2)                                                                              \
    X(VKAT_INT32, "int32", 4)                                                                                    \
    X(VKAT_UINT32, "uint32", 4)                                                                                  \
    X(VKAT_INT8, "int8", 1)                                                                                      \
    X(VKAT_UINT8, "uint8", 1)

typedef enum vkat_elem_type {
#define VKAT_X_ENUM(name, str, size) name,
    VKAT_ELEM_TYPE_LIST(VKAT_X_ENUM)
#undef VKAT_X_ENUM
        VKAT_ELEM_TYPE_COUNT
} vkat_elem_type;

/* Name as written in space files ("float32"), size in bytes; lookup returns -1 for an unknown name. */
const char *vkat_elem_type_name(vkat_elem_type t);
size_t vkat_elem_type_size(vkat_elem_type t);
int vkat_elem_type_from_name(const char *name);

/* ---- Devices ------------------------------------------------------------------------------------------------- */
typedef struct vkat_coopmat_shape {
    uint32_t m, n, k;
    vkat_elem_type a_type, b_type, c_type, result_type; /* VKAT_ELEM_TYPE_COUNT: a type this enum lacks */
    const char *a_name, *b_name, *c_name, *result_name; /* Vulkan component type names, e.g. "float16" */
    int saturating;
    const char *scope; /* "subgroup", "workgroup", ... */
} vkat_coopmat_shape;

typedef struct vkat_memory_heap {
    uint64_t size;
    int device_local;
    uint64_t budget; /* VK_EXT_memory_budget, 0 when unknown */
} vkat_memory_heap;

#define VKAT_MAX_HEAPS 16
#define VKAT_MAX_COOPMAT_SHAPES 64

/* The Vulkan features a space may require ("features =" in a space file, by structure member name): an index into
 * vkat_device_info.feature and vkat_feature_names. */
enum {
    VKAT_FEATURE_SHADER_FLOAT16, VKAT_FEATURE_SHADER_INT8, VKAT_FEATURE_SHADER_INT16, VKAT_FEATURE_SHADER_INT64,
    VKAT_FEATURE_SHADER_FLOAT64, VKAT_FEATURE_STORAGE_BUFFER_16BIT, VKAT_FEATURE_STORAGE_BUFFER_8BIT,
    VKAT_FEATURE_SUBGROUP_SIZE_CONTROL, VKAT_FEATURE_BFLOAT16, VKAT_FEATURE_BFLOAT16_COOPMAT, VKAT_FEATURE_COOPMAT,
    /* VK_NV_cooperative_matrix2 */
    VKAT_FEATURE_COOPMAT2_WORKGROUP_SCOPE, VKAT_FEATURE_COOPMAT2_FLEXIBLE_DIMENSIONS, VKAT_FEATURE_COOPMAT2_REDUCTIONS,
    VKAT_FEATURE_COOPMAT2_CONVERSIONS, VKAT_FEATURE_COOPMAT2_PER_ELEMENT, VKAT_FEATURE_COOPMAT2_TENSOR_ADDRESSING,
    VKAT_FEATURE_COOPMAT2_BLOCK_LOADS,
    VKAT_FEATURE_COUNT
};
/* Their names, indexed by VKAT_FEATURE_* and NULL-terminated. */
extern const char *const vkat_feature_names[VKAT_FEATURE_COUNT + 1];

/* Everything the tuner and `vkautotune devices` report about one physical device. Plain data. */
typedef struct vkat_device_info {
    uint32_t index; /* position in the loader's enumeration */
    char name[256];
    uint32_t vendor_id, device_id;
    const char *vendor;      /* "NVIDIA", "AMD", "Intel", "Mesa", ... or "unknown" */
    const char *device_type; /* "discrete", "integrated", "virtual", "cpu", "other" */
    char driver_name[256], driver_info[256];
    uint32_t driver_version;  /* raw */
    char driver_version_string[64]; /* decoded the vendor's way */
    uint32_t api_version;
    char api_version_string[32];
    uint8_t device_uuid[16], driver_uuid[16], pipeline_cache_uuid[16];
    int has_pci;
    uint32_t pci_domain, pci_bus, pci_device, pci_function;

    uint32_t subgroup_size, min_subgroup_size, max_subgroup_size;
    uint32_t max_workgroup_size[3], max_workgroup_invocations, max_workgroup_count[3];
    uint32_t max_shared_memory;          /* maxComputeSharedMemorySize, bytes */
    uint32_t max_storage_buffer_range;   /* bytes */
    uint32_t max_uniform_buffer_range;   /* bytes; 0 when unknown (a device profile): Vulkan guarantees 16384 */
    uint32_t max_push_constants_size;    /* bytes */
    uint32_t max_bound_descriptor_sets;
    uint64_t max_buffer_size;            /* maxBufferSize (Vulkan 1.3), 0 when unknown */
    uint32_t compute_units;              /* SMs (VK_NV_shader_sm_builtins) or CUs (VK_AMD_shader_core_properties); 0 when
                                            the device does not say */
    float timestamp_period;              /* nanoseconds per tick */
    uint32_t timestamp_valid_bits;       /* of the compute queue family; 0: no timestamps */
    uint32_t compute_queue_family;

    uint32_t heap_count;
    vkat_memory_heap heaps[VKAT_MAX_HEAPS];

    /* Features a space may require: feature[VKAT_FEATURE_*] is 1 where supported (names: vkat_feature_names). */
    unsigned char feature[VKAT_FEATURE_COUNT];

    uint32_t coopmat_count;
    vkat_coopmat_shape coopmat[VKAT_MAX_COOPMAT_SHAPES];

    /* Extensions a tuner cares about that this device offers, as a NUL-separated list ending with an empty name. */
    char extensions[4096];
} vkat_device_info;

typedef struct vkat_instance vkat_instance;

/* Loads libvulkan at run time, creates an instance and reads every physical device's info.
 * VKAT_ERR_NO_LOADER when libvulkan cannot be loaded, VKAT_ERR_NO_DEVICE when no device is enumerated. */
vkat_result vkat_instance_create(vkat_instance **out, vkat_error *err);
void vkat_instance_destroy(vkat_instance *inst);
uint32_t vkat_instance_device_count(const vkat_instance *inst);
/* NULL when index is out of range; the pointer lives as long as the instance. */
const vkat_device_info *vkat_instance_device(const vkat_instance *inst, uint32_t index);

/* Does the device offer this extension (by name)? */
int vkat_device_has_extension(const vkat_device_info *info, const char *extension);

/* Picks devices for a --device argument: NULL or "" = default (first discrete GPU, else integrated, else any
 * other, else CPU), a decimal index, "all", a case-insensitive name substring, or a comma list of those. Writes up to `cap` indices into
 * `out`, sets *count. VKAT_ERR_USAGE with a message when nothing matches. */
vkat_result vkat_select_devices(const vkat_instance *inst, const char *spec, uint32_t *out, uint32_t cap,
                                uint32_t *count, vkat_error *err);

#ifdef __cplusplus
}
#endif
#endif
