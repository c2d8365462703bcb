/* vkautotune.h — the public interface of libvkautotune, the one header it installs (docs/library.md).
 *
 * The library tunes Vulkan compute shaders: it reads a search space, instantiates a GLSL template per
 * configuration, compiles it with glslang, validates it with SPIRV-Tools, measures it with timestamp queries,
 * checks it against a reference and stores every result. The vkautotune program (src/cli/) is built on this header
 * alone: the build compiles it with nothing else of the library on its include path.
 *
 * Contract for every function here unless its comment says otherwise:
 * - Fallible functions return a vkat_result (VKAT_OK == 0) and, when `err` is not NULL, fill it.
 * - The library never prints to stdout or stderr and never exits; diagnostics go to the log callback.
 * - Handles (vkat_space, vkat_instance, vkat_store, vkat_tune_run, ...) are opaque. Objects returned through `**out`
 *   are owned by the caller and released with their destroy function; destroy functions accept NULL.
 * - Strings returned as `const char *` live as long as the object they came from; `char **` outputs are malloc'ed
 *   for the caller, who free()s them.
 * - Not thread-safe unless stated: one object, one thread at a time. Distinct objects may be used on distinct
 *   threads.
 */
#ifndef VKAUTOTUNE_H
#define VKAUTOTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version ------------------------------------------------------------------------------------------------
 * The header's version; vkat_version() is the linked library's (they differ when a program is built against one
 * release and linked with another). CMake checks these against project(VERSION) at configure time. */
#define VKAT_VERSION_MAJOR 0
#define VKAT_VERSION_MINOR 1
#define VKAT_VERSION_PATCH 0
#define VKAT_VERSION_STRING "0.1.0"
#define VKAT_VERSION (VKAT_VERSION_MAJOR * 10000 + VKAT_VERSION_MINOR * 100 + VKAT_VERSION_PATCH)

/* VKAT_VERSION and VKAT_VERSION_STRING of the library as built. Thread-safe. */
int vkat_version(void);
const char *vkat_version_string(void);

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

/* A log callback and its user pointer, as a description struct carries it (vkat_tune_desc.logger). The library may
 * call it from any of its threads, so it must be thread-safe; `message` is one line without a newline, valid for
 * the call only. */
typedef struct vkat_logger {
    vkat_log_fn func; /* NULL: discard */
    void *user_data;
} vkat_logger;

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

/* Reads device `select` of a file written by `vkautotune devices --json` (NULL or "": the first; a decimal index
 * into the file's list; else a case-insensitive substring of a device name) into *out: everything a space's
 * constraints and requirements read, for counting or compiling for a GPU that is not here. Errors name the file. */
vkat_result vkat_device_profile_load(const char *path, const char *select, vkat_device_info *out, vkat_error *err);

/* ---- Search spaces ------------------------------------------------------------------------------------------
 * A space is an INI file (docs/space-format.md): the template, what it needs of a device, problem sizes, tuning
 * parameters, constraints, buffers, dispatch and the correctness reference. A configuration is written
 * "NAME=VALUE,NAME=VALUE" in parameter order. */
typedef struct vkat_space vkat_space;

/* Loads and checks a space; errors about the file read "path:line: message". */
vkat_result vkat_space_load(const char *path, vkat_space **out, vkat_error *err);
/* The same with the template replaced by `template_path` (NULL: the space's [kernel] template). */
vkat_result vkat_space_load_with_template(const char *path, const char *template_path, vkat_space **out,
                                          vkat_error *err);
void vkat_space_destroy(vkat_space *space);
/* Sets problem sizes from "M=512,N=512"; names not in [problem] are VKAT_ERR_USAGE. */
vkat_result vkat_space_set_problem(vkat_space *space, const char *overrides, vkat_error *err);
/* Resets the problem to the device's defaults: [problem.cpu] on a CPU device (lavapipe), else [problem]; NULL: no
 * device ([problem]). Call before vkat_space_set_problem, whose overrides win. */
void vkat_space_problem_for_device(vkat_space *space, const vkat_device_info *device);
/* The problem in force as the database writes it ("M=512,N=512,K=512"), truncated to size. */
void vkat_space_format_problem(const vkat_space *space, char *buf, size_t size);
/* The file it was loaded from, and its [kernel] name. */
const char *vkat_space_path(const vkat_space *space);
const char *vkat_space_kernel_name(const vkat_space *space);
size_t vkat_space_param_count(const vkat_space *space);
/* Raw configurations (the product of the parameters' value counts); UINT64_MAX when that overflows. */
uint64_t vkat_space_raw_count(const vkat_space *space);
/* Constraints in file order: the name of constraint `index` and (line may be NULL) its line; NULL past the end. */
size_t vkat_space_constraint_count(const vkat_space *space);
const char *vkat_space_constraint(const vkat_space *space, size_t index, int *line);
/* Pass sections ([pass.NAME]): 0 for a single-dispatch kernel. */
size_t vkat_space_pass_count(const vkat_space *space);

/* ---- Compiling one configuration ----------------------------------------------------------------------------
 * The tuner's own build (instantiate the template, compile with glslang, validate with SPIRV-Tools, reflect), for
 * one configuration and no GPU. */
typedef struct vkat_compiled vkat_compiled;

/* Parses `config` ("TM=4,TN=4"; parameters not named take their first value) and checks the space's constraints
 * on it at the space's problem for `device` (NULL: Vulkan's minimum limits): *failed is the index of the first
 * constraint it fails (vkat_space_constraint names it), or -1. Errors: a bad configuration, an expression that
 * cannot be evaluated. */
vkat_result vkat_space_check_config(const vkat_space *space, const vkat_device_info *device, const char *config,
                                    long *failed, vkat_error *err);
/* Builds `config` ("TM=4,TN=4"; parameters not named take their first value) at the space's problem for `device`
 * (its Vulkan version and limits; NULL: generic Vulkan 1.3 with its minimum limits). A configuration that fails a
 * constraint is still built: vkat_compiled_failed_constraint says which. Errors point at the space or template line. */
vkat_result vkat_space_compile(const vkat_space *space, const vkat_device_info *device, const char *config,
                               vkat_compiled **out, vkat_error *err);
/* The SPIR-V words (*count of them); valid until vkat_compiled_destroy. */
const uint32_t *vkat_compiled_words(const vkat_compiled *compiled, size_t *count);
/* The whole configuration built, every parameter named. */
const char *vkat_compiled_config(const vkat_compiled *compiled);
/* The index of the first constraint the configuration fails (vkat_space_constraint names it), or -1. */
long vkat_compiled_failed_constraint(const vkat_compiled *compiled);
/* SPIRV-Tools' disassembly into *text (malloc'ed, the caller frees it). */
vkat_result vkat_compiled_disassemble(const vkat_compiled *compiled, char **text, vkat_error *err);
void vkat_compiled_destroy(vkat_compiled *compiled);

/* ---- Files --------------------------------------------------------------------------------------------------- */
/* Writes `size` bytes to `path` atomically: a temporary file in the same directory, synced and renamed over the
 * target, so readers and a crash see the old file or the whole new one; never through a symlink at the name.
 * VKAT_ERR_IO naming the path. Thread-safe. */
vkat_result vkat_write_file(const char *path, const void *data, size_t size, vkat_error *err);

#ifdef __cplusplus
}
#endif
#endif
