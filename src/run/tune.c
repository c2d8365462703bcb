/* tune.c — the tuning run on one device: asks the strategy for configurations, turns each valid one into a
 * checked, timed measurement, and stores it. The reference runs once per device and problem; every variant's
 * outputs are poisoned before its checked run and compared afterwards. Nothing here prints: progress goes to a
 * callback, diagnostics to the log. */
#include "tune.h"
#include "check.h"
#include "check_gpu.h"
#include "device_key.h"
#include "pool.h"
#include "measured_spirv.h"
#include "search.h"
#include "build.h"
#include "busy.h"
#include "descriptors.h"
#include "first_dispatch.h"
#include "measure_trace.h"
#include "shader_sources.h"
#include "sequence.h"
#include "space_census.h"
#include "spirv_strip.h"
#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define DEFAULT_BUDGET 100
#define VALID_COUNT_MAX_RAW (1u << 22) /* spaces up to this many raw configurations are counted first */
#define MAX_WARM_STARTS 16 /* winners of other problem sizes measured first with --warm-start */

/* ---- Keys and building ---------------------------------------------------------------------------------- */

/* The key, with `h` the hash of the template's files (vkat_source_set_hash): a changed included file makes stored
 * results stale. A run hashes the very files it compiles from; vkat_tune_key reads them for callers that do not. */
static vkat_result key_with_template_hash(const vkat_space *space, const vkat_device_info *device, uint64_t h,
                                          vkat_row *key, vkat_error *err)
{
    memset(key, 0, sizeof *key);
    vkat_source_set set;
    /* The reference and its included files decide what is correct, so they count too: an edited reference starts
     * a new series. (Before stored SPIR-V, a reference without includes was left out of the key.) */
    if (space->reference_path) {
        if (vkat_source_set_load(space->reference_path, (const char *const *)space->include_dirs,
                                 space->include_dir_count, &set, err) != VKAT_OK)
            return vkat_fail(err, VKAT_ERR_IO, space->reference_path, 0, "cannot read the reference");
        uint64_t ref = vkat_source_set_hash(&set);
        h = XXH3_64bits_withSeed(&ref, sizeof ref, h);
        vkat_source_set_free(&set);
    }
    if (space->reference_config) /* another reference configuration checks otherwise */
        h = XXH3_64bits_withSeed(space->reference_config, strlen(space->reference_config), h);
    /* The templates of a sequence's passes are part of the variant too. */
    vkat_result r = vkat_sequence_templates_hash(space, &h, err);
    if (r != VKAT_OK)
        return r;
    vkat_hash_hex(h, key->template_hash);
    vkat_device_key_from_info(device, &key->device);
    snprintf(key->kernel, sizeof key->kernel, "%s", space->name);
    vkat_hash_hex(space->file_hash, key->space_hash);
    vkat_space_format_problem(space, key->problem, sizeof key->problem);
    return VKAT_OK;
}

vkat_result vkat_tune_key(const vkat_space *space, const vkat_device_info *device, vkat_row *key, vkat_error *err)
{
    vkat_source_set set;
    if (vkat_source_set_load(space->template_path, (const char *const *)space->include_dirs,
                             space->include_dir_count, &set, err) != VKAT_OK)
        return vkat_fail(err, VKAT_ERR_IO, space->template_path, 0, "cannot read the template");
    uint64_t h = vkat_source_set_hash(&set);
    vkat_source_set_free(&set);
    return key_with_template_hash(space, device, h, key, err);
}

vkat_result vkat_tune_build(const vkat_space *space, const vkat_device_info *device, const uint32_t *choice,
                            vkat_value *env, vkat_launch *launch, vkat_spirv *spirv, vkat_error *err)
{
    vkat_space_env_apply(space, choice, env);
    vkat_result r = vkat_space_launch(space, env, 0, launch, err);
    if (r != VKAT_OK)
        return r;
    r = vkat_build_file(space, space->template_path, device, NULL, env, launch, 0, spirv, NULL, err);
    if (r != VKAT_OK)
        vkat_launch_free(launch);
    return r;
}

/* ---- Device limits, read from the SPIR-V before a pipeline exists ---------------------------------------- */

static int within_limits(const vkat_device_info *d, const vkat_spirv_info *si, const vkat_launch *launch, char *why,
                         size_t size)
{
    uint64_t inv = (uint64_t)si->local_size[0] * si->local_size[1] * si->local_size[2];
    if (si->shared_bytes > d->max_shared_memory) {
        snprintf(why, size, "shared memory %" PRIu64 " bytes > device limit %u", si->shared_bytes,
                 d->max_shared_memory);
        return 0;
    }
    if (inv > d->max_workgroup_invocations) {
        snprintf(why, size, "workgroup of %" PRIu64 " invocations > device limit %u", inv,
                 d->max_workgroup_invocations);
        return 0;
    }
    for (int i = 0; i < 3; i++) {
        if (si->local_size[i] > d->max_workgroup_size[i]) {
            snprintf(why, size, "local size %c %u > device limit %u", "xyz"[i], si->local_size[i],
                     d->max_workgroup_size[i]);
            return 0;
        }
        if (launch->groups[i] > d->max_workgroup_count[i]) {
            snprintf(why, size, "group count %c %u > device limit %u", "xyz"[i], launch->groups[i],
                     d->max_workgroup_count[i]);
            return 0;
        }
    }
    return 1;
}

/* ---- One device's run -------------------------------------------------------------------------------------- */

/* Variants in flight at once. Fixed, not derived from --jobs, so that the order of proposals and observations, and
 * hence the measured set and the winner, is the same for any number of workers. */
#define WINDOW 32
/* A strategy whose proposals ignore what it observes (vkat_strategy_ops_blind) measures the same set whatever the
 * window, so its window is wide: a slow pipeline (5-8 s of NVIDIA's compile for 1 variant in 10 of sgemm_wt at
 * 4096^3, records/session8-issue-22.md) then no longer stops the proposals behind it, and the workers keep
 * preparing while the lane measures past it. Adaptive strategies keep WINDOW: replayed on an H200 table, auto with
 * 64 in flight needed more evaluations (0.986 of the optimum after 100 instead of 0.998). */
#define BLIND_WINDOW 128

/* One variant on its way from proposal to result. Workers fill the preparation part; the measuring thread the rest. */
typedef struct job {
    uint32_t *choice;
    vkat_value *env;
    vkat_row row;
    int resumed; /* answered from the database: nothing to do */
    /* preparation (instantiate, compile, validate, limits, pipeline) */
    vkat_launch launch;
    vkat_spirv spirv;
    vkat_sequence sequence; /* a sequence of dispatches' modules; step_count 0 for one dispatch */
    vkat_spec_value spec[64];
    size_t spec_count;
    vkat_kernel *kernel;
    vkat_result result;
    vkat_error error;
    int pipeline_failed;
    double t_instantiate, t_compile, t_validate, t_pipeline;
    int cache_hit;
    /* on the measuring thread, for the trace (measure_trace.h) */
    double t_wait, t_check, t_warmup, t_measure, t_store, warm_last;
    double gap; /* how long the GPU had idled when the checked run began */
    double check_run; /* the checked run's dispatch, seconds (NAN: not timed) */
    uint32_t samples;
    unsigned long seq;      /* proposal order, from 0 */
    double t_ready, t_taken; /* preparation done; taken by the measuring thread (vkat_now) */
    /* the outcome, as the measuring lane hands it back */
    struct run_ctx *lane;
    int outcome;      /* 0 measured, 1 resumed from the database, 2 dropped unmeasured */
    int finished;     /* guarded by the search's lock */
    vkat_result fatal; /* non-OK: the run must stop (template error, database error) */
    vkat_error fatal_error;
} job;

typedef struct search_ctx search_ctx;

/* One device's lane of a run: its logical device, buffers, reference outputs, the pool that prepares pipelines for
 * it, and the thread that measures on it. Several identical GPUs of one host share one search, a lane each. */
typedef struct run_ctx {
    search_ctx *search;
    const vkat_space *space;
    const vkat_instance *inst;
    uint32_t device_index;
    const vkat_device_info *device;
    const vkat_tune_opts *opts;
    vkat_store *store; /* this lane's own connection: one per thread */
    vkat_gpu *gpu;
    vkat_workspace *ws; /* changes only while the pool is paused */
    vkat_buffer_spec *buffers;
    void **reference; /* [buffer_count], outputs only; NULL when no reference */
    int has_reference;
    vkat_gpu_check *gpu_check; /* the outputs compared on the device; NULL: all on the host */
    vkat_value *env;  /* scratch environment for setting the device up */
    const vkat_shader_sources *sources; /* the template's files and compile options */
    vkat_compile_cache *compile_cache;
    vkat_tune_times *times;
    vkat_pool *pool;
    /* the measuring thread; `queued` and `stopping` are guarded by the search's lock */
    pthread_t thread;
    int started, stopping;
    unsigned queued, in_flight;
    pthread_cond_t cv;
    /* on the measuring thread: the GPU's stretch of load (busy.h) and what its first dispatches cost
     * (first_dispatch.h) */
    vkat_busy busy;
    vkat_first_dispatch first;
    double setup_s[4]; /* the first set-up: device, workspace, reference, device check (for the trace) */
    /* With workers to prepare variants meanwhile, the reference runs on the measuring thread at its start instead
     * of before the search (`defer_reference`): its run and the device check's set-up (a 4096^3 GEMM's reference
     * and its 64 MB read back, compared and uploaded again) then overlap the first pipelines' creation, which the
     * first measurement waits for anyway. Its result, and when the lane was ready to measure (vkat_now). */
    int defer_reference;
    vkat_result setup_result;
    vkat_error setup_error;
    double ready_at;
} run_ctx;

/* The search over all lanes: the driver's hooks (search_run.c) run on the caller's thread, measurements on the
 * lanes' threads, and finished jobs come back through a queue. */
struct search_ctx {
    const vkat_space *space;
    const vkat_tune_opts *opts;
    vkat_tune_report *report;
    vkat_store *store; /* the caller's connection: resume lookups */
    run_ctx *lanes;
    size_t nlanes;
    job **free_list;
    unsigned nfree;
    vkat_value *env;        /* the constraint check's scratch environment */
    vkat_value *oracle_env; /* the strategies' validity oracle's */
    double start;
    vkat_error hook_error; /* why a hook failed */
    int abort;  /* the search failed: lanes drop what they still hold */
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    /* Results reach the strategy as they finish: a variant measured while an older one's pipeline is still being
     * created (4-7 s of NVIDIA's compile for some sgemm_wt variants) is heard of at once, so the strategy proposes
     * the next and the workers stay busy; in proposal order, a from-scratch H200 search's workers idled 2 of its
     * first 4 s behind one such pipeline (records/session11-issue-22-pipe.md). A blind strategy measures the same
     * set either way. With `ordered` (VKAT_REPORT_IN_ORDER=1 or VKAT_MEASURE_IN_ORDER=1, one lane) results come
     * back in submission order, as before session 11: an adaptive strategy's proposals then do not depend on
     * --jobs or on how long pipelines took. Either way a ring of window slots. */
    int ordered;
    job **done;
    size_t done_head, done_count, done_cap;
    vkat_race_opts race;     /* defaults filled in */
    vkat_race_bound bound;   /* the least upper bound of the checked full measurements so far */
    FILE *trace;             /* VKAT_MEASURE_TRACE's file (measure_trace.h); NULL: none */
    /* Lanes measure whichever prepared variant is oldest (a slow pipeline no longer holds up those behind it);
     * VKAT_MEASURE_IN_ORDER=1 measures strictly in proposal order, as before session 8 (the benchmark's baseline),
     * and reports in it (`ordered`). */
    int in_order;
    unsigned long submitted;
    /* VKAT_PIPELINE_STRIP_DEBUG=1: the driver gets the module without its debug names (the SPIR-V stored, hashed and
     * exported keeps them); a measurement of the driver's creation time, not a default (session 8, #22). */
    int strip_debug;
    /* VKAT_WARMUP_BUSY_GAP: the longest idle after which a lane kept busy needs no minimum warm-up (busy.h; 0 or
     * negative: every variant gets it). VKAT_RACE_CONFIRM=1: every cut by the checked run takes its confirming
     * dispatch, as in session 9 (first_dispatch.h). */
    double busy_gap_s;
    int always_confirm;
    /* The best full measurement so far, as the lanes measure it (guarded by `lock`): with results reported in
     * proposal order (`ordered`) it can be ahead of them, and the progress shows it as soon as it exists. */
    double measured_best_s;
    char measured_best_config[512];
    /* The best full measurement the strategy has heard of (search thread only): the progress's best. Not the
     * search's best_s, which counts raced-out partial medians too: a raced-out row resumed from the database can
     * be faster than this run's full measurement of the row that raced it out (noise), and must not be shown. */
    double reported_best_s;
};

static void free_reference(run_ctx *c)
{
    if (!c->reference)
        return;
    for (size_t i = 0; i < c->space->buffer_count; i++)
        free(c->reference[i]);
    free(c->reference);
    c->reference = NULL;
}

/* Counts the elements of `data` that equal `pattern` (one element's bytes); with `also`, only those where `also`
 * holds `also_pattern` too. *first is the first such index. */
static uint64_t count_pattern(const unsigned char *data, const unsigned char *pattern, const unsigned char *also,
                              const unsigned char *also_pattern, uint64_t count, size_t size, uint64_t *first)
{
    uint64_t n = 0;
    *first = UINT64_MAX;
    for (uint64_t e = 0; e < count; e++)
        if (!memcmp(data + e * size, pattern, size) && (!also || !memcmp(also + e * size, also_pattern, size)))
            if (n++ == 0)
                *first = e;
    return n;
}

/* An output element of the reference that still holds the poison was never written (or the reference computed
 * the poison's very bits, which an integer output may): a second run with the outputs filled with the poison's
 * complement tells the two apart. Unwritten elements are an error in the space, never something to match: a
 * variant that writes nothing would otherwise equal the reference there. */
static vkat_result check_reference_wrote(run_ctx *c, vkat_kernel *k, const vkat_launch *launch, uint64_t timeout_ns,
                                         vkat_error *err)
{
    const vkat_space *s = c->space;
    int suspect = 0;
    for (size_t i = 0; i < s->buffer_count; i++) {
        uint8_t poison[8];
        uint64_t first;
        vkat_poison_element(s->buffers[i].type, poison);
        if (s->buffers[i].dir == VKAT_DIR_OUT &&
            count_pattern(c->reference[i], poison, NULL, NULL, c->buffers[i].count,
                          vkat_elem_type_size(s->buffers[i].type), &first))
            suspect = 1;
    }
    if (!suspect)
        return VKAT_OK;
    vkat_result r = vkat_workspace_reset(c->ws, err);
    for (size_t i = 0; r == VKAT_OK && i < s->buffer_count; i++) {
        if (s->buffers[i].dir != VKAT_DIR_OUT)
            continue;
        size_t size = vkat_elem_type_size(s->buffers[i].type);
        uint64_t bytes = c->buffers[i].count * size;
        unsigned char *fill = malloc(bytes ? bytes : 1);
        if (!fill)
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        uint8_t poison[8];
        vkat_poison_element(s->buffers[i].type, poison);
        for (uint64_t o = 0; o < bytes; o++)
            fill[o] = (unsigned char)~poison[o % size];
        r = vkat_workspace_upload_data(c->ws, i, fill, err);
        free(fill);
    }
    if (r == VKAT_OK)
        r = vkat_kernel_run(k, launch->groups, launch->push, timeout_ns, err);
    for (size_t i = 0; r == VKAT_OK && i < s->buffer_count; i++) {
        if (s->buffers[i].dir != VKAT_DIR_OUT)
            continue;
        size_t size = vkat_elem_type_size(s->buffers[i].type);
        uint8_t poison[8], other[8];
        vkat_poison_element(s->buffers[i].type, poison);
        for (size_t b = 0; b < size; b++)
            other[b] = (uint8_t)~poison[b];
        void *again = NULL;
        int canary_ok = 1;
        if ((r = vkat_workspace_read(c->ws, i, &again, &canary_ok, err)) != VKAT_OK)
            break;
        uint64_t first = 0;
        uint64_t n = count_pattern(c->reference[i], poison, again, other, c->buffers[i].count, size, &first);
        free(again);
        if (n)
            r = vkat_fail(err, VKAT_ERR_SPACE, s->path, s->buffers[i].line,
                          "the reference left %llu of %llu elements of '%s' unwritten (first at %llu); it must "
                          "write every element of an out buffer",
                          (unsigned long long)n, (unsigned long long)c->buffers[i].count, s->buffers[i].name,
                          (unsigned long long)first);
    }
    return r;
}

static void describe_wrong(const vkat_buffer_spec *b, const char *name, uint64_t off, const vkat_check_report *rep,
                           char *out, size_t size);

/* A reference that wrote zeros to every output checks little: a variant that computes nothing matches it. Said as
 * a warning, since zeros may be the answer, but most often a size is 0 (a specialization constant's default, which
 * `vkautotune init` keeps: a Kompute shader's float constants) and the kernel did no work. */
static void warn_zero_reference(const run_ctx *c)
{
    const vkat_space *s = c->space;
    char names[256] = "";
    size_t len = 0, outputs = 0;
    for (size_t i = 0; i < s->buffer_count; i++) {
        if (!(s->buffers[i].dir & VKAT_DIR_OUT))
            continue;
        if (!vkat_check_all_zero(c->reference[i], c->buffers[i].count * vkat_elem_type_size(s->buffers[i].type)))
            return;
        if (len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s'%s'", outputs ? ", " : "",
                                    s->buffers[i].name);
        outputs++;
    }
    if (outputs)
        vkat_log(VKAT_LOG_WARN, "%s: the reference wrote only zeros to %s: a variant that does nothing passes the "
                 "check too; is a size 0 (a specialization constant's default, a push value)?", s->path, names);
}

/* Compares n elements of output i, got against ref; an unordered output ([check] compare.NAME = unordered, an
 * append buffer) sorted on both sides first: got in place, ref in a copy, since the reference serves every variant. */
static vkat_result compare_output(const vkat_space *s, size_t i, void *got, const void *ref, uint64_t n,
                                  const vkat_check_opts *copts, vkat_check_report *rep, vkat_error *err)
{
    uint8_t poison[8];
    size_t es = vkat_elem_type_size(s->buffers[i].type);
    void *sorted = s->buffers[i].compare_unordered ? malloc(n ? n * es : 1) : NULL;
    if (s->buffers[i].compare_unordered && !sorted)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (sorted) {
        memcpy(sorted, ref, n * es);
        if (vkat_check_sort_elements(s->buffers[i].type, got, n) || vkat_check_sort_elements(s->buffers[i].type,
                                                                                                sorted, n)) {
            free(sorted);
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        }
    }
    vkat_poison_element(s->buffers[i].type, poison);
    vkat_check_compare(s->buffers[i].type, got, sorted ? sorted : ref, n, poison, copts, rep);
    free(sorted);
    return VKAT_OK;
}

/* A reference whose outputs change from one run to the next (an atomic that hands out positions, a race, shared
 * memory read before it is written) would make every variant, its own configuration included, look wrong: a second
 * run must give the first run's outputs, within the check's tolerance. */
static vkat_result check_reference_repeats(run_ctx *c, vkat_kernel *k, const vkat_launch *launch, uint64_t timeout_ns,
                                           vkat_error *err)
{
    const vkat_space *s = c->space;
    vkat_check_opts copts = {s->rel_l2_tolerance, s->max_abs_tolerance};
    vkat_result r = vkat_workspace_reset(c->ws, err);
    if (r == VKAT_OK)
        r = vkat_kernel_run(k, launch->groups, launch->push, timeout_ns, err);
    for (size_t i = 0; r == VKAT_OK && i < s->buffer_count; i++) {
        if (!(s->buffers[i].dir & VKAT_DIR_OUT))
            continue;
        void *again = NULL;
        int canary_ok = 1;
        if ((r = vkat_workspace_read(c->ws, i, &again, &canary_ok, err)) != VKAT_OK)
            break;
        vkat_check_report rep;
        r = compare_output(s, i, again, c->reference[i], c->buffers[i].count, &copts, &rep, err);
        free(again);
        if (r == VKAT_OK && !rep.ok) {
            char what[512];
            describe_wrong(&c->buffers[i], s->buffers[i].name, 0, &rep, what, sizeof what);
            r = vkat_fail(err, VKAT_ERR_SPACE, s->path, s->buffers[i].line,
                          "the reference's output changes from one run to the next (a second run against the "
                          "first: %s): it depends on the order its invocations run in (an atomic that hands out "
                          "positions, a race, shared memory read before it is written), so no variant can be "
                          "checked against it; make that output deterministic, or check against a reference "
                          "that is ([check] reference), or, where only its order changes (an append buffer), "
                          "compare it as a collection ([check] compare.%s = unordered)%s", what, s->buffers[i].name,
                          vkat_check_is_float(s->buffers[i].type)
                              ? ""
                              : " (an integer buffer is compared exactly: one that holds float bits, summed by "
                                "atomicCompSwap, may be declared float32, which allows rounding)");
        }
    }
    return r;
}

static void prepare(void *ctx, void *p);
static void release_job(job *j);

/* The reference of `[check] config`: the template at that configuration, prepared exactly as a variant is (prepare:
 * instantiate, compile, validate, the module's checks, the limits, the pipeline), its unnamed parameters completed
 * for this device (the first valid configuration that keeps the named ones). *env is the configuration's
 * environment (the caller frees it); *launch and *k pass to the caller. */
static vkat_result reference_config_kernel(run_ctx *c, vkat_value **env, vkat_launch *launch, vkat_kernel **k,
                                           vkat_error *err)
{
    const vkat_space *s = c->space;
    size_t np = s->param_count ? s->param_count : 1;
    uint32_t *choice = calloc(np, sizeof *choice);
    bool *named = calloc(np, sizeof *named);
    vkat_result r = VKAT_OK;
    if (!choice || !named || !(*env = vkat_space_env_create(s, c->device)))
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!r)
        r = vkat_space_parse_named(s, s->reference_config, choice, named, err);
    int found = r ? 0 : vkat_space_complete_config(s, *env, choice, named, err);
    if (!r && found < 0)
        r = err->code;
    else if (!r && !found)
        r = vkat_fail(err, VKAT_ERR_SPACE, s->path, s->reference_config_line,
                      "[check] config '%s': no valid configuration on %s keeps it", s->reference_config,
                      c->device->name);
    if (!r) {
        vkat_space_env_apply(s, choice, *env);
        job j;
        memset(&j, 0, sizeof j);
        j.env = *env;
        prepare(c, &j);
        if ((r = j.result) != VKAT_OK && err)
            *err = j.error;
        *launch = j.launch; /* moved out: release_job frees only what stays */
        *k = j.kernel;
        j.launch = (vkat_launch){0};
        j.kernel = NULL;
        release_job(&j);
    }
    if (r && err && !err->file[0]) {
        snprintf(err->file, sizeof err->file, "%s", s->path);
        err->line = s->reference_config_line;
    }
    free(choice);
    free(named);
    return r;
}

static void tell_stage(const run_ctx *c, const char *what)
{
    if (c->opts->stage)
        c->opts->stage(c->opts->progress_user, what);
}

/* The reference's group counts against the device's limits, said at the [check] line that gives them (the failed
 * dispatch would name only the shader). */
static vkat_result check_reference_groups(const run_ctx *c, const vkat_launch *launch, vkat_error *err)
{
    const vkat_space *s = c->space;
    for (int a = 0; a < 3; a++)
        if (launch->groups[a] > c->device->max_workgroup_count[a])
            return vkat_fail(err, VKAT_ERR_LIMITS, s->path, s->ref_groups[a] ? vkat_expr_line(s->ref_groups[a]) : 0,
                             "[check] groups %c is %u; %s allows at most %u (maxComputeWorkGroupCount)", "xyz"[a],
                             launch->groups[a], c->device->name, c->device->max_workgroup_count[a]);
    return VKAT_OK;
}

/* Runs the reference shader once and keeps its outputs. It gets the variants' push-constant block (evaluated for
 * the first configuration: a push constant that depends on a parameter is the space's to avoid in a reference). */
static vkat_result run_reference(run_ctx *c, vkat_error *err)
{
    const vkat_space *s = c->space;
    c->reference = calloc(s->buffer_count, sizeof *c->reference);
    if (!c->reference)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_launch launch = {0};
    vkat_spirv spirv = {0};
    vkat_kernel *k = NULL;
    vkat_value *env = NULL;
    vkat_result r = VKAT_OK;
    if (s->reference_config) {
        r = reference_config_kernel(c, &env, &launch, &k, err);
        goto run;
    }
    r = vkat_space_launch(s, c->env, 1, &launch, err);
    if (r == VKAT_OK && !vkat_space_has_sequence(s, 1))
        r = check_reference_groups(c, &launch, err);
    if (r == VKAT_OK && vkat_space_has_sequence(s, 1)) {
        vkat_sequence q;
        r = vkat_sequence_compile(s, c->device, NULL, c->env, 1, &q, err);
        if (r == VKAT_OK)
            r = vkat_sequence_kernel(&q, c->ws, "main", &k, err);
        vkat_sequence_free(&q);
    } else if (r == VKAT_OK) {
        r = vkat_build_file(s, s->reference_path, c->device, NULL, c->env, &launch, 1, &spirv, NULL,
                            err);
        vkat_spec_value spec[64];
        size_t nspec = vkat_build_spec_values(s, c->env, 1, spec, VKAT_COUNTOF(spec));
        vkat_spirv_info si;
        if (r == VKAT_OK && (r = vkat_spirv_reflect(&spirv, spec, nspec, &si, err)) == VKAT_OK)
            r = vkat_check_bindings(s, s->reference_path, &si, err);
        if (r == VKAT_OK)
            r = vkat_check_push_block(s, s->reference_path, &si, err);
        if (r == VKAT_OK)
            r = vkat_check_spec_constants(s, s->reference_path, &si, spec, nspec, err);
        if (r == VKAT_OK)
            r = vkat_check_local_size(s, "[check]", s->ref_local_size[0], launch.local_size, s->reference_path, &si,
                                      err);
        if (r == VKAT_OK)
            r = vkat_kernel_create(c->ws, &spirv, "main", spec, nspec, launch.push_size, &k, err);
    }
run:
    if (r == VKAT_OK)
        r = vkat_workspace_reset(c->ws, err);
    /* The reference is plain and slow by design: at least 60 s, whatever limit the variants get. */
    uint64_t timeout_ns = c->opts->run_timeout_ns > 60000000000ull ? c->opts->run_timeout_ns : 60000000000ull;
    if (r == VKAT_OK)
        r = vkat_kernel_run(k, launch.groups, launch.push, timeout_ns, err);
    for (size_t i = 0; r == VKAT_OK && i < s->buffer_count; i++) {
        if (!(s->buffers[i].dir & VKAT_DIR_OUT))
            continue;
        int canary_ok = 1;
        r = vkat_workspace_read(c->ws, i, &c->reference[i], &canary_ok, err);
        if (r == VKAT_OK && !canary_ok)
        {
            char where[200];
            r = vkat_fail(err, VKAT_ERR_CHECK, s->reference_path, 0, "the reference shader %s",
                          vkat_workspace_guard_hit(c->ws, i, where, sizeof where));
        }
    }
    if (r == VKAT_OK)
        r = check_reference_wrote(c, k, &launch, timeout_ns, err);
    if (r == VKAT_OK)
        r = check_reference_repeats(c, k, &launch, timeout_ns, err);
    if (r == VKAT_OK)
        warn_zero_reference(c);
    if (r != VKAT_OK && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", s->reference_path ? s->reference_path : s->path);
    vkat_kernel_destroy(k);
    vkat_spirv_free(&spirv);
    vkat_launch_free(&launch);
    free(env);
    return r;
}

/* Which outputs are compared on the device (opts->check_on), with their references uploaded there. The device
 * check only saves time, so a failure to set it up leaves the outputs to the host, with a warning. */
static vkat_result setup_gpu_check(run_ctx *c, vkat_error *err)
{
    const vkat_space *s = c->space;
    vkat_check_on where = c->opts->check_on;
    /* On a CPU device a read-back is a memcpy and the device's float64 sums are emulated: lavapipe checks a 16M
     * output 3-5x slower than the host does (records/check_speed.txt), so auto leaves it to the host. */
    if (where == VKAT_CHECK_HOST || (where == VKAT_CHECK_AUTO && !strcmp(c->device->device_type, "cpu")))
        return VKAT_OK;
    int *use = calloc(s->buffer_count ? s->buffer_count : 1, sizeof *use);
    if (!use)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    size_t wanted = 0;
    for (size_t i = 0; i < s->buffer_count; i++) {
        if (!(s->buffers[i].dir & VKAT_DIR_OUT) || !c->reference[i])
            continue;
        if (where == VKAT_CHECK_AUTO && c->buffers[i].count < VKAT_GPU_CHECK_AUTO_MIN)
            continue;
        if (s->buffers[i].compare_count || s->buffers[i].compare_unordered || s->buffers[i].image)
            /* a slice, an unordered output or an image: compared on the host */
            continue;
        /* the device check binds a texel buffer's data as a storage buffer, which maxStorageBufferRange bounds */
        if (s->buffers[i].texel && c->buffers[i].count * vkat_elem_type_size(s->buffers[i].type) >
                                       c->gpu->info->max_storage_buffer_range)
            continue;
        if (vkat_gpu_check_supported(c->gpu, s->buffers[i].type)) {
            use[i] = 1;
            wanted++;
        } else if (where == VKAT_CHECK_GPU) {
            vkat_log(VKAT_LOG_WARN, "buffer '%s' is checked on the host: %s", s->buffers[i].name,
                     c->gpu->float64 ? "the device check does not know its element type"
                                     : "the device has no shaderFloat64 for the device check's float sums");
        }
    }
    vkat_result r = VKAT_OK;
    if (wanted) {
        vkat_error gerr = {0};
        r = vkat_gpu_check_create(c->ws, c->buffers, s->buffer_count, c->reference, use, &c->gpu_check, &gerr);
        if (r == VKAT_ERR_DEVICE_LOST || r == VKAT_ERR_TIMEOUT) {
            *err = gerr;
        } else if (r) {
            vkat_log(VKAT_LOG_WARN, "outputs are checked on the host: the device check could not be set up (%s)",
                     gerr.message);
            r = VKAT_OK;
        }
    }
    free(use);
    return r;
}

/* Evaluates every buffer's [fields.NAME] into its spec (offsets and words in one allocation each, which the
 * caller frees through field_offsets). */
static vkat_result eval_fields(const vkat_space *s, const vkat_value *env, vkat_buffer_spec *buffers, vkat_error *err)
{
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        if (!b->field_count)
            continue;
        uint32_t *f = malloc(2 * b->field_count * sizeof *f);
        if (!f)
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        for (size_t k = 0; k < b->field_count; k++)
            f[k] = b->fields[k].offset;
        buffers[i].field_offsets = f;
        buffers[i].field_words = f + b->field_count;
        buffers[i].field_count = b->field_count;
        vkat_result r = vkat_space_field_words(s, i, env, buffers[i].count * vkat_elem_type_size(b->type),
                                               f + b->field_count, err);
        if (r)
            return r;
    }
    return VKAT_OK;
}

/* The device and its buffers with their data: what the workers need to prepare variants (setup_reference does the
 * rest of what the variants of one run share). */
static vkat_result setup_device(run_ctx *c, vkat_error *err)
{
    const vkat_space *s = c->space;
    double t0 = vkat_now();
    memset(c->setup_s, 0, sizeof c->setup_s);
    tell_stage(c, "creating the device and filling the inputs");
    vkat_result r = vkat_gpu_create(c->inst, c->device_index, &c->gpu, err);
    if (r != VKAT_OK)
        return r;
    if (c->opts->pipeline_cache_path &&
        (r = vkat_gpu_load_pipeline_cache(c->gpu, c->opts->pipeline_cache_path, err)) != VKAT_OK)
        return r;
    double t1 = vkat_now();
    c->setup_s[0] = t1 - t0;
    /* Buffer sizes depend only on problem and device (checked by vkat_tune_device), so any configuration's
     * environment gives them; the first one is used. */
    uint32_t *zero = calloc(s->param_count ? s->param_count : 1, sizeof *zero);
    vkat_launch launch = {0};
    if (!zero)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_space_env_apply(s, zero, c->env);
    free(zero);
    r = vkat_space_launch(s, c->env, s->reference_path != NULL, &launch, err);
    if (r != VKAT_OK)
        return r;
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        c->buffers[i] = (vkat_buffer_spec){b->name,   b->type, launch.buffer_counts[i], b->init, b->init_a, b->init_b,
                                           b->dir,    b->uniform, 1, b->set, b->binding};
        if (b->image) {
            c->buffers[i].image = b->image;
            memcpy(c->buffers[i].extent, launch.image_extents[i], sizeof c->buffers[i].extent);
            c->buffers[i].dims = vkat_image_dims(b);
            c->buffers[i].sampled = b->sampled;
        }
        c->buffers[i].texel = b->texel;
    }
    vkat_launch_free(&launch);
    r = eval_fields(s, c->env, c->buffers, err);
    if (r == VKAT_OK)
        r = vkat_workspace_create(c->gpu, c->buffers, s->buffer_count, c->opts->data_seed ? c->opts->data_seed : 1,
                                  &c->ws, err);
    for (size_t i = 0; i < s->buffer_count; i++) {
        free((uint32_t *)c->buffers[i].field_offsets); /* the workspace has its copy */
        c->buffers[i].field_offsets = c->buffers[i].field_words = NULL;
    }
    if (r == VKAT_ERR_LIMITS && err && !err->file[0]) {
        /* Point at the space line of the buffer that does not fit (the message names it). */
        for (size_t i = 0; i < s->buffer_count; i++) {
            char quoted[160];
            snprintf(quoted, sizeof quoted, "'%s'", s->buffers[i].name);
            if (strstr(err->message, quoted)) {
                snprintf(err->file, sizeof err->file, "%s", s->path);
                err->line = s->buffers[i].line;
                break;
            }
        }
    }
    c->setup_s[1] = vkat_now() - t1;
    return r;
}

/* The reference's outputs and the device check: what checking a variant needs, and not preparing one. */
static vkat_result setup_reference(run_ctx *c, vkat_error *err)
{
    if (!c->has_reference)
        return VKAT_OK;
    char what[4400];
    const char *alongside = c->defer_reference ? ", the first variants being prepared alongside" : "";
    if (c->space->reference_path)
        snprintf(what, sizeof what, "running the reference shader %s%s", c->space->reference_path, alongside);
    else
        snprintf(what, sizeof what, "running the reference configuration %s%s", c->space->reference_config,
                 alongside);
    tell_stage(c, what);
    double t0 = vkat_now();
    vkat_result r = run_reference(c, err);
    double t1 = vkat_now();
    c->setup_s[2] = t1 - t0;
    if (r == VKAT_OK)
        r = setup_gpu_check(c, err);
    c->setup_s[3] = vkat_now() - t1;
    return r;
}

static void teardown_device(run_ctx *c)
{
    vkat_gpu_check_destroy(c->gpu_check);
    c->gpu_check = NULL;
    free_reference(c);
    vkat_workspace_destroy(c->ws);
    c->ws = NULL;
    if (c->gpu && c->opts->pipeline_cache_path) {
        vkat_error err = {0};
        if (vkat_gpu_save_pipeline_cache(c->gpu, c->opts->pipeline_cache_path, &err) != VKAT_OK)
            vkat_log(VKAT_LOG_WARN, "%s: %s", err.file, err.message);
    }
    vkat_gpu_destroy(c->gpu);
    c->gpu = NULL;
}

/* A wrong output's reason: "buffer 'Y': ..."; for an image or a texel buffer, where its first bad element sits, as a
 * texel and one of its components (element numbers count components). `off` is where the compared slice starts. */
static void describe_wrong(const vkat_buffer_spec *b, const char *name, uint64_t off, const vkat_check_report *rep,
                           char *out, size_t size)
{
    const vkat_image_format *f = b->image ? b->image : b->texel;
    const char *kind = b->image ? "image" : b->texel ? "texel buffer" : "buffer";
    if (!f || rep->first_bad == UINT64_MAX) {
        snprintf(out, size, "%s '%s': %s", kind, name, rep->reason);
        return;
    }
    uint64_t element = off + rep->first_bad, texel = element / f->channels;
    char at[96];
    snprintf(at, sizeof at, "%llu", (unsigned long long)texel); /* a texel buffer, or a 1D image */
    if (b->image && b->dims >= 2) {
        uint64_t x = texel % b->extent[0], y = texel / b->extent[0] % b->extent[1];
        uint64_t z = texel / ((uint64_t)b->extent[0] * b->extent[1]);
        if (b->dims == 3)
            snprintf(at, sizeof at, "(%llu, %llu, %llu)", (unsigned long long)x, (unsigned long long)y,
                     (unsigned long long)z);
        else
            snprintf(at, sizeof at, "(%llu, %llu)", (unsigned long long)x, (unsigned long long)y);
    }
    snprintf(out, size, "%s '%s': %s; element %llu is texel %s, component %llu", kind, name, rep->reason,
             (unsigned long long)element, at, (unsigned long long)(element % f->channels));
}

/* Runs the variant once with poisoned outputs and compares with the reference. Fills row status/reason, and *run_s
 * with the dispatch's GPU time (NAN: none). */
static vkat_result checked_run(run_ctx *c, vkat_kernel *k, const vkat_launch *launch, const vkat_value *env,
                               vkat_row *row, double *run_s, vkat_error *err)
{
    const vkat_space *s = c->space;
    row->rel_l2 = row->max_abs = 0; /* the worst over the outputs, below */
    vkat_result r = vkat_workspace_reset(c->ws, err);
    if (r != VKAT_OK)
        return r;
    r = vkat_kernel_run_timed(k, launch->groups, launch->push,
                              c->opts->run_timeout_ns ? c->opts->run_timeout_ns : 10000000000ull, run_s, err);
    if (r != VKAT_OK)
        return r;
    vkat_check_opts copts = {s->rel_l2_tolerance, s->max_abs_tolerance};
    int all_on_gpu = c->gpu_check != NULL;
    for (size_t i = 0; i < s->buffer_count; i++) {
        if (!(s->buffers[i].dir & VKAT_DIR_OUT))
            continue;
        if (vkat_gpu_check_covers(c->gpu_check, i)) {
            /* Canary and partial sums only; a variant the device does not clearly pass is read back below, so
             * that the host's check gives the status and reason. */
            int canary_ok = 1;
            vkat_gpu_check_report g;
            if ((r = vkat_workspace_read_canary(c->ws, i, &canary_ok, err)) != VKAT_OK)
                return r;
            if (!canary_ok) {
                row->status = VKAT_STATUS_CANARY;
                vkat_workspace_guard_hit(c->ws, i, row->reason, sizeof row->reason);
                return VKAT_OK;
            }
            if ((r = vkat_gpu_check_compare(c->gpu_check, i, &copts, &g, err)) != VKAT_OK)
                return r;
            if (g.ok) {
                row->rel_l2 = fmax(row->rel_l2, g.rel_l2);
                row->max_abs = fmax(row->max_abs, g.max_abs);
                continue;
            }
        }
        all_on_gpu = 0;
        void *got = NULL;
        int canary_ok = 1;
        r = vkat_workspace_read(c->ws, i, &got, &canary_ok, err);
        if (r != VKAT_OK)
            return r;
        if (!canary_ok) {
            row->status = VKAT_STATUS_CANARY;
            vkat_workspace_guard_hit(c->ws, i, row->reason, sizeof row->reason);
            free(got);
            return VKAT_OK;
        }
        if (c->reference && c->reference[i]) {
            vkat_check_report rep;
            uint64_t off = 0, n = 0;
            size_t es = vkat_elem_type_size(s->buffers[i].type);
            r = vkat_space_compare_slice(s, i, env, c->buffers[i].count, &off, &n, err);
            if (r == VKAT_OK)
                r = compare_output(s, i, (char *)got + off * es, (char *)c->reference[i] + off * es, n, &copts, &rep,
                                   err);
            if (r != VKAT_OK) {
                free(got);
                return r;
            }
            /* the worst output is the variant's figure, whatever the order of the buffers */
            row->rel_l2 = fmax(row->rel_l2, rep.rel_l2);
            row->max_abs = fmax(row->max_abs, rep.max_abs);
            if (!rep.ok) {
                row->status = VKAT_STATUS_WRONG;
                describe_wrong(&c->buffers[i], s->buffers[i].name, off, &rep, row->reason, sizeof row->reason);
                free(got);
                return VKAT_OK;
            }
        }
        free(got);
    }
    row->status = VKAT_STATUS_OK;
    c->times->checked_gpu += all_on_gpu;
    return VKAT_OK;
}

static vkat_status status_for(vkat_result r)
{
    switch (r) {
    case VKAT_ERR_COMPILE: return VKAT_STATUS_COMPILE_ERROR;
    case VKAT_ERR_VALIDATE: return VKAT_STATUS_VALIDATE_ERROR;
    case VKAT_ERR_LIMITS: return VKAT_STATUS_LIMITS;
    case VKAT_ERR_TIMEOUT: return VKAT_STATUS_TIMEOUT;
    case VKAT_ERR_DEVICE_LOST: return VKAT_STATUS_DEVICE_LOST;
    default: return VKAT_STATUS_ERROR;
    }
}

/* ---- Preparation, on worker threads: everything before the GPU runs the variant ------------------------------ */

static void release_job(job *j)
{
    vkat_kernel_destroy(j->kernel);
    j->kernel = NULL;
    vkat_spirv_free(&j->spirv);
    vkat_sequence_free(&j->sequence);
    vkat_launch_free(&j->launch);
}

/* A variant that is a sequence of dispatches: compiled and made one kernel by sequence.c. */
static vkat_result prepare_sequence(run_ctx *c, job *j, vkat_error *e)
{
    const vkat_space *s = c->space;
    double t0 = vkat_now();
    vkat_sequence *q = &j->sequence; /* kept until measured: an "ok" row's modules are stored */
    vkat_result r = vkat_space_launch(s, j->env, 0, &j->launch, e); /* metrics; its dispatch is unused */
    if (r == VKAT_OK)
        r = vkat_sequence_compile(s, c->device, c->compile_cache, j->env, 0, q, e);
    j->t_compile = q->compile_s;
    j->t_validate = q->validate_s;
    j->cache_hit = r == VKAT_OK && q->all_cached;
    double t1 = vkat_now();
    j->t_instantiate = t1 - t0 - q->compile_s - q->validate_s;
    if (r == VKAT_OK) {
        vkat_hash_hex(q->hash, j->row.spirv_hash);
        r = vkat_sequence_kernel(q, c->ws, s->entry, &j->kernel, e);
        j->pipeline_failed = r == VKAT_ERR_VULKAN;
        j->t_pipeline = vkat_now() - t1;
    }
    if (r != VKAT_OK)
        vkat_sequence_free(q);
    return r;
}

static void prepare(void *ctx, void *p)
{
    run_ctx *c = ctx;
    job *j = p;
    const vkat_space *s = c->space;
    vkat_error *e = &j->error;
    double t0 = vkat_now();
    j->pipeline_failed = 0;
    /* a slot is reused: a variant that fails before its pipeline must not report the last one's times */
    j->t_compile = j->t_validate = j->t_pipeline = 0;
    j->spec_count = vkat_build_spec_values(s, j->env, 0, j->spec, VKAT_COUNTOF(j->spec));
    if (vkat_space_has_sequence(s, 0)) {
        j->result = prepare_sequence(c, j, e);
        j->t_ready = vkat_now();
        return;
    }
    vkat_result r = vkat_space_launch(s, j->env, 0, &j->launch, e);
    vkat_build_times bt = {0};
    if (r == VKAT_OK)
        r = vkat_build_spirv(s, c->sources, c->device, c->compile_cache, j->env, &j->launch, 0,
                             &j->spirv, &bt, e);
    j->t_instantiate = vkat_now() - t0 - bt.compile_s - bt.validate_s;
    j->t_compile = bt.compile_s;
    j->t_validate = bt.validate_s;
    j->cache_hit = bt.cache_hit;
    if (r == VKAT_OK) {
        vkat_hash_hex(vkat_spirv_hash(&j->spirv), j->row.spirv_hash);
        vkat_spirv_info si;
        char why[256];
        r = vkat_check_kernel_module(s, &j->spirv, j->spec, j->spec_count, &j->launch, &si, e);
        if (r == VKAT_OK && !within_limits(c->device, &si, &j->launch, why, sizeof why))
            r = vkat_fail(e, VKAT_ERR_LIMITS, NULL, 0, "%s", why);
    }
    if (r == VKAT_OK) {
        double t2 = vkat_now(); /* a stripped copy's making counts as pipeline time */
        vkat_spirv stripped = {0};
        int strip = c->search->strip_debug && vkat_spirv_strip_debug(&j->spirv, &stripped, e) == VKAT_OK;
        r = vkat_kernel_create(c->ws, strip ? &stripped : &j->spirv, s->entry, j->spec, j->spec_count,
                               j->launch.push_size, &j->kernel, e);
        vkat_spirv_free(&stripped);
        j->pipeline_failed = r == VKAT_ERR_VULKAN;
        j->t_pipeline = vkat_now() - t2;
    }
    j->result = r;
    j->t_ready = vkat_now();
}

/* ---- Measurement, on the measuring thread ------------------------------------------------------------------- */

/* Racing, asked after every timed sample (vkat_timing_opts.after_sample). */
typedef struct race_ctx {
    search_ctx *search;
    uint32_t repetitions;
    double cut_bound, cut_lower; /* when it was cut: the bound, and the variant's lower bound */
} race_ctx;

static int race_after_sample(void *user, const double *samples, uint32_t n)
{
    race_ctx *rc = user;
    double bound = vkat_race_bound_get(&rc->search->bound);
    switch (vkat_race_decide(&rc->search->race, bound, samples, n, rc->repetitions)) {
    case VKAT_RACE_CUT:
        rc->cut_bound = bound;
        rc->cut_lower = vkat_race_lower(&rc->search->race, samples, n);
        return 2;
    case VKAT_RACE_DONE: return 0;
    default: return n >= rc->repetitions; /* a contender past its repetitions: one more */
    }
}

/* The row's timing figures from `tm` and the launch's work (flops, bytes, the rates they give at the median). */
static void row_set_timing(vkat_row *row, const vkat_timing *tm, const vkat_launch *launch, const char *tensor)
{
    row->median_s = tm->median_s;
    row->min_s = tm->min_s;
    row->max_s = tm->max_s;
    row->mad_s = tm->mad_s;
    row->samples = tm->samples;
    row->batch = tm->batch;
    row->flops = launch->flops;
    row->bytes = launch->bytes;
    snprintf(row->tensor, sizeof row->tensor, "%s", tensor);
    row->tflops = launch->flops > 0 && tm->median_s > 0 ? launch->flops / tm->median_s * 1e-12 : 0;
    row->gbps = launch->bytes > 0 && tm->median_s > 0 ? launch->bytes / tm->median_s * 1e-9 : 0;
}

/* The minimum warm-up is waived for a variant whose lane kept its GPU busy for at least that long (busy.h), unless
 * the warm-up is fixed (--warmup-min equal to --warmup: asked for as it is) or has no minimum anyway. */
static int busy_waives_minimum(run_ctx *c, const vkat_timing_opts *to)
{
    vkat_timing_opts o = vkat_timing_defaults(to);
    if (!(o.min_warmup_s > 0) || o.min_warmup_s >= o.warmup_s)
        return 0;
    vkat_busy_idle(&c->busy, vkat_workspace_idle_s(c->ws), c->search->busy_gap_s); /* the check's host side */
    return vkat_busy_warm(&c->busy, o.min_warmup_s, c->search->busy_gap_s);
}

/* A variant the checked run alone raced out (vkat_race_check_cut). A driver that compiles at the first dispatch
 * (lavapipe) puts its compile into that dispatch, so one more dispatch, right after, must agree: the row holds
 * that one as its one sample. 1 when cut. */
static int cut_by_check(run_ctx *c, job *j, double run_s)
{
    search_ctx *sc = c->search;
    double bound = vkat_race_bound_get(&sc->bound);
    if (!vkat_race_check_cut(&sc->race, bound, run_s, j->gap))
        return 0;
    if (sc->always_confirm || !vkat_first_dispatch_enough(&c->first, run_s, sc->race.check_factor, bound)) {
        double again = NAN;
        vkat_error ignored = {0}; /* a failure here is the measurement's to meet and report */
        if (vkat_kernel_run_timed(j->kernel, j->launch.groups, j->launch.push,
                                  c->opts->run_timeout_ns ? c->opts->run_timeout_ns : 10000000000ull, &again,
                                  &ignored) != VKAT_OK ||
            !vkat_race_check_cut(&sc->race, bound, again, 0))
            return 0;
        vkat_busy_ran(&c->busy, again);
        run_s = again;
    }
    vkat_row *row = &j->row;
    row->status = VKAT_STATUS_RACED;
    row->race_bound_s = bound;
    snprintf(row->reason, sizeof row->reason,
             "raced out by its checked run: %.4g ms > %g x the best's upper bound %.4g ms", run_s * 1e3,
             sc->race.check_factor, bound * 1e3);
    vkat_timing one = {.median_s = run_s, .min_s = run_s, .max_s = run_s, .samples = 1, .batch = 1};
    row_set_timing(row, &one, &j->launch, c->space->tensor);
    j->samples = 1;
    return 1;
}

/* Checks and times a prepared variant; always fills row->status. Returns non-OK only when the device can no longer
 * be trusted (lost, or a kernel that did not finish): the caller rebuilds it. */
static vkat_result measure(run_ctx *c, job *j, vkat_error *err)
{
    vkat_row *row = &j->row;
    vkat_error verr = j->error;
    vkat_result r = j->result;
    vkat_tune_times *t = c->times;
    t->instantiate += j->t_instantiate;
    t->compile += j->t_compile;
    t->validate += j->t_validate;
    t->pipeline += j->t_pipeline;
    t->compile_hits += j->cache_hit;
    if (r == VKAT_OK) {
        snprintf(row->pipeline_stats, sizeof row->pipeline_stats, "%s", vkat_kernel_stats(j->kernel));
        int spills = vkat_stats_spills(row->pipeline_stats, NULL, 0);
        t->spill_known += spills != VKAT_SPILLS_UNKNOWN;
        t->spilled += spills == 1;
        j->gap = vkat_workspace_idle_s(c->ws);
        double t0 = vkat_now(), run_s = NAN;
        vkat_busy_idle(&c->busy, j->gap, c->search->busy_gap_s);
        r = checked_run(c, j->kernel, &j->launch, j->env, row, &run_s, &verr);
        double t1 = vkat_now();
        j->check_run = run_s;
        vkat_busy_ran(&c->busy, run_s - c->first.excess_s); /* what a first dispatch adds is not the kernel's load */
        t->check += t1 - t0;
        j->t_check = t1 - t0;
        t->checked++;
        int cut = r == VKAT_OK && row->status == VKAT_STATUS_OK && cut_by_check(c, j, run_s);
        if (cut) {
            j->t_measure = vkat_now() - t1; /* its confirming dispatch */
            t->measure += j->t_measure;
        }
        if (r == VKAT_OK && row->status == VKAT_STATUS_OK && !cut) {
            /* Clocks drop when the GPU idles (../shared/H200.md: 4.5x slower after a pause), and the gaps between
             * variants (pipeline creation, the check's host side) are enough: an H200 search that gave each
             * variant a fixed 0.02 s of warm-up after a short gap ran at 540-1700 MHz and measured its own best
             * configuration at 82 TOPS instead of 310 (issue #21, records/session6-issue-21.md). So every
             * variant is warmed up until its own times stop falling (bench.c, warmup.h), up to --warmup. */
            vkat_timing_opts to = c->opts->timing; /* zero fields: bench.c's defaults */
            if (busy_waives_minimum(c, &to)) {
                to.min_warmup_s = -1; /* none: the warm-up still runs until the times stop falling */
                t->warmup_busy++;
            }
            vkat_measure_trace_ctx trace = {c->search->trace, (unsigned)(c - c->search->lanes), row->config};
            if (trace.file) {
                to.warmup_trace = vkat_measure_trace_batch;
                to.warmup_trace_user = &trace;
            }
            race_ctx rc = {c->search, to.repetitions ? to.repetitions : 10, 0, 0};
            if (!c->search->race.disabled) {
                to.after_sample = race_after_sample;
                to.after_sample_user = &rc;
                to.max_repetitions = c->search->race.max_repetitions;
            }
            vkat_timing tm;
            r = vkat_kernel_measure(j->kernel, j->launch.groups, j->launch.push, &to, &tm, &verr);
            j->t_measure = vkat_now() - t1;
            t->measure += j->t_measure; /* a raced-out variant's partial time too */
            j->t_warmup = tm.warmup_s;
            j->warm_last = tm.warmup_last_s;
            j->samples = tm.samples;
            t->warmup += tm.warmup_s;
            t->warmup_capped += r == VKAT_OK && !tm.warmup_settled;
            t->warmup_retaken += r == VKAT_OK && tm.warmup_retaken;
            if (r == VKAT_OK && tm.cut) {
                row->status = VKAT_STATUS_RACED;
                row->race_bound_s = rc.cut_bound;
                snprintf(row->reason, sizeof row->reason,
                         "raced out after %u sample(s): lower bound %.4g ms > the best's upper bound %.4g ms",
                         tm.samples, rc.cut_lower * 1e3, rc.cut_bound * 1e3);
            } else if (r == VKAT_OK) {
                vkat_race_bound_offer(&c->search->bound, &c->search->race, tm.median_s, tm.mad_s);
            }
            if (r == VKAT_OK) {
                vkat_first_dispatch_note(&c->first, run_s, tm.median_s, j->gap, c->search->race.check_gap_s);
                vkat_busy_ran(&c->busy, j->t_measure); /* warm-up and samples: batches back to back */
            }
            if (r == VKAT_OK)
                row_set_timing(row, &tm, &j->launch, c->space->tensor);
        }
    }
    if (r != VKAT_OK) {
        char buf[1024];
        row->status = j->pipeline_failed ? VKAT_STATUS_PIPELINE_ERROR : status_for(r);
        snprintf(row->reason, sizeof row->reason, "%s", vkat_error_format(&verr, buf, sizeof buf));
    }
    release_job(j);
    if (r == VKAT_ERR_DEVICE_LOST || r == VKAT_ERR_TIMEOUT || r == VKAT_ERR_NOMEM) {
        *err = verr;
        return r;
    }
    return VKAT_OK;
}

/* After a lost device or a kernel that did not finish: every prepared pipeline belongs to the old device, so the
 * workers stop, the jobs in flight give back what they hold and are prepared again on the rebuilt device. */
static vkat_result rebuild_device(run_ctx *c, vkat_pool *pool, vkat_error *err)
{
    vkat_pool_pause(pool);
    for (unsigned i = 0; i < vkat_pool_count(pool); i++) {
        job *j = vkat_pool_at(pool, i);
        if (j->resumed)
            continue;
        release_job(j);
        vkat_pool_redo(pool, i);
    }
    teardown_device(c);
    c->busy.load_s = 0; /* a new device: its load starts again */
    double first[4];
    memcpy(first, c->setup_s, sizeof first); /* the trace's set-up line is the run's first */
    vkat_result r = setup_device(c, err);
    if (r == VKAT_OK)
        r = setup_reference(c, err);
    memcpy(c->setup_s, first, sizeof first);
    vkat_pool_resume(pool);
    return r;
}

static const char *pick_strategy(const vkat_tune_opts *opts, uint64_t raw, uint64_t budget)
{
    if (opts->strategy && *opts->strategy)
        return opts->strategy;
    if (opts->shard_count > 1) /* about raw / shard_count configurations are this shard's */
        raw = raw / opts->shard_count + (raw % opts->shard_count != 0);
    /* "auto" (a bandit over model-based, local and annealing search) was chosen by replay on recorded spaces
     * (BENCHMARKS.md, strategies). A time budget (no evaluation limit) says nothing about how much of the space it
     * covers: walking it in index order would spend the time on one corner, so only small spaces go exhaustive. */
    if (opts->budget_s > 0 && budget == UINT64_MAX)
        return raw <= DEFAULT_BUDGET ? "exhaustive" : "auto";
    return raw <= budget ? "exhaustive" : "auto";
}

/* Adds `c` to starts[*n] (np values each) unless it is there already or the array is full. */
static void add_start(uint32_t *starts, size_t *n, size_t cap, size_t np, const uint32_t *c)
{
    for (size_t i = 0; i < *n; i++)
        if (!memcmp(starts + i * np, c, np * sizeof *c))
            return;
    if (*n < cap)
        memcpy(starts + (*n)++ * np, c, np * sizeof *c);
}

/* The strategy's start points: the user's --start configurations, then with --warm-start the database's winners of
 * the same kernel, template and space at other problem sizes, this device's before other devices'. A winner whose
 * configuration no longer parses (the space's values changed) is passed over. */
static vkat_result set_starts(const vkat_space *space, vkat_store *store, const vkat_row *key,
                              const vkat_tune_opts *opts, vkat_strategy *strategy, vkat_error *err)
{
    size_t np = space->param_count, cap = opts->start_count + (opts->warm_start ? MAX_WARM_STARTS : 0);
    if (!cap || !np)
        return VKAT_OK;
    uint32_t *starts = malloc(cap * np * sizeof *starts), *c = malloc(np * sizeof *c);
    vkat_row *rows = NULL;
    size_t n = 0, count = 0;
    vkat_result r = VKAT_OK;
    if (!starts || !c) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < opts->start_count; i++) {
        vkat_error perr = {0};
        if (vkat_space_parse_config(space, opts->starts[i], 0, c, &perr) != VKAT_OK) {
            r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "--start '%s': %s", opts->starts[i], perr.message);
            goto done;
        }
        add_start(starts, &n, cap, np, c);
    }
    if (opts->warm_start && store) {
        if ((r = vkat_store_winners(store, key, &rows, &count, err)) != VKAT_OK)
            goto done;
        size_t before = n;
        for (int same_device = 1; same_device >= 0; same_device--)
            for (size_t i = 0; i < count; i++) {
                if (vkat_device_key_equal(&rows[i].device, &key->device) != same_device ||
                    (same_device && !strcmp(rows[i].problem, key->problem)))
                    continue;
                vkat_error perr = {0};
                if (vkat_space_parse_config(space, rows[i].config, 0, c, &perr) == VKAT_OK)
                    add_start(starts, &n, cap, np, c);
            }
        vkat_log(VKAT_LOG_INFO, "warm start: %zu configuration(s) from other problem sizes in the database",
                 n - before);
    }
    r = vkat_strategy_set_starts(strategy, starts, n, err);
done:
    free(rows);
    free(c);
    free(starts);
    return r;
}

static unsigned default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

/* ---- Lanes: measuring threads ------------------------------------------------------------------------------- */

/* Ordered mode: jobs enter the ring when submitted; unordered: when finished. */
static void enqueue(search_ctx *sc, job *j)
{
    sc->done[(sc->done_head + sc->done_count++) % sc->done_cap] = j;
}

static void finish_job(search_ctx *sc, job *j)
{
    pthread_mutex_lock(&sc->lock);
    j->finished = 1;
    if (!sc->ordered)
        enqueue(sc, j);
    pthread_cond_signal(&sc->done_cv);
    pthread_mutex_unlock(&sc->lock);
}

/* Should the lane drop its job unmeasured? Out of time, interrupted, or the search failed. The time budget counts
 * from the search's start or, for a lane that ran its reference after it, from the lane's being ready: a reference
 * that outlasts the budget must not leave the run with nothing measured. */
static int lane_should_drop(run_ctx *c)
{
    search_ctx *sc = c->search;
    const vkat_tune_opts *opts = sc->opts;
    pthread_mutex_lock(&sc->lock);
    if (opts->stop && *opts->stop)
        sc->report->interrupted = 1;
    double start = fmax(sc->start, c->ready_at);
    int drop = sc->abort || sc->report->interrupted || (opts->budget_s > 0 && vkat_now() - start >= opts->budget_s);
    pthread_mutex_unlock(&sc->lock);
    return drop;
}

/* Measures one prepared job on its lane; fills j->outcome, or j->fatal when the run must stop. */
static void lane_measure(run_ctx *c, job *j)
{
    if (c->setup_result != VKAT_OK) {
        /* The deferred reference failed: the run stops with its error, as it did before the search. */
        j->fatal = c->setup_result;
        j->fatal_error = c->setup_error;
        release_job(j);
        return;
    }
    if (lane_should_drop(c)) {
        /* Out of time or interrupted: what is still in flight is dropped unmeasured. */
        release_job(j);
        j->outcome = 2;
        return;
    }
    if (j->result == VKAT_ERR_TEMPLATE) {
        /* The template does not fit its space: every variant would fail the same way. */
        j->fatal = VKAT_ERR_TEMPLATE;
        j->fatal_error = j->error;
        release_job(j);
        return;
    }
    /* Written before the GPU runs the variant and replaced by its result: if the variant hangs or kills the
     * process, the database says which one it was (the watchdog in cli_tune.c relies on this). */
    vkat_row pending = j->row;
    pending.status = VKAT_STATUS_ABORTED;
    snprintf(pending.reason, sizeof pending.reason, "the process ended while this variant was running%s%s",
             c->opts->claim ? " " : "", c->opts->claim ? c->opts->claim : "");
    j->t_check = j->t_warmup = j->t_measure = j->warm_last = j->gap = 0;
    j->check_run = NAN;
    j->samples = 0;
    double t0 = vkat_now();
    j->fatal = vkat_store_put(c->store, &pending, &j->fatal_error);
    j->t_store = vkat_now() - t0;
    if (j->fatal != VKAT_OK) {
        release_job(j);
        return;
    }
    /* The module(s) leave the job before it is measured (measuring frees what the job holds): an "ok" row's are
     * stored under its SPIR-V hash before the row, so that export writes what was measured. */
    vkat_spirv module = j->spirv;
    vkat_sequence sequence = j->sequence;
    memset(&j->spirv, 0, sizeof j->spirv);
    memset(&j->sequence, 0, sizeof j->sequence);
    vkat_error lost = {0};
    vkat_result mr = measure(c, j, &lost);
    t0 = vkat_now();
    if (j->row.status == VKAT_STATUS_OK && (module.count || sequence.step_count))
        j->fatal = vkat_measured_put(c->store, j->row.spirv_hash, sequence.step_count ? NULL : &module, &sequence,
                                     &j->fatal_error);
    vkat_spirv_free(&module);
    vkat_sequence_free(&sequence);
    if (j->fatal == VKAT_OK)
        j->fatal = vkat_store_put(c->store, &j->row, &j->fatal_error);
    j->t_store += vkat_now() - t0;
    c->times->store += j->t_store;
    if (j->fatal == VKAT_OK && j->row.status == VKAT_STATUS_OK) {
        search_ctx *sc = c->search;
        pthread_mutex_lock(&sc->lock);
        if (j->row.median_s < sc->measured_best_s) {
            sc->measured_best_s = j->row.median_s;
            snprintf(sc->measured_best_config, sizeof sc->measured_best_config, "%s", j->row.config);
        }
        pthread_mutex_unlock(&sc->lock);
    }
    if (c->search->trace) {
        vkat_measure_trace_variant v = {vkat_status_name(j->row.status), j->row.config, j->samples, j->t_wait,
                                        j->t_pipeline, j->t_check, j->t_warmup, j->t_measure, j->t_store,
                                        j->warm_last, j->samples ? j->row.median_s : 0, j->gap, j->seq,
                                        j->t_ready - c->search->start, j->t_taken - c->search->start,
                                        j->check_run};
        vkat_measure_trace_variant_line(c->search->trace, (unsigned)(c - c->search->lanes), &v);
    }
    if (j->fatal != VKAT_OK)
        return;
    if (mr != VKAT_OK) {
        vkat_log(VKAT_LOG_WARN, "%s: %s: %s; recreating the device", c->device->name, j->row.config, j->row.reason);
        j->fatal = rebuild_device(c, c->pool, &j->fatal_error);
    }
}

static void *lane_main(void *arg)
{
    run_ctx *c = arg;
    search_ctx *sc = c->search;
    if (c->defer_reference) {
        c->setup_result = setup_reference(c, &c->setup_error);
        c->ready_at = vkat_now();
    }
    tell_stage(c, "measuring variants");
    for (;;) {
        pthread_mutex_lock(&sc->lock);
        while (!c->stopping && c->queued == 0)
            pthread_cond_wait(&c->cv, &sc->lock);
        if (c->queued == 0) {
            pthread_mutex_unlock(&sc->lock);
            break;
        }
        c->queued--;
        pthread_mutex_unlock(&sc->lock);
        /* Out of time or interrupted: what is still queued is dropped unprepared, not prepared to be dropped (with
         * a wide window that was many seconds of pipeline creation past the budget). */
        if (lane_should_drop(c))
            vkat_pool_cancel_queued(c->pool);
        double t0 = vkat_now();
        job *j = sc->in_order ? vkat_pool_pop(c->pool) : vkat_pool_pop_ready(c->pool);
        j->t_taken = vkat_now();
        j->t_wait = j->t_taken - t0;
        c->times->wait += j->t_wait; /* serial mode (--jobs 1): the preparation itself too */
        lane_measure(c, j);
        finish_job(sc, j);
    }
    return NULL;
}

/* ---- The search's hooks: constraints, submission to a lane, completion ------------------------------------------ */

static int hook_check(void *user, const uint32_t *choice)
{
    search_ctx *sc = user;
    vkat_space_env_apply(sc->space, choice, sc->env);
    return vkat_space_check(sc->space, sc->env, NULL, &sc->hook_error);
}

/* The free validity oracle strategies use to walk around invalid points without spending evaluations. */
static int oracle_valid(void *user, const uint32_t *choice)
{
    search_ctx *sc = user;
    vkat_space_env_apply(sc->space, choice, sc->oracle_env);
    return vkat_space_check(sc->space, sc->oracle_env, NULL, NULL) == 1;
}

static vkat_result hook_submit(void *user, const uint32_t *choice)
{
    search_ctx *sc = user;
    const vkat_space *s = sc->space;
    if (sc->nfree == 0)
        return vkat_fail(&sc->hook_error, VKAT_ERR_INTERNAL, NULL, 0, "more evaluations in flight than the window");
    job *j = sc->free_list[--sc->nfree];
    memcpy(j->choice, choice, s->param_count * sizeof *choice);
    /* Problem and device names from the run's environment, then this configuration. */
    memcpy(j->env, sc->env, vkat_symtab_count(s->symbols) * sizeof *j->env);
    vkat_space_env_apply(s, choice, j->env);
    j->row = sc->report->key;
    vkat_space_format_config(s, choice, j->row.config, sizeof j->row.config);
    j->fatal = VKAT_OK;
    j->outcome = 0;
    j->finished = 0;
    j->seq = sc->submitted++;
    if (sc->ordered) {
        pthread_mutex_lock(&sc->lock);
        enqueue(sc, j);
        pthread_mutex_unlock(&sc->lock);
    }
    vkat_row found;
    int have = vkat_store_get(sc->store, &j->row, &found, &sc->hook_error);
    if (have < 0) {
        sc->free_list[sc->nfree++] = j;
        return VKAT_ERR_DB;
    }
    /* "aborted": the process ended while it ran (killed, power loss), so nothing is known of it: measure again.
     * A watchdog that killed a hung run has turned such rows into timeouts already. */
    if (have && found.status == VKAT_STATUS_ABORTED)
        have = 0;
    /* A raced-out row is a partial measurement: kept while racing, measured in full again without it. A full
     * one found here sets the racing bound as one measured now would. */
    if (have && found.status == VKAT_STATUS_RACED && sc->race.disabled)
        have = 0;
    if (have && found.status == VKAT_STATUS_OK)
        vkat_race_bound_offer(&sc->bound, &sc->race, found.median_s, found.mad_s);
    j->resumed = have;
    j->lane = NULL;
    if (have) {
        j->row = found;
        j->outcome = 1;
        finish_job(sc, j);
        return VKAT_OK;
    }
    /* The least busy lane takes it: identical GPUs share the work as each becomes free. */
    run_ctx *lane = &sc->lanes[0];
    for (size_t i = 1; i < sc->nlanes; i++)
        if (sc->lanes[i].in_flight < lane->in_flight)
            lane = &sc->lanes[i];
    j->lane = lane;
    lane->in_flight++;
    vkat_pool_push(lane->pool, j, 1);
    pthread_mutex_lock(&sc->lock);
    lane->queued++;
    pthread_cond_signal(&lane->cv);
    pthread_mutex_unlock(&sc->lock);
    return VKAT_OK;
}

static vkat_result hook_complete(void *user, uint32_t *choice_out, double *seconds, int *resumed)
{
    search_ctx *sc = user;
    vkat_tune_progress *tp = &sc->report->totals;
    pthread_mutex_lock(&sc->lock);
    while (sc->done_count == 0 || !sc->done[sc->done_head]->finished) {
        pthread_cond_wait(&sc->done_cv, &sc->lock);
        /* A better variant measured while an older one is still being prepared: shown now, not once the older
         * one is done (on the H200 that lagged by up to 6 s). No evaluation is counted for it here. */
        int head_done = sc->done_count && sc->done[sc->done_head]->finished;
        if (!head_done && sc->opts->progress && sc->measured_best_s < tp->best_s) {
            tp->best_s = sc->measured_best_s;
            snprintf(tp->best_config, sizeof tp->best_config, "%s", sc->measured_best_config);
            tp->elapsed_s = vkat_now() - sc->start;
            pthread_mutex_unlock(&sc->lock);
            sc->opts->progress(sc->opts->progress_user, tp);
            pthread_mutex_lock(&sc->lock);
        }
    }
    job *j = sc->done[sc->done_head];
    sc->done_head = (sc->done_head + 1) % sc->done_cap;
    sc->done_count--;
    pthread_mutex_unlock(&sc->lock);
    if (j->lane)
        j->lane->in_flight--;
    memcpy(choice_out, j->choice, sc->space->param_count * sizeof *choice_out);
    vkat_result r = j->fatal;
    if (r != VKAT_OK)
        sc->hook_error = j->fatal_error;
    *resumed = j->outcome;
    /* A raced-out variant's partial median tells the strategy how slow it is; it never becomes the best, since
     * its lower bound was past a full measurement's upper bound. */
    int timed = j->outcome != 2 && (j->row.status == VKAT_STATUS_OK || j->row.status == VKAT_STATUS_RACED);
    *seconds = timed ? j->row.median_s : INFINITY;
    vkat_tune_progress *p = &sc->report->totals;
    if (j->outcome != 2 && j->row.status == VKAT_STATUS_RACED)
        p->raced++;
    if (j->outcome != 2 && j->row.status == VKAT_STATUS_OK && j->row.median_s < sc->reported_best_s) {
        sc->reported_best_s = j->row.median_s;
        if (j->row.median_s < p->best_s) /* else shown already, as measured (above) */
            snprintf(p->best_config, sizeof p->best_config, "%s", j->row.config);
    }
    sc->free_list[sc->nfree++] = j;
    return r;
}

static void hook_error(void *user, vkat_error *err)
{
    *err = ((search_ctx *)user)->hook_error;
}

static void on_progress(void *user, const vkat_search_stats *st)
{
    search_ctx *sc = user;
    vkat_tune_progress *p = &sc->report->totals;
    p->proposed = st->proposed;
    p->invalid = st->invalid;
    p->other_shard = st->other_shard;
    p->evaluated = st->evaluated;
    p->resumed = st->resumed;
    p->failed = st->failed;
    p->best_s = fmin(sc->reported_best_s, p->best_s); /* p's may be a measurement not reported yet (hook_complete) */
    p->elapsed_s = st->elapsed_s;
    p->done = st->final; /* not st->stop: that is set while the evaluations in flight still complete */
    if (sc->opts->progress)
        sc->opts->progress(sc->opts->progress_user, p);
}

/* ---- The run ------------------------------------------------------------------------------------------------ */

/* Stops a lane's thread after the jobs it was given, then its workers, its jobs' resources and its device. */
static void lane_stop(run_ctx *c)
{
    search_ctx *sc = c->search;
    if (c->started) {
        pthread_mutex_lock(&sc->lock);
        c->stopping = 1;
        pthread_cond_signal(&c->cv);
        pthread_mutex_unlock(&sc->lock);
        pthread_join(c->thread, NULL);
        c->started = 0;
    }
    vkat_pool_destroy(c->pool);
    c->pool = NULL;
}

/* ---- vkat_tune_devices' parts ---------------------------------------------------------------------------------- */

/* The devices of one search: present, identical (device_key.c) and offering what the kernel requires; a device
 * that lacks it is not an error (report->skipped with the reason). *first is the first device. */
static vkat_result check_devices(const vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                                 size_t device_count, vkat_tune_report *report, const vkat_device_info **first,
                                 vkat_error *err)
{
    if (device_count == 0)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "no device to tune");
    const vkat_device_info *dev = vkat_instance_device(inst, device_indices[0]);
    if (!dev)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "no device %u", device_indices[0]);
    for (size_t i = 1; i < device_count; i++) {
        const vkat_device_info *d = vkat_instance_device(inst, device_indices[i]);
        if (!d || !vkat_device_identical(d, dev))
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0,
                             "devices %u and %u are not identical: one search can only be shared by identical GPUs",
                             device_indices[0], device_indices[i]);
    }
    *first = dev;
    char missing[128];
    if (!vkat_device_meets(dev, (const char *const *)space->extensions, space->extension_count,
                           (const char *const *)space->features, space->feature_count, missing, sizeof missing)) {
        report->skipped = 1;
        snprintf(report->skip_reason, sizeof report->skip_reason, "%s lacks %s, which kernel '%s' requires", dev->name,
                 missing, space->name);
    }
    return VKAT_OK;
}

/* Starts one lane whose fields vkat_tune_devices has set: its buffers and env, its own store connection, its device
 * (setup_device), its pool of preparing threads and its measuring thread. What it got is undone by lane_stop and
 * teardown_device. */
static vkat_result start_lane(run_ctx *c, vkat_store *store, unsigned lane_jobs, unsigned lane_window,
                              vkat_error *err)
{
    vkat_result r;
    pthread_cond_init(&c->cv, NULL);
    c->buffers = calloc(c->space->buffer_count ? c->space->buffer_count : 1, sizeof *c->buffers);
    c->env = vkat_space_env_create(c->space, c->device);
    if (!c->buffers || !c->env)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if ((r = vkat_store_open(vkat_store_path(store), &c->store, err)) != VKAT_OK)
        return r;
    if ((r = setup_device(c, err)) != VKAT_OK)
        return r;
    c->defer_reference = lane_jobs > 1 && c->has_reference && !c->search->in_order; /* in order: as before */
    if (!c->defer_reference) {
        if ((r = setup_reference(c, err)) != VKAT_OK)
            return r;
        c->ready_at = vkat_now();
    }
    /* --jobs 1 is the serial mode: the measuring thread prepares each variant itself. */
    c->pool = vkat_pool_create(lane_jobs > 1 ? lane_jobs : 0, lane_window, prepare, c);
    if (!c->pool)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "cannot start %u worker threads", lane_jobs);
    if (pthread_create(&c->thread, NULL, lane_main, c) != 0)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "cannot start a measuring thread");
    c->started = 1;
    return VKAT_OK;
}

/* VKAT_ERR_EMPTY_SPACE naming the constraint that leaves nothing at this problem on `dev`, or VKAT_OK. */
static vkat_result explain_empty(const vkat_space *space, const vkat_value *env, const vkat_device_info *dev,
                                 vkat_error *err)
{
    char problem[256], where[640];
    vkat_space_format_problem(space, problem, sizeof problem);
    snprintf(where, sizeof where, "at %s on %s", problem[0] ? problem : "this problem", dev->name);
    return vkat_space_explain_empty(space, env, where, err);
}

/* On a CPU device (lavapipe) compiling beside the measurement takes the very cores being measured: serial by
 * default there, and a warning when asked otherwise. */
static unsigned preparing_jobs(const vkat_device_info *dev, const vkat_tune_opts *opts)
{
    int cpu_device = !strcmp(dev->device_type, "cpu");
    unsigned jobs = opts->jobs ? opts->jobs : cpu_device ? 1 : default_jobs();
    if (cpu_device && jobs > 1)
        vkat_log(VKAT_LOG_WARN, "%s runs on the CPU: %u preparing threads will disturb its timings (--jobs 1 avoids "
                 "that)", dev->name, jobs);
    return jobs;
}

/* The strategy over the space (or its shard), named in the report, with the user's and the warm starts set. */
static vkat_result create_strategy(search_ctx *sc, size_t *counts, uint64_t budget, vkat_search_space *sp,
                                   vkat_strategy **strategy, vkat_error *err)
{
    const vkat_space *space = sc->space;
    const vkat_tune_opts *opts = sc->opts;
    for (size_t i = 0; i < space->param_count; i++)
        counts[i] = space->params[i].value_count;
    if (opts->shard_count > 1 && opts->shard_index >= opts->shard_count)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "shard %u of %u does not exist", opts->shard_index,
                         opts->shard_count);
    *sp = (vkat_search_space){space->param_count, counts, vkat_space_raw_count(space), oracle_valid, sc, NULL, 0, 0};
    if (opts->shard_count > 1) {
        sp->shard_index = opts->shard_index;
        sp->shard_count = opts->shard_count;
    }
    const char *sname = pick_strategy(opts, sp->raw_count, budget);
    snprintf(sc->report->strategy, sizeof sc->report->strategy, "%s", sname);
    vkat_result r = vkat_strategy_create(sname, sp, opts->seed + sp->shard_index, strategy, err);
    if (r == VKAT_OK)
        r = set_starts(space, sc->store, &sc->report->key, opts, *strategy, err);
    return r;
}

/* A lane's stage times into the run's. */
static void add_lane_times(vkat_tune_times *to, const vkat_tune_times *t)
{
    to->instantiate += t->instantiate;
    to->compile += t->compile;
    to->validate += t->validate;
    to->pipeline += t->pipeline;
    to->check += t->check;
    to->measure += t->measure;
    to->compile_hits += t->compile_hits;
    to->checked += t->checked;
    to->checked_gpu += t->checked_gpu;
    to->warmup += t->warmup;
    to->warmup_capped += t->warmup_capped;
    to->warmup_retaken += t->warmup_retaken;
    to->warmup_busy += t->warmup_busy;
    to->spill_known += t->spill_known;
    to->spilled += t->spilled;
    to->wait += t->wait;
    to->store += t->store;
}

/* long: it owns the search context from allocation to teardown under one cleanup label (every object destroyed in
 * reverse order, whatever step failed); the steps themselves are the functions above. */
vkat_result vkat_tune_devices(const vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                              size_t device_count, vkat_store *store, const vkat_tune_opts *opts,
                              vkat_tune_report *report, vkat_error *err)
{
    double call_start = vkat_now();
    memset(report, 0, sizeof *report);
    const vkat_device_info *dev = NULL;
    vkat_result r = check_devices(space, inst, device_indices, device_count, report, &dev, err);
    if (r != VKAT_OK || report->skipped)
        return r;
    /* The template's files, read once: every variant compiles from them and the key hashes them. No #define may
     * replace a name they declare. Identical GPUs have one identity: their results form one series. */
    vkat_shader_sources sources = {0};
    r = vkat_shader_sources_load(space, space->template_path, 0, &sources, err);
    if (r == VKAT_OK)
        r = key_with_template_hash(space, dev, sources.opts.sources_hash, &report->key, err);
    if (r != VKAT_OK) {
        vkat_shader_sources_free(&sources);
        return r;
    }

    unsigned jobs = preparing_jobs(dev, opts);
    /* The preparing threads are shared out among the lanes. */
    unsigned lane_jobs = device_count > 1 ? (jobs + (unsigned)device_count - 1) / (unsigned)device_count : jobs;
    report->times.jobs = jobs;

    uint64_t budget = opts->budget ? opts->budget : DEFAULT_BUDGET;
    unsigned lane_window =
        vkat_strategy_ops_blind(vkat_strategy_find(pick_strategy(opts, vkat_space_raw_count(space), budget)))
            ? BLIND_WINDOW
            : WINDOW;
    size_t window = (size_t)lane_window * device_count;
    size_t np = space->param_count, nsym = vkat_symtab_count(space->symbols);
    search_ctx sc = {0};
    sc.space = space;
    sc.opts = opts;
    sc.report = report;
    sc.store = store;
    sc.nlanes = device_count;
    sc.measured_best_s = sc.reported_best_s = INFINITY;
    pthread_mutex_init(&sc.lock, NULL);
    pthread_cond_init(&sc.done_cv, NULL);
    sc.race = vkat_race_defaults(&opts->race, opts->timing.repetitions);
    report->race = !sc.race.disabled;
    vkat_race_bound_init(&sc.bound);
    sc.trace = vkat_measure_trace_open();
    const char *in_order = getenv("VKAT_MEASURE_IN_ORDER");
    sc.in_order = in_order && *in_order && strcmp(in_order, "0");
    const char *report_order = getenv("VKAT_REPORT_IN_ORDER");
    sc.ordered = device_count == 1 && (sc.in_order || (report_order && *report_order && strcmp(report_order, "0")));
    const char *check = getenv("VKAT_RACE_CHECK_FACTOR"); /* the checked run's cut (race.h); negative: off */
    if (check && *check)
        sc.race.check_factor = atof(check);
    const char *busy = getenv("VKAT_WARMUP_BUSY_GAP");
    sc.busy_gap_s = busy && *busy ? atof(busy) : VKAT_BUSY_GAP_DEFAULT;
    const char *confirm = getenv("VKAT_RACE_CONFIRM");
    sc.always_confirm = confirm && *confirm && strcmp(confirm, "0");
    const char *strip = getenv("VKAT_PIPELINE_STRIP_DEBUG");
    sc.strip_debug = strip && *strip && strcmp(strip, "0");
    vkat_strategy *strategy = NULL;
    job *slots = calloc(window, sizeof *slots);
    uint32_t *choice = calloc(np ? np : 1, sizeof *choice);
    size_t *counts = calloc(np ? np : 1, sizeof *counts);
    vkat_compile_cache *cache = vkat_compile_cache_create(256);
    vkat_tune_times *lane_times = calloc(device_count, sizeof *lane_times);
    sc.lanes = calloc(device_count, sizeof *sc.lanes);
    sc.free_list = calloc(window, sizeof *sc.free_list);
    sc.done_cap = window;
    sc.done = calloc(window, sizeof *sc.done);
    sc.env = vkat_space_env_create(space, dev);
    sc.oracle_env = vkat_space_env_create(space, dev);
    if (!slots || !choice || !counts || !cache || !lane_times || !sc.lanes || !sc.free_list || !sc.done || !sc.env ||
        !sc.oracle_env) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    for (size_t i = 0; i < window; i++) {
        slots[i].choice = calloc(np ? np : 1, sizeof *slots[i].choice);
        slots[i].env = calloc(nsym ? nsym : 1, sizeof *slots[i].env);
        if (!slots[i].choice || !slots[i].env) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            goto cleanup;
        }
        sc.free_list[sc.nfree++] = &slots[i];
    }
    vkat_search_space sp;
    if ((r = create_strategy(&sc, counts, budget, &sp, &strategy, err)) != VKAT_OK)
        goto cleanup;

    for (size_t i = 0; i < device_count; i++) {
        run_ctx *c = &sc.lanes[i];
        c->search = &sc;
        c->space = space;
        c->inst = inst;
        c->device_index = device_indices[i];
        c->device = vkat_instance_device(inst, device_indices[i]);
        c->opts = opts;
        c->has_reference = space->reference_path != NULL || space->reference_config != NULL;
        c->times = &lane_times[i];
        c->sources = &sources;
        c->compile_cache = cache;
        if ((r = start_lane(c, store, lane_jobs, lane_window, err)) != VKAT_OK)
            goto cleanup;
    }

    vkat_tune_progress *p = &report->totals;
    p->budget = budget;
    p->budget_s = opts->budget_s;
    p->best_s = INFINITY;
    vkat_search_hooks hooks = {&sc, hook_check, hook_submit, hook_complete, hook_error};
    vkat_search_limits limits = {budget, opts->budget_s, (uint32_t)window, 0, opts->stop, 0};
    /* Small enough to count (a few hundred ms at most): the search can then stop when every valid configuration is
     * measured, rather than when the strategy has proposed nothing new for a long while. */
    if (opts->shard_count <= 1 && sp.raw_count <= VALID_COUNT_MAX_RAW) {
        uint64_t valid = 0;
        vkat_result c = vkat_space_count_valid(space, sc.oracle_env, 0, NULL, &valid, NULL, NULL);
        if (c == VKAT_OK)
            limits.valid_count = valid;
        if (c == VKAT_ERR_EMPTY_SPACE && (r = explain_empty(space, sc.oracle_env, dev, err)) != VKAT_OK)
            goto cleanup; /* say why and stop, rather than search nothing and find nothing */
    }
    sc.start = vkat_now(); /* the search's: the lanes' set-up and the count above came first */
    vkat_search_stats stats = {0};
    stats.best_choice = choice;
    r = vkat_search_run(strategy, &hooks, &limits, on_progress, &sc, &stats, err);
    if (r == VKAT_OK && p->evaluated == 0 && p->failed == 0 && p->invalid == 0 && opts->shard_count <= 1 &&
        stats.stop != VKAT_STOP_INTERRUPTED)
        r = explain_empty(space, sc.oracle_env, dev, err); /* too large to count first: the strategy found none */
    if (r == VKAT_OK) {
        snprintf(report->stop, sizeof report->stop, "%s", vkat_search_stop_name(stats.stop));
        p->done = 1;
    }

cleanup:
    /* Lanes drop what a failed search left them, then stop; kernels go before the devices. */
    if (r != VKAT_OK) {
        pthread_mutex_lock(&sc.lock);
        sc.abort = 1;
        pthread_mutex_unlock(&sc.lock);
    }
    for (size_t i = 0; sc.lanes && i < device_count; i++)
        lane_stop(&sc.lanes[i]);
    for (size_t i = 0; sc.trace && sc.start > 0 && i < device_count; i++)
        vkat_measure_trace_setup_line(sc.trace, (unsigned)i, sc.lanes[i].setup_s, sc.start - call_start,
                                      sc.lanes[i].ready_at - sc.start);
    for (size_t i = 0; slots && i < window; i++) {
        release_job(&slots[i]);
        free(slots[i].choice);
        free(slots[i].env);
    }
    for (size_t i = 0; sc.lanes && i < device_count; i++) {
        run_ctx *c = &sc.lanes[i];
        teardown_device(c);
        vkat_store_close(c->store);
        free(c->buffers);
        free(c->env);
        if (c->search)
            pthread_cond_destroy(&c->cv);
        add_lane_times(&report->times, &lane_times[i]);
    }
    free(slots);
    vkat_strategy_destroy(strategy);
    vkat_compile_cache_destroy(cache);
    vkat_shader_sources_free(&sources);
    free(lane_times);
    free(sc.lanes);
    free(sc.free_list);
    free(sc.done);
    free(sc.env);
    free(sc.oracle_env);
    pthread_cond_destroy(&sc.done_cv);
    pthread_mutex_destroy(&sc.lock);
    vkat_race_bound_destroy(&sc.bound);
    if (sc.trace)
        fclose(sc.trace);
    free(counts);
    free(choice);
    return r;
}

vkat_result vkat_tune_device(const vkat_space *space, const vkat_instance *inst, uint32_t device_index,
                             vkat_store *store, const vkat_tune_opts *opts, vkat_tune_report *report,
                             vkat_error *err)
{
    return vkat_tune_devices(space, inst, &device_index, 1, store, opts, report, err);
}
