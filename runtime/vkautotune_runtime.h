/* vkautotune_runtime.h — picks and describes a tuned compute kernel at run time, from the table that
 * `vkautotune export --header NAME.h` embeds in a C header (docs/runtime.md).
 *
 * The table holds, per exported variant: the SPIR-V words, who measured it (vendor, device id, driver version
 * range, device-name pattern), its specialization constants, local size, and small integer programs (formulas)
 * for the group counts, buffer sizes, push-constant values and validity conditions over named problem sizes.
 * The library picks a variant for a VkPhysicalDeviceProperties with documented fallbacks and evaluates the
 * formulas for a problem size. It creates no Vulkan objects: the caller builds the pipeline.
 *
 * C99, depends only on the Vulkan headers (types only; it calls no Vulkan function itself) and libc. It never
 * prints, never exits, never allocates. Every function is thread-safe (the table is read-only). Functions that
 * can fail return a vkat_rt_result (VKAT_RT_OK == 0).
 *
 * The same library has an optional part, vkautotune_runtime_tune.h, that times the exported candidates on the
 * application's device and caches the fastest correct one; nothing here depends on it.
 */
#ifndef VKAUTOTUNE_RUNTIME_H
#define VKAUTOTUNE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the table layout below; the generated header checks it at compile time, and the runtime tuner refuses
 * a table of another version (a library built against another layout would read its arrays at other strides).
 * 2: vkat_rt_binding gained texel_buffer, vk_format, dims and the image extent (session 15). */
#define VKAT_RT_TABLE_VERSION 3

typedef enum vkat_rt_result {
    VKAT_RT_OK = 0,
    VKAT_RT_ERR_ARGUMENT,    /* a NULL or out-of-range argument, or a table of another version */
    VKAT_RT_ERR_NOT_FOUND,   /* no variant of that kernel fits the device (or the problem) */
    VKAT_RT_ERR_PROBLEM,     /* a validity condition of the variant fails for this problem size */
    VKAT_RT_ERR_NO_FORMULA,  /* the exporter could not express a formula; only the tuned problem can run */
    VKAT_RT_ERR_EVAL,        /* division by zero, overflow, or a malformed formula */
    VKAT_RT_ERR_LIMITS,      /* the variant exceeds the device's workgroup or shared-memory limits */
    /* Runtime tuning (vkautotune_runtime_tune.h) only: */
    VKAT_RT_ERR_VULKAN,      /* a Vulkan call failed (the VkResult is reported beside it) */
    VKAT_RT_ERR_DEVICE_LOST, /* VK_ERROR_DEVICE_LOST: the device is unusable, nothing was chosen */
    VKAT_RT_ERR_NO_MEMORY,   /* host or device memory ran out */
    VKAT_RT_ERR_CHECK,       /* a candidate's output differs from the reference candidate's beyond the tolerance */
    VKAT_RT_ERR_UNSUPPORTED, /* a candidate needs an extension or feature the application did not enable */
    VKAT_RT_ERR_TIME_LIMIT,  /* the application's time limit ran out before this candidate was timed */
    VKAT_RT_ERR_NO_CANDIDATE,/* no candidate ran correctly: nothing was chosen */
    VKAT_RT_ERR_NO_TUNE_DATA,/* the table was exported before candidates and checks were (export it again) */
    VKAT_RT_ERR_CACHE        /* the cache file could not be written (the choice itself is fine) */
} vkat_rt_result;

const char *vkat_rt_result_string(vkat_rt_result r); /* never NULL */

/* ---- Formulas ------------------------------------------------------------------------------------------------
 * A formula is a postfix (RPN) program of (op, arg) pairs on a stack of 64-bit signed integers, with C's integer
 * semantics ('/' truncates, '%' is the remainder). VAR pushes problem size number `arg` (in the kernel's
 * problem-name order), CONST pushes `arg`; unary ops replace the top, binary ops pop b then a and push (a op b).
 * Comparisons and logical ops push 0 or 1; LAND/LOR evaluate both sides (there are no jumps). An empty formula
 * (count 0) means "none": the exporter could not express it (docs/runtime.md says which constructs). */
typedef enum vkat_rt_opcode {
    VKAT_RT_CONST, VKAT_RT_VAR,
    VKAT_RT_NEG, VKAT_RT_NOT, VKAT_RT_BNOT, VKAT_RT_BOOL,
    VKAT_RT_ADD, VKAT_RT_SUB, VKAT_RT_MUL, VKAT_RT_DIV, VKAT_RT_MOD, VKAT_RT_CDIV, VKAT_RT_MIN, VKAT_RT_MAX,
    VKAT_RT_SHL, VKAT_RT_SHR, VKAT_RT_BAND, VKAT_RT_BOR, VKAT_RT_BXOR,
    VKAT_RT_LT, VKAT_RT_LE, VKAT_RT_GT, VKAT_RT_GE, VKAT_RT_EQ, VKAT_RT_NE, VKAT_RT_LAND, VKAT_RT_LOR,
    VKAT_RT_OPCODE_COUNT
} vkat_rt_opcode;

typedef struct vkat_rt_op {
    int32_t op;  /* vkat_rt_opcode */
    int64_t arg; /* CONST: the value; VAR: the problem-size index; otherwise 0 */
} vkat_rt_op;

#define VKAT_RT_MAX_STACK 64

typedef struct vkat_rt_formula {
    const vkat_rt_op *ops;
    uint32_t count; /* 0: no formula */
    const char *text; /* the space's expression, for messages; may be NULL */
} vkat_rt_formula;

/* Evaluates with vars[0..var_count-1] as the problem sizes. */
vkat_rt_result vkat_rt_eval(const vkat_rt_formula *f, const int64_t *vars, uint32_t var_count, int64_t *out);

/* ---- The table -------------------------------------------------------------------------------------------- */

/* vkat_rt_spec_constant.encoding: how a problem size reaches a constant the shader declares as a float or a bool
 * (its tuned value is already encoded in `value`). */
#define VKAT_RT_SPEC_FLOAT32 1u /* the size's float bits */
#define VKAT_RT_SPEC_BOOL 2u    /* VK_TRUE for a non-zero size */

typedef struct vkat_rt_spec_constant {
    uint32_t id;    /* constantID */
    uint32_t value; /* 4-byte value as the shader's type takes it (a float constant: its bits; for a problem size:
                       its tuned value) */
    const char *name;
    uint32_t problem; /* 0: a tuned parameter; i + 1: problem size i (the space's `M = 4096 @spec(0)`), whose value
                         is the caller's problem size: vkat_rt_launch_eval puts it in vkat_rt_launch.spec */
    uint32_t encoding; /* 0: a 32-bit integer; VKAT_RT_SPEC_FLOAT32 or VKAT_RT_SPEC_BOOL */
} vkat_rt_spec_constant;

/* SCRATCH: the kernel's own memory between the passes of a sequence, not an operand: allocate it (its init says
 * how the tuner filled it) and leave it to the kernel. */
typedef enum vkat_rt_direction {
    VKAT_RT_IN = 1,
    VKAT_RT_OUT = 2,
    VKAT_RT_INOUT = 3,
    VKAT_RT_SCRATCH = 4
} vkat_rt_direction;

typedef struct vkat_rt_binding {
    uint32_t binding; /* in descriptor set `set`; a storage buffer unless `uniform` */
    const char *name;
    const char *type;      /* "float32", "float16", "bfloat16", "int32", "uint32", "int8", "uint8", "unorm8" */
    uint32_t element_size; /* bytes */
    vkat_rt_direction direction;
    vkat_rt_formula elements; /* element count */
    uint64_t tuned_elements;  /* for the tuned problem */
    uint32_t uniform;         /* 1: VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER (a uniform block); 0: a storage buffer */
    uint32_t set;             /* descriptor set (0 unless the space placed the buffer with @set), < VKAT_RT_MAX_SETS */
    /* An image instead of a buffer: its format as GLSL names it ("rgba8", "r32f"; NULL for a buffer) and whether
     * the kernel reads it through a sampler (1: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, else STORAGE_IMAGE).
     * `elements` counts its texels' components; the application binds its own image in VK_IMAGE_LAYOUT_GENERAL. */
    const char *image_format;
    uint32_t sampled;
    /* 1: a texel buffer instead, a buffer of `elements` components (l.buffer_bytes[i]) that the kernel reads
     * through your VkBufferView of format image_format: VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER when `uniform`,
     * else STORAGE_TEXEL_BUFFER. */
    uint32_t texel_buffer;
    /* An image's or a texel buffer's VkFormat; an image's dimensions (1, 2 or 3: VK_IMAGE_TYPE_1D + dims - 1), and
     * its width, height and depth (formulas of the problem; a dimension the image does not have is the formula 1)
     * with their values for the tuned problem: what runtime tuning creates. */
    uint32_t vk_format, dims;
    vkat_rt_formula extent[3];
    uint32_t tuned_extent[3];
} vkat_rt_binding;

typedef struct vkat_rt_push_constant {
    uint32_t offset; /* bytes; every push constant is 4 bytes */
    const char *name;
    const char *type;       /* "uint32", "int32" or "float32" */
    vkat_rt_formula value;  /* the value; for float32 a constant of its bits when it does not depend on the problem,
                               else no formula */
    uint32_t tuned_bits;    /* the 4 bytes pushed when measuring the tuned problem */
} vkat_rt_push_constant;

/* One dispatch of a variant that is a sequence of dispatches (a multi-pass reduction, split-K with its reduce
 * pass), as vkautotune measured it for the tuned problem: run them in order, each after a compute-to-compute
 * memory barrier on the previous one's writes (shader write -> shader read and write). */
typedef struct vkat_rt_pass {
    const char *name;      /* the space's [pass.NAME] */
    uint32_t index;        /* the repeat of that pass (the space's `pass`), from 0 */
    const uint32_t *spirv; /* the module; passes that share one point at the same words */
    size_t spirv_size_bytes;
    const char *spirv_hash; /* XXH3-64, 16 hex digits (as in manifest.json) */
    const vkat_rt_spec_constant *spec_constants;
    uint32_t spec_constant_count;
    uint32_t local_size[3]; /* after specialization */
    uint32_t groups[3];     /* vkCmdDispatch arguments */
    const uint32_t *push;   /* the push-constant block, push_size bytes */
    uint32_t push_size;
    /* NULL: binding bindings[i].binding holds bindings[i]'s buffer, as for a single dispatch. Else this pass binds
     * other buffers (a shader that reads binding 0 and writes binding 1 while the driver swaps buffers): binding
     * bindings[i].binding holds the buffer of bindings[binding_buffers[i]], for i < binding_count. */
    const uint32_t *binding_buffers;
} vkat_rt_pass;

/* Flags of a variant. */
#define VKAT_RT_VENDOR_DEFAULT 1u  /* the exporter's choice for devices of this vendor that match nothing closer */
#define VKAT_RT_GENERIC_DEFAULT 2u /* the exporter's choice for devices of unknown vendors */
#define VKAT_RT_CANDIDATE_ONLY 4u  /* exported only as a candidate for runtime tuning (export --candidates): not any
                                      device's winner, so vkat_rt_select never picks it */

typedef struct vkat_rt_variant {
    const char *kernel;
    /* Selection: who measured it. */
    uint32_t vendor_id, device_id;
    uint32_t driver_version_min, driver_version_max; /* raw driverVersion range, inclusive */
    const char *device_name;    /* glob pattern on deviceName: '*' any run of characters, '?' one character */
    const char *driver_version_string;
    const char *device_type;    /* "discrete", "cpu", ... or "unknown" (devices exported from the database) */
    uint32_t flags;
    /* The problem it was tuned for. */
    uint32_t problem_count;
    const char *const *problem_names;
    const int64_t *problem;
    const vkat_rt_formula *conditions; /* the space's constraints that involve only problem sizes; all must hold */
    uint32_t condition_count;
    /* The module. */
    const uint32_t *spirv;
    size_t spirv_size_bytes; /* codeSize */
    const char *spirv_hash;  /* XXH3-64 of the bytes, 16 hex digits (as in manifest.json) */
    const char *entry_point;
    const vkat_rt_spec_constant *spec_constants;
    uint32_t spec_constant_count;
    uint32_t local_size[3];
    uint32_t shared_bytes; /* workgroup (shared) memory the module declares */
    /* Dispatch. */
    vkat_rt_formula groups[3];
    uint32_t tuned_groups[3];
    const vkat_rt_binding *bindings;
    uint32_t binding_count;
    const vkat_rt_push_constant *push_constants;
    uint32_t push_constant_count;
    const char *const *extensions; /* Vulkan extensions to enable; NULL-terminated */
    const char *const *features;   /* feature member names ("shaderFloat16") to enable; NULL-terminated */
    /* What vkautotune measured (per dispatch, timestamps, `batch` dispatches per sample). */
    const char *config;
    double median_ms, min_ms, mad_ms; /* a sequence's: per sequence */
    uint32_t samples, batch;
    /* A sequence of dispatches: pass_count of them, which replace the single dispatch above (whose module, spec
     * constants, local size and groups are then those of passes[0]). Such a variant runs only its tuned problem
     * (its conditions say so). 0: one dispatch. */
    const vkat_rt_pass *passes;
    uint32_t pass_count;
} vkat_rt_variant;

/* How vkautotune filled a buffer before measuring (the space's init): the runtime tuner fills its generated input
 * the same way, so index buffers stay in range and a kernel's own state (stream-K partial sums) starts at zero. */
typedef enum vkat_rt_fill_kind {
    VKAT_RT_FILL_ZERO, VKAT_RT_FILL_RANDOM, VKAT_RT_FILL_CONST, VKAT_RT_FILL_IOTA
} vkat_rt_fill_kind;

typedef struct vkat_rt_fill {
    int32_t kind;  /* vkat_rt_fill_kind */
    double a, b;   /* RANDOM: uniform in [a, b); CONST: a; IOTA: a + b * index */
    /* The space's [fields.NAME]: 4-byte values written over the fill at their byte offsets (a uniform block's
     * count and scale), each as a push constant is given: a formula of the problem, or its tuned bits. */
    const vkat_rt_push_constant *fields;
    uint32_t field_count;
} vkat_rt_fill;

/* What the runtime tuner needs beside the variant: the space's check tolerance and the buffers' fills. */
typedef struct vkat_rt_check {
    double rel_l2;              /* the space's [check] rel_l2: tolerance on the relative L2 error of outputs */
    double max_abs;             /* its max_abs; negative: none */
    const vkat_rt_fill *fills;  /* per binding (binding_count of them) */
} vkat_rt_check;

typedef struct vkat_rt_table {
    uint32_t version; /* VKAT_RT_TABLE_VERSION */
    const char *generator;
    const vkat_rt_variant *variants;
    uint32_t count;
    /* For runtime tuning only (selection never reads it): checks[i] belongs to variants[i]. NULL in tables exported
     * before candidates were (they still select as before). */
    const vkat_rt_check *checks;
} vkat_rt_table;

/* ---- Selection ---------------------------------------------------------------------------------------------
 * Among the variants of `kernel` that fit the device's limits (local size, invocations, shared memory) and whose
 * conditions hold for `problem` (when given), the first non-empty tier wins:
 *   EXACT         same vendor id, device id and name pattern, driver version within the variant's range
 *   DEVICE        same vendor id, device id and name pattern, another driver
 *   ARCHITECTURE  same vendor and the same vkat_rt_architecture() (e.g. "nvidia-hopper")
 *   VENDOR        same vendor: the variant flagged VKAT_RT_VENDOR_DEFAULT, else as below
 *   GENERIC       any vendor: the variant flagged VKAT_RT_GENERIC_DEFAULT, else as below
 * Within a tier, a variant tuned for exactly `problem` wins, else the nearest tuned problem (sum of |log2| size
 * ratios), ties to the table's order. Variants flagged VKAT_RT_CANDIDATE_ONLY are never picked. */
typedef enum vkat_rt_match {
    VKAT_RT_MATCH_NONE,
    VKAT_RT_MATCH_EXACT,
    VKAT_RT_MATCH_DEVICE,
    VKAT_RT_MATCH_ARCHITECTURE,
    VKAT_RT_MATCH_VENDOR,
    VKAT_RT_MATCH_GENERIC
} vkat_rt_match;

const char *vkat_rt_match_name(vkat_rt_match m); /* "exact", "device", ...; never NULL */

/* Picks a variant. `problem` (may be NULL: any) holds the kernel's problem sizes in its problem-name order (the
 * first variant of the kernel defines it; vkat_rt_problem_index finds a name), `problem_count` of them.
 * *out points into the table. `how` may be NULL. VKAT_RT_ERR_NOT_FOUND when nothing fits. */
vkat_rt_result vkat_rt_select(const vkat_rt_table *table, const char *kernel, const VkPhysicalDeviceProperties *props,
                              const int64_t *problem, uint32_t problem_count, const vkat_rt_variant **out,
                              vkat_rt_match *how);

/* Same, reading the properties with the caller's vkGetPhysicalDeviceProperties (from the loader, volk, ...). */
vkat_rt_result vkat_rt_select_physical_device(const vkat_rt_table *table, const char *kernel,
                                              VkPhysicalDevice physical_device,
                                              PFN_vkGetPhysicalDeviceProperties get_properties,
                                              const int64_t *problem, uint32_t problem_count,
                                              const vkat_rt_variant **out, vkat_rt_match *how);

/* Architecture family of a device, from its vendor id, device id and name: "nvidia-hopper", "nvidia-ada",
 * "mesa-llvmpipe", ...; "" when unknown (the ARCHITECTURE tier is then skipped). A small table, see the source. */
const char *vkat_rt_architecture(uint32_t vendor_id, uint32_t device_id, const char *device_name);

/* 1 when the variant's local size, invocations and shared memory fit the device's limits (what selection checks). */
int vkat_rt_fits_limits(const vkat_rt_variant *v, const VkPhysicalDeviceLimits *limits);

/* Index of a problem-size name in the variant's order, or -1. */
int vkat_rt_problem_index(const vkat_rt_variant *v, const char *name);

/* ---- Launch ------------------------------------------------------------------------------------------------ */

#define VKAT_RT_MAX_BINDINGS 32
#define VKAT_RT_MAX_SETS 8 /* descriptor sets a variant's bindings may take (vkautotune's VKAT_MAX_SETS) */
#define VKAT_RT_MAX_SPEC 64
#define VKAT_RT_MAX_PUSH_BYTES 256

typedef struct vkat_rt_launch {
    uint32_t groups[3];                         /* vkCmdDispatch arguments */
    uint64_t buffer_bytes[VKAT_RT_MAX_BINDINGS]; /* least range to bind, per bindings[i] */
    uint32_t image_extent[VKAT_RT_MAX_BINDINGS][3]; /* an image binding's width, height, depth; 1, 1, 1 for a buffer */
    uint8_t push[VKAT_RT_MAX_PUSH_BYTES];       /* the push-constant block */
    uint32_t push_size;                         /* bytes; 0: no push constants */
    uint32_t spec[VKAT_RT_MAX_SPEC];            /* per spec_constants[i]: its value for this problem */
} vkat_rt_launch;

/* Evaluates the dispatch for `problem` (problem_count sizes in the variant's order; NULL: the tuned problem).
 * VKAT_RT_ERR_PROBLEM when a condition fails (the variant cannot run that size), VKAT_RT_ERR_NO_FORMULA when a
 * needed formula is missing and the problem is not the tuned one, VKAT_RT_ERR_EVAL on division by zero, overflow
 * or a group count outside 1..2^32-1. */
vkat_rt_result vkat_rt_launch_eval(const vkat_rt_variant *v, const int64_t *problem, uint32_t problem_count,
                                   vkat_rt_launch *out);

/* Fills a VkSpecializationInfo (entries: caller's array of at least spec_constant_count; data points into the
 * table, so both live as long as the caller's array and the table). */
void vkat_rt_specialization(const vkat_rt_variant *v, VkSpecializationMapEntry *entries, VkSpecializationInfo *info);

/* The same for the problem `launch` was evaluated for: a problem size bound to a specialization constant takes its
 * value from launch->spec (vkat_rt_specialization would give the tuned size). `data` points into `launch`, which
 * must outlive the pipeline's creation. Use this one whenever the problem is not the tuned one. */
void vkat_rt_launch_specialization(const vkat_rt_variant *v, const vkat_rt_launch *launch,
                                   VkSpecializationMapEntry *entries, VkSpecializationInfo *info);

/* ---- Dispatches: one loop for single dispatches and sequences --------------------------------------------------
 * for (i = 0; i < vkat_rt_dispatch_count(v); i++) { vkat_rt_dispatch_eval(v, i, problem, n, &d); pipeline of
 * d.spirv with d's specialization; bind, push d.push, vkCmdDispatch(d.groups); barrier } */
#define VKAT_RT_MAX_SPEC_CONSTANTS 64

/* How many dispatches the variant is: pass_count for a sequence, else 1. */
uint32_t vkat_rt_dispatch_count(const vkat_rt_variant *v);

typedef struct vkat_rt_dispatch {
    const uint32_t *spirv;
    size_t spirv_size_bytes;
    const vkat_rt_spec_constant *spec_constants; /* points into the table */
    uint32_t spec_constant_count;
    uint32_t local_size[3];
    uint32_t groups[3];
    uint8_t push[VKAT_RT_MAX_PUSH_BYTES];
    uint32_t push_size;
    const uint32_t *binding_buffers; /* as vkat_rt_pass's: NULL, or the buffer (an index into the variant's
                                        bindings) that each binding holds in this dispatch */
} vkat_rt_dispatch;

/* Dispatch `index` of the variant for `problem` (as vkat_rt_launch_eval: NULL is the tuned problem). For a single
 * dispatch, index 0 is the variant with vkat_rt_launch_eval's groups and push block; for a sequence, its pass
 * `index` (VKAT_RT_ERR_PROBLEM for another problem than the tuned one). VKAT_RT_ERR_ARGUMENT for an index out of
 * range. Buffer sizes are the variant's: vkat_rt_launch_eval. */
vkat_rt_result vkat_rt_dispatch_eval(const vkat_rt_variant *v, uint32_t index, const int64_t *problem,
                                     uint32_t problem_count, vkat_rt_dispatch *out);

/* vkat_rt_specialization for one dispatch. */
void vkat_rt_dispatch_specialization(const vkat_rt_dispatch *d, VkSpecializationMapEntry *entries,
                                     VkSpecializationInfo *info);

#ifdef __cplusplus
}
#endif
#endif
