/* bench.h — internal: runs compiled kernels on a vkat_gpu and times them with timestamp queries.
 *
 * A workspace holds one problem's buffers on one device: device-local storage buffers (set 0, binding i for
 * buffer i), filled once with seeded initial data through a staging buffer, each output (out/inout) followed by a
 * canary region that a kernel must never write. An entry may be an image instead (workspace_image.h), whose texels
 * mirror a buffer of its own, or a texel buffer (workspace_texel.h), a buffer the kernel reads through a view. A
 * kernel is one pipeline (SPIR-V + specialization constants) over the workspace's descriptor layout. Nothing here
 * knows about spaces or templates.
 *
 * Every wait has a timeout: a kernel that never finishes yields VKAT_ERR_TIMEOUT, a lost device
 * VKAT_ERR_DEVICE_LOST. One thread per workspace. */
#ifndef VKAT_BENCH_H
#define VKAT_BENCH_H

#include "compile.h"
#include "device.h"
#include "space.h"

typedef struct vkat_buffer_spec {
    const char *name;
    vkat_elem_type type;
    uint64_t count; /* elements */
    vkat_init_kind init;
    double a, b; /* as in vkat_buffer_decl */
    vkat_direction dir;
    int uniform; /* bound as a uniform buffer (the space says `uniform`); else a storage buffer */
    int placed;  /* 1: in descriptor slot (set, binding); 0: set 0, binding = its index among the buffers */
    uint32_t set, binding;
    /* An image of this format (NULL: a buffer), extent[] texels wide, high and deep, of dims 1, 2 or 3 dimensions;
     * sampled: read through a sampler (a combined image sampler), else a storage image. count is then its texels'
     * components, which is how it is filled, poisoned and read back; an image has no guard zones. */
    const vkat_image_format *image;
    uint32_t extent[3], dims;
    int sampled;
    /* A texel buffer of this format (NULL: not one), read through a view of it (workspace_texel.h): a uniform
     * texel buffer when `uniform`, else a storage texel buffer. Otherwise a buffer like any other (count counts
     * components). */
    const vkat_image_format *texel;
    /* Words written over the initial data, field_words[i] at byte field_offsets[i] of it (the space's [fields.NAME],
     * vkat_space_field_words); copied by vkat_workspace_create. */
    const uint32_t *field_offsets, *field_words;
    size_t field_count;
} vkat_buffer_spec;

typedef struct vkat_workspace vkat_workspace;

/* Allocates and uploads. Initial data is a pure function of (seed, buffer index, element index), so every run
 * and every device sees the same inputs. An out/inout buffer has guard zones of a known pattern around its data:
 * 64 KiB after it (less only where maxStorageBufferRange leaves less, 256 bytes at least) and 64 KiB before it
 * (where maxBufferSize leaves room), the descriptor starting at the data. Its range covers the back guard as well,
 * so that an overrun lands there even on drivers that clamp accesses to the descriptor's range (lavapipe does): a
 * shader's .length() counts the guard's elements, so shaders take sizes from push constants or defines.
 * Random values are converted to the element type (float16/bfloat16 by rounding to nearest even, through
 * float32; integer types truncate). Sizes beyond the device's maxStorageBufferRange (canary included),
 * maxBufferSize or device-local heap give VKAT_ERR_LIMITS before anything is allocated; so does a buffer of zero
 * elements. out buffers start as poison, as after vkat_workspace_reset. */
vkat_result vkat_workspace_create(vkat_gpu *gpu, const vkat_buffer_spec *buffers, size_t count, uint64_t seed,
                                  vkat_workspace **out, vkat_error *err);
void vkat_workspace_destroy(vkat_workspace *ws);

/* Restores every buffer to its initial contents, fills every `out` buffer with the poison pattern (so unwritten
 * elements are detectable) and rewrites the canaries. Call before a variant's checked run. */
vkat_result vkat_workspace_reset(vkat_workspace *ws, vkat_error *err);

/* Copies buffer `index` back to the host (*data malloc'ed, count elements of its type) and checks its canary:
 * *canary_ok is 0 when the kernel wrote past the end. */
vkat_result vkat_workspace_read(vkat_workspace *ws, size_t index, void **data, int *canary_ok, vkat_error *err);

/* Checks only buffer `index`'s guards, reading back their bytes and not the data: *canary_ok is 0 when the
 * kernel wrote outside its data (1 for a buffer without guards). */
vkat_result vkat_workspace_read_canary(vkat_workspace *ws, size_t index, int *canary_ok, vkat_error *err);

/* Where the last read of buffer `index` found its guards damaged, for a row's reason: "wrote past the end of
 * buffer 'Y' (256 bytes past it)", "wrote before the start of buffer 'Y' (4 bytes before it)". Writes into buf. */
const char *vkat_workspace_guard_hit(const vkat_workspace *ws, size_t index, char *buf, size_t size);

/* For modules that run their own device work on a workspace's buffers (check_gpu.c). The same one-thread rule
 * applies: call them on the thread that runs the workspace's kernels. */
vkat_gpu *vkat_workspace_gpu(const vkat_workspace *ws);
/* Buffer `index`'s VkBuffer; *data_bytes (may be NULL) its data, *range (may be NULL) data and back guard, from
 * vkat_workspace_data_offset: the data starts after the front guard. */
VkBuffer vkat_workspace_buffer(const vkat_workspace *ws, size_t index, uint64_t *data_bytes, uint64_t *range);
uint64_t vkat_workspace_data_offset(const vkat_workspace *ws, size_t index);
/* Copies `bytes` from the host into `dst` (a TRANSFER_DST buffer of the workspace's device) through the staging
 * buffer. */
vkat_result vkat_workspace_upload(vkat_workspace *ws, VkBuffer dst, const void *data, uint64_t bytes,
                                  vkat_error *err);
/* The same, into `dst` from byte `at` on. */
vkat_result vkat_workspace_upload_at(vkat_workspace *ws, VkBuffer dst, uint64_t at, const void *data,
                                     uint64_t bytes, vkat_error *err);
/* Overwrites buffer `index`'s data (its element count's bytes from `data`), leaving its guard zones as they are:
 * what a kernel finds there until the next reset. */
vkat_result vkat_workspace_upload_data(vkat_workspace *ws, size_t index, const void *data, vkat_error *err);
/* Records `record`'s commands into the workspace's command buffer between barriers (after every earlier dispatch
 * and transfer; before later ones and host reads), submits and waits up to timeout_ns. */
typedef void (*vkat_record_fn)(VkCommandBuffer cmd, void *user);
vkat_result vkat_workspace_submit(vkat_workspace *ws, vkat_record_fn record, void *user, uint64_t timeout_ns,
                                  const char *what, vkat_error *err);

/* Seconds since a submission on the workspace last finished (0 before the first): how long the GPU has had
 * nothing of this thread's to run. */
double vkat_workspace_idle_s(const vkat_workspace *ws);

/* The poison pattern's bytes for an element type (what an unwritten element reads as). */
void vkat_poison_element(vkat_elem_type type, void *out);

typedef struct vkat_kernel vkat_kernel;

/* Creates a compute pipeline. push_size is the push-constant range in bytes (0: none). The kernel borrows the
 * workspace: destroy kernels first. Before creating anything it reflects the module and rejects, with
 * VKAT_ERR_LIMITS, a workgroup size or shared-memory footprint beyond the device's limits (some drivers accept
 * such a pipeline and lose the device on dispatch) and a push range beyond maxPushConstantsSize.
 * Unlike the rest of this file, kernel creation may run on several threads at once for one workspace (it only
 * reads the workspace's layout and uses the device's internally synchronised pipeline cache): the tuner creates
 * pipelines on worker threads ahead of the measuring thread. `spec` values are integers, each passed in the type
 * the module declares for its constant (spec_encode.h: a float constant gets the float of the value). */
vkat_result vkat_kernel_create(vkat_workspace *ws, const vkat_spirv *spirv, const char *entry,
                               const vkat_spec_value *spec, size_t spec_count, uint32_t push_size, vkat_kernel **out,
                               vkat_error *err);
void vkat_kernel_destroy(vkat_kernel *k);

/* A sequence of dispatches run and timed as one kernel (a multi-pass reduction, split-K with its reduce pass):
 * vkat_kernel_run and vkat_kernel_measure dispatch the steps in order, each after a barrier on the previous one's
 * writes, and ignore their own groups and push arguments; times are per sequence. `kernels` (each created with
 * vkat_kernel_create on `ws`) pass to the sequence, also on failure, and are destroyed with it; several steps
 * may name one kernel. Its statistics are those of the first step's kernel. */
typedef struct vkat_sequence_step {
    uint32_t kernel; /* index into kernels */
    uint32_t groups[3];
    uint8_t push[256]; /* the kernel's push_size bytes are pushed */
    /* remapped: binding k holds the workspace's buffer binding_buffer[k] (k < min(count, VKAT_MAX_STEP_BINDINGS)),
     * copied from the workspace's own set so that its descriptor type and range are the same; else the
     * workspace's set as it is */
    int remapped;
    uint32_t binding_buffer[VKAT_MAX_STEP_BINDINGS];
} vkat_sequence_step;
vkat_result vkat_kernel_create_sequence(vkat_workspace *ws, vkat_kernel **kernels, size_t kernel_count,
                                        const vkat_sequence_step *steps, size_t step_count, vkat_kernel **out,
                                        vkat_error *err);

/* Driver statistics captured at creation ("Register Count=40; Spill Count=0; ..."), "" when unavailable.
 * Valid as long as the kernel. */
const char *vkat_kernel_stats(const vkat_kernel *k);

/* The driver's statistics of a pipeline's first executable (registers, spills, shared memory, as the driver names
 * them: "Register Count=128; Binary Size=..."), through VK_KHR_pipeline_executable_properties, into out (size bytes,
 * NUL-terminated). Best effort: a failure leaves it empty. The pipeline needs CAPTURE_STATISTICS at its creation. */
void vkat_pipeline_stats_text(VkDevice dev, VkPipeline pipeline, char *out, size_t size);

/* One dispatch, waited for with `timeout_ns`. Group counts of 0 or beyond maxComputeWorkGroupCount are
 * VKAT_ERR_LIMITS. On VKAT_ERR_TIMEOUT the dispatch may still be running: the next call on the workspace (or its
 * kernels) first waits for it, bounded by that call's own timeout (60 s for reset/read/destroy), and destroy
 * leaves the Vulkan objects alone (for vkat_gpu_destroy) if it never ends. */
vkat_result vkat_kernel_run(vkat_kernel *k, const uint32_t groups[3], const void *push, uint64_t timeout_ns,
                            vkat_error *err);
/* The same, with the dispatch's GPU time in *gpu_s (timestamps; NAN where the queue has none). */
vkat_result vkat_kernel_run_timed(vkat_kernel *k, const uint32_t groups[3], const void *push, uint64_t timeout_ns,
                                  double *gpu_s, vkat_error *err);

/* One batch of a warm-up, as vkat_timing_opts.warmup_trace sees it. */
typedef struct vkat_warmup_batch {
    uint32_t index;        /* 0: the first after the checked run */
    uint32_t dispatches;
    double at_s;           /* seconds from the warm-up's start to this batch's end */
    double per_dispatch_s; /* timestamps (or host time, as the samples) */
    double idle_s;         /* how long the workspace's queue had nothing of this thread's to run before the warm-up */
} vkat_warmup_batch;

/* A zero field means its default. */
typedef struct vkat_timing_opts {
    /* The warm-up: timed batches of a few milliseconds back to back, until the kernel's times stop falling
     * (warmup.h) after at least min_warmup_s (below), at most warmup_s (one batch at least). min_warmup_s >=
     * warmup_s is a fixed warm-up of warmup_s. */
    double warmup_s;       /* the maximum; default 0.2; < 0: 0 s */
    double min_sample_s;   /* batch dispatches per timestamp pair until one sample lasts this long; default 1e-4 */
    uint32_t repetitions;  /* timed samples; default 10 */
    double max_time_s;     /* stop early when the samples have taken this long; default 2 */
    uint64_t timeout_ns;   /* per submission; default 10 s */
    int host_timing;       /* 1: time on the host around each submission even when timestamps exist (added) */
    /* Racing (race.c): called after each timed sample with the samples so far (seconds per dispatch, in the order
     * taken). 0: go on until `repetitions`; 1: take another even past them (up to max_repetitions); 2: stop now,
     * the variant is out (vkat_timing.cut). NULL: `repetitions` samples. */
    int (*after_sample)(void *user, const double *samples, uint32_t n);
    void *after_sample_user;
    uint32_t max_repetitions; /* room for after_sample's extra samples; default: repetitions */
    double min_warmup_s;   /* the warm-up's minimum; default 0.02 (at most warmup_s); < 0: 0 s */
    /* Called after every warm-up batch (NULL: not), on the measuring thread: the clock ramp made visible. */
    void (*warmup_trace)(void *user, const vkat_warmup_batch *b);
    void *warmup_trace_user;
} vkat_timing_opts;

/* The options with every zero field's default filled in (a warm-up or minimum of 0 s is spelt negative). */
vkat_timing_opts vkat_timing_defaults(const vkat_timing_opts *opts);

typedef struct vkat_timing {
    double median_s, min_s, max_s, mean_s;
    double mad_s;        /* median absolute deviation: the spread measure */
    uint32_t samples;    /* timed samples taken */
    uint32_t batch;      /* dispatches per sample, the last used (each time is per dispatch); a sample shorter than
                            min_sample_s is dropped and the batch grows, at most 8 times */
    double warmup_s;     /* wall time spent warming up */
    uint32_t warmup_batches;
    int warmup_settled;  /* 1: the times stopped falling before the maximum; 0: warmed up for warmup_s (always
                            with a fixed warm-up) */
    double warmup_first_s, warmup_last_s; /* the first and last warm-up batch, seconds per dispatch: the ramp */
    double idle_s;       /* as vkat_warmup_batch.idle_s */
    int warmup_retaken;  /* 1: the samples ran clearly faster than the warm-up's end, so both were taken again
                            (warmup.h; warmup_s and warmup_batches count both) */
    int host_timed;      /* 1: host clock around the fence (no timestamps, or asked for); includes submission
                            overhead (added) */
    int cut;             /* 1: after_sample stopped it before `repetitions` samples */
} vkat_timing;

/* Warms up until the times stop falling (vkat_timing_opts), then takes timed samples with timestamp queries in one
 * command buffer per sample; ticks are masked with the queue's timestampValidBits and scaled by timestampPeriod.
 * Times are per dispatch. Samples clearly faster than the warm-up's end (it stopped on a plateau) are taken again,
 * after a second warm-up (vkat_timing.warmup_retaken). opts may be NULL (defaults). */
vkat_result vkat_kernel_measure(vkat_kernel *k, const uint32_t groups[3], const void *push,
                                const vkat_timing_opts *opts, vkat_timing *out, vkat_error *err);

#endif
