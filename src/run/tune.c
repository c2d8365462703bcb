/* tune.c — the tuning run on one device: asks the strategy for configurations, turns each valid one into a
 * checked, timed measurement, and stores it. The reference runs once per device and problem; every variant's
 * outputs are poisoned before its checked run and compared afterwards. Nothing here prints: progress goes to a
 * callback, diagnostics to the log. */
#include "tune.h"
#include "candidates.h"
#include "check.h"
#include "check_gpu.h"
#include "device_key.h"
#include "pool.h"
#include "export.h"
#include "search.h"
#include "descriptors.h"
#include "measure_trace.h"
#include "shader_sources.h"
#include "sequence.h"
#include "template.h"
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

static void hex64(uint64_t v, char out[17])
{
    snprintf(out, 17, "%016" PRIx64, v);
}

vkat_result vkat_tune_key(const vkat_space *space, const vkat_device_info *device, vkat_row *key, vkat_error *err)
{
    memset(key, 0, sizeof *key);
    /* The template with every file it includes: a changed included file makes stored results stale. */
    vkat_source_set set;
    if (vkat_source_set_load(space->template_path, (const char *const *)space->include_dirs,
                             space->include_dir_count, &set, err) != VKAT_OK)
        return vkat_fail(err, VKAT_ERR_IO, space->template_path, 0, "cannot read the template");
    uint64_t h = vkat_source_set_hash(&set);
    vkat_source_set_free(&set);
    /* The reference's included files decide what is correct, so they count too. Only when it includes something:
     * a reference without includes leaves the key as it always was (older databases keep their results). */
    if (space->reference_path) {
        if (vkat_source_set_load(space->reference_path, (const char *const *)space->include_dirs,
                                 space->include_dir_count, &set, err) != VKAT_OK)
            return vkat_fail(err, VKAT_ERR_IO, space->reference_path, 0, "cannot read the reference");
        if (set.count > 1) {
            uint64_t ref = vkat_source_set_hash(&set);
            h = XXH3_64bits_withSeed(&ref, sizeof ref, h);
        }
        vkat_source_set_free(&set);
    }
    /* The templates of a sequence's passes are part of the variant too. */
    vkat_result r = vkat_sequence_templates_hash(space, &h, err);
    if (r != VKAT_OK)
        return r;
    hex64(h, key->template_hash);
    vkat_device_key_from_info(device, &key->device);
    snprintf(key->kernel, sizeof key->kernel, "%s", space->name);
    hex64(space->file_hash, key->space_hash);
    vkat_space_format_problem(space, key->problem, sizeof key->problem);
    return VKAT_OK;
}

static vkat_result compile_source(const char *template_path, const vkat_space *space, const vkat_device_info *device,
                                  const vkat_value *env, const vkat_launch *launch, int reference,
                                  vkat_spirv *spirv, vkat_error *err)
{
    vkat_shader_sources src;
    char *inst = NULL;
    vkat_result r = vkat_shader_sources_load(space, template_path, reference, &src, err);
    if (r == VKAT_OK)
        r = vkat_template_for_config(space, src.set.files[0].text, template_path, env, launch, reference, &inst,
                                     err);
    if (r == VKAT_OK)
        r = vkat_compile_glsl_opts(inst, template_path, device->api_version, &src.opts, spirv, err);
    vkat_shader_sources_free(&src);
    free(inst);
    if (r != VKAT_OK)
        return r;
    r = vkat_validate_spirv(spirv, device->api_version, err);
    if (r != VKAT_OK)
        vkat_spirv_free(spirv);
    return r;
}

vkat_result vkat_tune_build(const vkat_space *space, const vkat_device_info *device, const uint32_t *choice,
                            vkat_value *env, vkat_launch *launch, vkat_spirv *spirv, vkat_error *err)
{
    vkat_space_env_apply(space, choice, env);
    vkat_result r = vkat_space_launch(space, env, 0, launch, err);
    if (r != VKAT_OK)
        return r;
    r = compile_source(space->template_path, space, device, env, launch, 0, spirv, err);
    if (r != VKAT_OK)
        vkat_launch_free(launch);
    return r;
}

/* Specialization constants of the configuration in `env`: problem sizes bound to @spec, then (unless for the
 * reference) @spec parameters; at most `cap`. Returns the count written. */
static size_t spec_values(const vkat_space *space, const vkat_value *env, int reference, vkat_spec_value *out,
                          size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < space->problem_count && n < cap; i++)
        if (space->problem[i].binding == VKAT_SIZE_SPEC)
            out[n++] = (vkat_spec_value){space->problem[i].spec_id, (uint32_t)env[space->problem[i].slot].i};
    for (size_t i = 0; !reference && i < space->param_count && n < cap; i++) {
        const vkat_param *p = &space->params[i];
        if (p->kind == VKAT_PARAM_SPEC)
            out[n++] = (vkat_spec_value){p->spec_id, (uint32_t)env[p->slot].i};
    }
    return n;
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

/* One variant on its way from proposal to result. Workers fill the preparation part; the measuring thread the rest. */
typedef struct job {
    uint32_t *choice;
    vkat_value *env;
    vkat_row row;
    int resumed; /* answered from the database: nothing to do */
    /* preparation (instantiate, compile, validate, limits, pipeline) */
    vkat_launch launch;
    vkat_spirv spirv;
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
    uint32_t samples;
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
    const char *template_src;
    const vkat_shader_sources *sources; /* the template's files and compile options */
    vkat_compile_cache *compile_cache;
    vkat_tune_times *times;
    vkat_pool *pool;
    /* the measuring thread; `queued` and `stopping` are guarded by the search's lock */
    pthread_t thread;
    int started, stopping;
    unsigned queued, in_flight;
    pthread_cond_t cv;
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
    /* With one lane, results come back in submission order, so that the order in which the strategy hears of
     * them, and hence the measured set and the winner, does not depend on --jobs or on timing. With several,
     * whichever finishes first. Either way a ring of window slots. */
    int ordered;
    job **done;
    size_t done_head, done_count, done_cap;
    vkat_race_opts race;     /* defaults filled in */
    vkat_race_bound bound;   /* the least upper bound of the checked full measurements so far */
    FILE *trace;             /* VKAT_MEASURE_TRACE's file (measure_trace.h); NULL: none */
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
    vkat_result r = vkat_space_launch(s, c->env, 1, &launch, err);
    if (r == VKAT_OK && vkat_space_has_sequence(s, 1)) {
        vkat_sequence q;
        r = vkat_sequence_compile(s, c->device, NULL, c->env, 1, &q, err);
        if (r == VKAT_OK)
            r = vkat_sequence_kernel(&q, c->ws, "main", &k, err);
        vkat_sequence_free(&q);
    } else if (r == VKAT_OK) {
        r = compile_source(s->reference_path, s, c->device, c->env, &launch, 1, &spirv, err);
        vkat_spec_value spec[64];
        size_t nspec = spec_values(s, c->env, 1, spec, VKAT_COUNTOF(spec));
        vkat_spirv_info si;
        if (r == VKAT_OK && (r = vkat_spirv_reflect(&spirv, spec, nspec, &si, err)) == VKAT_OK)
            r = vkat_check_bindings(s, s->reference_path, &si, err);
        if (r == VKAT_OK)
            r = vkat_check_spec_constants(s, s->reference_path, &si, spec, nspec, err);
        if (r == VKAT_OK)
            r = vkat_kernel_create(c->ws, &spirv, "main", spec, nspec, launch.push_size, &k, err);
    }
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
    if (r != VKAT_OK && err && !err->file[0])
        snprintf(err->file, sizeof err->file, "%s", s->reference_path);
    vkat_kernel_destroy(k);
    vkat_spirv_free(&spirv);
    vkat_launch_free(&launch);
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
        if (s->buffers[i].compare_count) /* a slice: compared on the host */
            continue;
        if (vkat_gpu_check_supported(c->gpu, s->buffers[i].type)) {
            use[i] = 1;
            wanted++;
        } else if (where == VKAT_CHECK_GPU) {
            vkat_log(VKAT_LOG_WARN, "buffer '%s' is checked on the host: %s", s->buffers[i].name,
                     c->gpu->float64 ? "the device check compares float outputs only"
                                     : "the device has no shaderFloat64 for the device check's sums");
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

/* Device, buffers, reference: everything shared by the variants of one run. */
static vkat_result setup_device(run_ctx *c, vkat_error *err)
{
    const vkat_space *s = c->space;
    vkat_result r = vkat_gpu_create(c->inst, c->device_index, &c->gpu, err);
    if (r != VKAT_OK)
        return r;
    if (c->opts->pipeline_cache_path &&
        (r = vkat_gpu_load_pipeline_cache(c->gpu, c->opts->pipeline_cache_path, err)) != VKAT_OK)
        return r;
    /* Buffer sizes depend only on problem and device (checked by vkat_tune_device), so any configuration's
     * environment gives them; the first one is used. */
    uint32_t *zero = calloc(s->param_count ? s->param_count : 1, sizeof *zero);
    vkat_launch launch = {0};
    if (!zero)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_space_env_apply(s, zero, c->env);
    free(zero);
    r = vkat_space_launch(s, c->env, c->has_reference, &launch, err);
    if (r != VKAT_OK)
        return r;
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        c->buffers[i] = (vkat_buffer_spec){b->name, b->type, launch.buffer_counts[i], b->init, b->init_a, b->init_b,
                                           b->dir, b->uniform};
    }
    vkat_launch_free(&launch);
    r = vkat_workspace_create(c->gpu, c->buffers, s->buffer_count, c->opts->data_seed ? c->opts->data_seed : 1,
                              &c->ws, err);
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
    if (r == VKAT_OK && c->has_reference)
        r = run_reference(c, err);
    if (r == VKAT_OK && c->has_reference)
        r = setup_gpu_check(c, err);
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

/* Runs the variant once with poisoned outputs and compares with the reference. Fills row status/reason. */
static vkat_result checked_run(run_ctx *c, vkat_kernel *k, const vkat_launch *launch, const vkat_value *env,
                               vkat_row *row, vkat_error *err)
{
    const vkat_space *s = c->space;
    row->rel_l2 = row->max_abs = 0; /* the worst over the outputs, below */
    vkat_result r = vkat_workspace_reset(c->ws, err);
    if (r != VKAT_OK)
        return r;
    r = vkat_kernel_run(k, launch->groups, launch->push,
                        c->opts->run_timeout_ns ? c->opts->run_timeout_ns : 10000000000ull, err);
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
            uint8_t poison[8];
            vkat_poison_element(s->buffers[i].type, poison);
            vkat_check_report rep;
            uint64_t off, n;
            if ((r = vkat_space_compare_slice(s, i, env, c->buffers[i].count, &off, &n, err)) != VKAT_OK) {
                free(got);
                return r;
            }
            size_t es = vkat_elem_type_size(s->buffers[i].type);
            vkat_check_compare(s->buffers[i].type, (char *)got + off * es, (char *)c->reference[i] + off * es, n,
                               poison, &copts, &rep);
            /* the worst output is the variant's figure, whatever the order of the buffers */
            row->rel_l2 = fmax(row->rel_l2, rep.rel_l2);
            row->max_abs = fmax(row->max_abs, rep.max_abs);
            if (!rep.ok) {
                row->status = VKAT_STATUS_WRONG;
                snprintf(row->reason, sizeof row->reason, "buffer '%s': %s", s->buffers[i].name, rep.reason);
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
    vkat_launch_free(&j->launch);
}

/* A variant that is a sequence of dispatches: compiled and made one kernel by sequence.c. */
static vkat_result prepare_sequence(run_ctx *c, job *j, vkat_error *e)
{
    const vkat_space *s = c->space;
    double t0 = vkat_now();
    vkat_sequence q = {0};
    vkat_result r = vkat_space_launch(s, j->env, 0, &j->launch, e); /* metrics; its dispatch is unused */
    if (r == VKAT_OK)
        r = vkat_sequence_compile(s, c->device, c->compile_cache, j->env, 0, &q, e);
    j->t_compile = q.compile_s;
    j->t_validate = q.validate_s;
    j->cache_hit = r == VKAT_OK && q.all_cached;
    double t1 = vkat_now();
    j->t_instantiate = t1 - t0 - q.compile_s - q.validate_s;
    if (r == VKAT_OK) {
        hex64(q.hash, j->row.spirv_hash);
        r = vkat_sequence_kernel(&q, c->ws, s->entry, &j->kernel, e);
        j->pipeline_failed = r == VKAT_ERR_VULKAN;
        j->t_pipeline = vkat_now() - t1;
    }
    vkat_sequence_free(&q);
    return r;
}

static void prepare(void *ctx, void *p)
{
    run_ctx *c = ctx;
    job *j = p;
    const vkat_space *s = c->space;
    vkat_error *e = &j->error;
    char *source = NULL;
    double t0 = vkat_now();
    j->pipeline_failed = 0;
    /* a slot is reused: a variant that fails before its pipeline must not report the last one's times */
    j->t_compile = j->t_validate = j->t_pipeline = 0;
    j->spec_count = spec_values(s, j->env, 0, j->spec, VKAT_COUNTOF(j->spec));
    if (vkat_space_has_sequence(s, 0)) {
        j->result = prepare_sequence(c, j, e);
        return;
    }
    vkat_result r = vkat_space_launch(s, j->env, 0, &j->launch, e);
    if (r == VKAT_OK)
        r = vkat_template_for_config(s, c->template_src, s->template_path, j->env, &j->launch, 0, &source, e);
    double t1 = vkat_now();
    j->t_instantiate = t1 - t0;
    if (r == VKAT_OK)
        r = vkat_compile_cached(c->compile_cache, source, s->template_path, c->device->api_version,
                                &c->sources->opts, &j->spirv, &j->cache_hit, &j->t_compile, &j->t_validate, e);
    free(source);
    if (r == VKAT_OK) {
        hex64(vkat_spirv_hash(&j->spirv), j->row.spirv_hash);
        vkat_spirv_info si;
        char why[256];
        r = vkat_spirv_reflect(&j->spirv, j->spec, j->spec_count, &si, e);
        if (r == VKAT_OK)
            r = vkat_check_bindings(s, s->template_path, &si, e);
        if (r == VKAT_OK)
            r = vkat_check_spec_constants(s, s->template_path, &si, j->spec, j->spec_count, e);
        if (r == VKAT_OK && !within_limits(c->device, &si, &j->launch, why, sizeof why))
            r = vkat_fail(e, VKAT_ERR_LIMITS, NULL, 0, "%s", why);
    }
    if (r == VKAT_OK) {
        double t2 = vkat_now();
        r = vkat_kernel_create(c->ws, &j->spirv, s->entry, j->spec, j->spec_count, j->launch.push_size, &j->kernel, e);
        j->pipeline_failed = r == VKAT_ERR_VULKAN;
        j->t_pipeline = vkat_now() - t2;
    }
    j->result = r;
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
        j->gap = vkat_workspace_idle_s(c->ws);
        double t0 = vkat_now();
        r = checked_run(c, j->kernel, &j->launch, j->env, row, &verr);
        double t1 = vkat_now();
        t->check += t1 - t0;
        j->t_check = t1 - t0;
        t->checked++;
        if (r == VKAT_OK && row->status == VKAT_STATUS_OK) {
            /* Clocks drop when the GPU idles (../shared/H200.md: 4.5x slower after a pause), and the gaps between
             * variants (pipeline creation, the check's host side) are enough: an H200 search that gave each
             * variant a fixed 0.02 s of warm-up after a short gap ran at 540-1700 MHz and measured its own best
             * configuration at 82 TOPS instead of 310 (issue #21, records/session6-issue-21.md). So every
             * variant is warmed up until its own times stop falling (bench.c, warmup.h), up to --warmup. */
            vkat_timing_opts to = c->opts->timing; /* zero fields: bench.c's defaults */
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
                row->median_s = tm.median_s;
                row->min_s = tm.min_s;
                row->max_s = tm.max_s;
                row->mad_s = tm.mad_s;
                row->samples = tm.samples;
                row->batch = tm.batch;
                row->flops = j->launch.flops;
                row->bytes = j->launch.bytes;
                snprintf(row->tensor, sizeof row->tensor, "%s", c->space->tensor);
                row->tflops = j->launch.flops > 0 && tm.median_s > 0 ? j->launch.flops / tm.median_s * 1e-12 : 0;
                row->gbps = j->launch.bytes > 0 && tm.median_s > 0 ? j->launch.bytes / tm.median_s * 1e-9 : 0;
            }
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
    vkat_result r = setup_device(c, err);
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

/* Buffer sizes must not depend on parameters: one workspace serves every variant. */
static vkat_result check_buffer_sizes(const vkat_space *s, vkat_error *err)
{
    for (size_t b = 0; b < s->buffer_count; b++)
        for (size_t p = 0; p < s->param_count; p++)
            if (vkat_expr_uses(s->buffers[b].count, s->params[p].slot))
                return vkat_fail(err, VKAT_ERR_SPACE, s->path, s->buffers[b].line,
                                 "the size of buffer '%s' depends on parameter '%s'; buffer sizes may depend only "
                                 "on problem sizes and device limits",
                                 s->buffers[b].name, s->params[p].name);
    return VKAT_OK;
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

/* Should the lane drop its job unmeasured? Out of time, interrupted, or the search failed. */
static int lane_should_drop(search_ctx *sc)
{
    const vkat_tune_opts *opts = sc->opts;
    pthread_mutex_lock(&sc->lock);
    if (opts->stop && *opts->stop)
        sc->report->interrupted = 1;
    int drop = sc->abort || sc->report->interrupted || (opts->budget_s > 0 && vkat_now() - sc->start >= opts->budget_s);
    pthread_mutex_unlock(&sc->lock);
    return drop;
}

/* Measures one prepared job on its lane; fills j->outcome, or j->fatal when the run must stop. */
static void lane_measure(run_ctx *c, job *j)
{
    if (lane_should_drop(c->search)) {
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
    j->samples = 0;
    double t0 = vkat_now();
    j->fatal = vkat_store_put(c->store, &pending, &j->fatal_error);
    j->t_store = vkat_now() - t0;
    if (j->fatal != VKAT_OK) {
        release_job(j);
        return;
    }
    vkat_error lost = {0};
    vkat_result mr = measure(c, j, &lost);
    t0 = vkat_now();
    j->fatal = vkat_store_put(c->store, &j->row, &j->fatal_error);
    j->t_store += vkat_now() - t0;
    c->times->store += j->t_store;
    if (c->search->trace) {
        vkat_measure_trace_variant v = {vkat_status_name(j->row.status), j->row.config, j->samples, j->t_wait,
                                        j->t_pipeline, j->t_check, j->t_warmup, j->t_measure, j->t_store,
                                        j->warm_last, j->samples ? j->row.median_s : 0, j->gap};
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
        double t0 = vkat_now();
        job *j = vkat_pool_pop(c->pool); /* this lane's oldest, once prepared */
        j->t_wait = vkat_now() - t0;
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
    pthread_mutex_lock(&sc->lock);
    while (sc->done_count == 0 || !sc->done[sc->done_head]->finished)
        pthread_cond_wait(&sc->done_cv, &sc->lock);
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
    if (j->outcome != 2 && j->row.status == VKAT_STATUS_OK && j->row.median_s < p->best_s)
        snprintf(p->best_config, sizeof p->best_config, "%s", j->row.config);
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
    p->best_s = st->best_s;
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

vkat_result vkat_tune_devices(const vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                              size_t device_count, vkat_store *store, const vkat_tune_opts *opts,
                              vkat_tune_report *report, vkat_error *err)
{
    memset(report, 0, sizeof *report);
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
    char missing[128];
    if (!vkat_device_meets(dev, (const char *const *)space->extensions, space->extension_count,
                           (const char *const *)space->features, space->feature_count, missing, sizeof missing)) {
        report->skipped = 1;
        snprintf(report->skip_reason, sizeof report->skip_reason, "%s lacks %s, which kernel '%s' requires", dev->name,
                 missing, space->name);
        return VKAT_OK;
    }
    vkat_result r = check_buffer_sizes(space, err);
    if (r != VKAT_OK)
        return r;
    /* Identical GPUs have one identity: their results form one series in the database. */
    r = vkat_tune_key(space, dev, &report->key, err);
    if (r != VKAT_OK)
        return r;

    /* On a CPU device (lavapipe) compiling beside the measurement takes the very cores being measured: serial by
     * default there, and a warning when asked otherwise. */
    int cpu_device = !strcmp(dev->device_type, "cpu");
    unsigned jobs = opts->jobs ? opts->jobs : cpu_device ? 1 : default_jobs();
    if (cpu_device && jobs > 1)
        vkat_log(VKAT_LOG_WARN, "%s runs on the CPU: %u preparing threads will disturb its timings (--jobs 1 avoids "
                 "that)", dev->name, jobs);
    /* The preparing threads are shared out among the lanes. */
    unsigned lane_jobs = device_count > 1 ? (jobs + (unsigned)device_count - 1) / (unsigned)device_count : jobs;
    report->times.jobs = jobs;

    size_t window = WINDOW * device_count;
    size_t np = space->param_count, nsym = vkat_symtab_count(space->symbols);
    search_ctx sc = {0};
    sc.space = space;
    sc.opts = opts;
    sc.report = report;
    sc.store = store;
    sc.nlanes = device_count;
    sc.ordered = device_count == 1;
    pthread_mutex_init(&sc.lock, NULL);
    pthread_cond_init(&sc.done_cv, NULL);
    sc.race = vkat_race_defaults(&opts->race, opts->timing.repetitions);
    report->race = !sc.race.disabled;
    vkat_race_bound_init(&sc.bound);
    sc.trace = vkat_measure_trace_open();
    vkat_strategy *strategy = NULL;
    job *slots = calloc(window, sizeof *slots);
    uint32_t *choice = calloc(np ? np : 1, sizeof *choice);
    size_t *counts = calloc(np ? np : 1, sizeof *counts);
    vkat_shader_sources sources = {0};
    const char *template_src = NULL;
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
    /* Before any GPU work: the template's files, and no #define that would replace a name it declares. */
    if ((r = vkat_shader_sources_load(space, space->template_path, 0, &sources, err)) != VKAT_OK)
        goto cleanup;
    template_src = sources.set.files[0].text;
    for (size_t i = 0; i < window; i++) {
        slots[i].choice = calloc(np ? np : 1, sizeof *slots[i].choice);
        slots[i].env = calloc(nsym ? nsym : 1, sizeof *slots[i].env);
        if (!slots[i].choice || !slots[i].env) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            goto cleanup;
        }
        sc.free_list[sc.nfree++] = &slots[i];
    }
    for (size_t i = 0; i < np; i++)
        counts[i] = space->params[i].value_count;
    if (opts->shard_count > 1 && opts->shard_index >= opts->shard_count) {
        r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "shard %u of %u does not exist", opts->shard_index,
                      opts->shard_count);
        goto cleanup;
    }
    vkat_search_space sp = {np, counts, vkat_space_raw_count(space), oracle_valid, &sc, NULL, 0, 0};
    if (opts->shard_count > 1) {
        sp.shard_index = opts->shard_index;
        sp.shard_count = opts->shard_count;
    }
    uint64_t budget = opts->budget ? opts->budget : DEFAULT_BUDGET;
    const char *sname = pick_strategy(opts, sp.raw_count, budget);
    snprintf(report->strategy, sizeof report->strategy, "%s", sname);
    r = vkat_strategy_create(sname, &sp, opts->seed + sp.shard_index, &strategy, err);
    if (r == VKAT_OK)
        r = set_starts(space, store, &report->key, opts, strategy, err);
    if (r != VKAT_OK)
        goto cleanup;

    for (size_t i = 0; i < device_count; i++) {
        run_ctx *c = &sc.lanes[i];
        c->search = &sc;
        c->space = space;
        c->inst = inst;
        c->device_index = device_indices[i];
        c->device = vkat_instance_device(inst, device_indices[i]);
        c->opts = opts;
        c->has_reference = space->reference_path != NULL;
        c->times = &lane_times[i];
        c->template_src = template_src;
        c->sources = &sources;
        c->compile_cache = cache;
        pthread_cond_init(&c->cv, NULL);
        c->buffers = calloc(space->buffer_count ? space->buffer_count : 1, sizeof *c->buffers);
        c->env = vkat_space_env_create(space, c->device);
        if (!c->buffers || !c->env) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            goto cleanup;
        }
        if ((r = vkat_store_open(vkat_store_path(store), &c->store, err)) != VKAT_OK)
            goto cleanup;
        if ((r = setup_device(c, err)) != VKAT_OK)
            goto cleanup;
        /* --jobs 1 is the serial mode: the measuring thread prepares each variant itself. */
        c->pool = vkat_pool_create(lane_jobs > 1 ? lane_jobs : 0, WINDOW, prepare, c);
        if (!c->pool) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "cannot start %u worker threads", lane_jobs);
            goto cleanup;
        }
        if (pthread_create(&c->thread, NULL, lane_main, c) != 0) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "cannot start a measuring thread");
            goto cleanup;
        }
        c->started = 1;
    }

    vkat_tune_progress *p = &report->totals;
    p->budget = budget;
    p->budget_s = opts->budget_s;
    p->best_s = INFINITY;
    sc.start = vkat_now();
    vkat_search_hooks hooks = {&sc, hook_check, hook_submit, hook_complete, hook_error};
    vkat_search_limits limits = {budget, opts->budget_s, (uint32_t)window, 0, opts->stop, 0};
    /* Small enough to count (a few hundred ms at most): the search can then stop when every valid configuration is
     * measured, rather than when the strategy has proposed nothing new for a long while. */
    if (opts->shard_count <= 1 && sp.raw_count <= VALID_COUNT_MAX_RAW) {
        uint64_t valid = 0;
        if (vkat_space_count_valid(space, sc.oracle_env, 0, NULL, &valid, NULL, NULL) == VKAT_OK)
            limits.valid_count = valid;
    }
    vkat_search_stats stats = {0};
    stats.best_choice = choice;
    r = vkat_search_run(strategy, &hooks, &limits, on_progress, &sc, &stats, err);
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
        report->times.instantiate += lane_times[i].instantiate;
        report->times.compile += lane_times[i].compile;
        report->times.validate += lane_times[i].validate;
        report->times.pipeline += lane_times[i].pipeline;
        report->times.check += lane_times[i].check;
        report->times.measure += lane_times[i].measure;
        report->times.compile_hits += lane_times[i].compile_hits;
        report->times.checked += lane_times[i].checked;
        report->times.checked_gpu += lane_times[i].checked_gpu;
        report->times.warmup += lane_times[i].warmup;
        report->times.warmup_capped += lane_times[i].warmup_capped;
        report->times.warmup_retaken += lane_times[i].warmup_retaken;
        report->times.wait += lane_times[i].wait;
        report->times.store += lane_times[i].store;
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

/* ---- Export ------------------------------------------------------------------------------------------------ */

/* ---- Export from the database ----------------------------------------------------------------------------------
 * Devices are identified by their rows, so a device tuned on another machine (an H200 in CI's database) exports
 * like a local one. Only the target Vulkan version matters to the compiler; an absent device gets 1.3. */

#define EXPORT_ABSENT_API_VERSION ((1u << 22) | (3u << 12)) /* VK_MAKE_API_VERSION(0, 1, 3, 0) */

typedef struct export_slot {
    vkat_row row;
    const vkat_space *space;
    const vkat_device_info *device; /* NULL when absent */
    vkat_device_info absent;        /* stands in for compiling when absent */
    vkat_spirv spirv;
    vkat_launch launch;
    vkat_value *env;
    uint32_t *choice;
    uint32_t shared_bytes;
    uint64_t compiled_problem; /* see vkat_export_item */
    int candidate_only;        /* see vkat_export_item */
    vkat_sequence sequence;    /* a sequence of dispatches; step_count 0: one dispatch (spirv) */
} export_slot;

/* Does any dispatch, buffer-size, push-constant or pass expression read a device.* name? */
static int launch_reads_device(const vkat_space *s)
{
    size_t n = vkat_symtab_count(s->symbols);
    for (size_t slot = 0; slot < n; slot++) {
        const char *name = vkat_symtab_name(s->symbols, (int)slot);
        if (!name || strncmp(name, "device.", 7) != 0)
            continue;
        for (int i = 0; i < 3; i++)
            if ((s->groups[i] && vkat_expr_uses(s->groups[i], (int)slot)) ||
                (s->local_size[i] && vkat_expr_uses(s->local_size[i], (int)slot)))
                return 1;
        for (size_t i = 0; i < s->buffer_count; i++)
            if (vkat_expr_uses(s->buffers[i].count, (int)slot))
                return 1;
        for (size_t i = 0; i < s->push_count; i++)
            if (s->push[i].value && vkat_expr_uses(s->push[i].value, (int)slot))
                return 1;
        if (vkat_space_passes_use(s, (int)slot))
            return 1;
    }
    return 0;
}

/* The --problem filter as values per problem variable, INT64_MIN where it says nothing. */
static vkat_result problem_filter(vkat_space *s, const char *text, int64_t *want, vkat_error *err)
{
    for (size_t i = 0; i < s->problem_count; i++)
        s->problem[i].value = INT64_MIN;
    vkat_result r = text ? vkat_space_set_problem(s, text, err) : VKAT_OK;
    for (size_t i = 0; i < s->problem_count; i++)
        want[i] = s->problem[i].value;
    return r;
}

/* Which problem sizes the variant's SPIR-V compiles in. Compiled again with one size doubled, a module that differs
 * (or no longer builds) reads that size as a #define: the runtime must not run it at another value of that size,
 * whatever the space's formulas say. Sizes that reach the kernel only through push constants, dispatch and buffer
 * sizes leave the module as it is. */
static uint64_t compiled_problem(export_slot *x, const vkat_device_info *dev)
{
    vkat_space *space = (vkat_space *)x->space;
    uint64_t mask = 0;
    for (size_t i = 0; i < space->problem_count && i < 64; i++) {
        const int64_t tuned = space->problem[i].value;
        space->problem[i].value = tuned ? 2 * tuned : 1;
        vkat_value *env = vkat_space_env_create(space, x->device);
        vkat_launch launch = {0};
        vkat_spirv spirv = {0};
        vkat_error ignored = {0};
        int same;
        if (x->sequence.step_count) {
            vkat_sequence q;
            vkat_space_env_apply(space, x->choice, env);
            same = env && vkat_sequence_compile(space, dev, NULL, env, 0, &q, &ignored) == VKAT_OK &&
                   vkat_sequence_same_modules(&q, &x->sequence);
            vkat_sequence_free(&q);
        } else {
            same = env && vkat_tune_build(space, dev, x->choice, env, &launch, &spirv, &ignored) == VKAT_OK &&
                   spirv.count == x->spirv.count &&
                   memcmp(spirv.words, x->spirv.words, spirv.count * sizeof *spirv.words) == 0;
        }
        if (!same)
            mask |= 1ull << i;
        vkat_spirv_free(&spirv);
        vkat_launch_free(&launch);
        free(env);
        space->problem[i].value = tuned;
    }
    return mask;
}

static void warn_hash_changed(const export_slot *x, const char *h)
{
    if (x->row.spirv_hash[0] && strcmp(h, x->row.spirv_hash) != 0)
        vkat_log(VKAT_LOG_WARN,
                 "export: %s on %s (%s) compiles to different SPIR-V than when it was measured (%s, now %s)%s",
                 x->row.config, x->row.device.name, x->row.problem, x->row.spirv_hash, h,
                 x->device ? "" : "; the device is not present, so it was compiled for Vulkan 1.3");
}

/* A sequence of dispatches: the same compile as the tuner's (sequence.c); the hash is the sequence's. */
static vkat_result export_build_sequence(export_slot *x, const vkat_device_info *dev, vkat_error *err)
{
    vkat_space *space = (vkat_space *)x->space;
    vkat_space_env_apply(space, x->choice, x->env);
    vkat_result r = vkat_space_launch(space, x->env, 0, &x->launch, err);
    if (r || (r = vkat_sequence_compile(space, dev, NULL, x->env, 0, &x->sequence, err)))
        return r;
    char h[17];
    hex64(x->sequence.hash, h);
    warn_hash_changed(x, h);
    uint64_t shared = 0;
    for (size_t i = 0; i < x->sequence.step_count; i++) {
        vkat_spec_value spec[VKAT_MAX_STEP_SPEC];
        size_t n = vkat_sequence_spec(&x->sequence, i, spec);
        vkat_spirv_info si;
        if ((r = vkat_spirv_reflect(&x->sequence.modules[x->sequence.module_of[i]], spec, n, &si, err)))
            return r;
        shared = si.shared_bytes > shared ? si.shared_bytes : shared;
    }
    x->shared_bytes = shared > UINT32_MAX ? UINT32_MAX : (uint32_t)shared;
    x->compiled_problem = compiled_problem(x, dev);
    return VKAT_OK;
}

static vkat_result export_build(export_slot *x, vkat_error *err)
{
    vkat_space *space = (vkat_space *)x->space;
    const vkat_device_info *dev = x->device ? x->device : &x->absent;
    vkat_result r = vkat_space_set_problem(space, x->row.problem, err);
    if (r)
        return r;
    x->env = vkat_space_env_create(space, x->device);
    x->choice = calloc(space->param_count ? space->param_count : 1, sizeof *x->choice);
    if (!x->env || !x->choice)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if ((r = vkat_space_parse_config(space, x->row.config, 0, x->choice, err)))
        return r;
    if (vkat_space_has_sequence(space, 0))
        return export_build_sequence(x, dev, err);
    if ((r = vkat_tune_build(space, dev, x->choice, x->env, &x->launch, &x->spirv, err)))
        return r;
    char h[17];
    hex64(vkat_spirv_hash(&x->spirv), h);
    warn_hash_changed(x, h);
    vkat_spec_value spec[64];
    size_t nspec = spec_values(space, x->env, 0, spec, VKAT_COUNTOF(spec));
    vkat_spirv_info si;
    if ((r = vkat_spirv_reflect(&x->spirv, spec, nspec, &si, err)))
        return r;
    x->shared_bytes = si.shared_bytes > UINT32_MAX ? UINT32_MAX : (uint32_t)si.shared_bytes;
    x->compiled_problem = compiled_problem(x, dev);
    return VKAT_OK;
}

/* The last step of both exports: the manifest (and the C header) for built slots. */
static vkat_result write_slots(const export_slot *slots, size_t n, const char *dir, const char *header,
                               vkat_error *err)
{
    vkat_export_item *items = calloc(n ? n : 1, sizeof *items);
    if (!items)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const vkat_sequence *q = slots[i].sequence.step_count ? &slots[i].sequence : NULL;
        items[i] = (vkat_export_item){slots[i].space,
                                      slots[i].device,
                                      &slots[i].row,
                                      q ? &q->modules[0] : &slots[i].spirv,
                                      slots[i].choice,
                                      slots[i].env,
                                      &slots[i].launch,
                                      slots[i].shared_bytes,
                                      slots[i].compiled_problem,
                                      slots[i].candidate_only,
                                      q};
    }
    vkat_result r = vkat_export_write(dir, items, n, err);
    if (r == VKAT_OK && header)
        r = vkat_export_write_header(dir, header, items, n, err);
    free(items);
    return r;
}

static void free_slots(export_slot *slots, size_t n)
{
    for (size_t i = 0; slots && i < n; i++) {
        vkat_sequence_free(&slots[i].sequence);
        vkat_spirv_free(&slots[i].spirv);
        vkat_launch_free(&slots[i].launch);
        free(slots[i].env);
        free(slots[i].choice);
    }
    free(slots);
}

/* A zeroed slot at the end of *slots, grown as needed; NULL when out of memory. */
static export_slot *new_slot(export_slot **slots, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        export_slot *ns = realloc(*slots, ncap * sizeof *ns);
        if (!ns)
            return NULL;
        *slots = ns;
        *cap = ncap;
    }
    export_slot *x = &(*slots)[(*n)++];
    memset(x, 0, sizeof *x);
    return x;
}

/* After one space's winners (slots[first..n)): its extra candidates for runtime tuning, each built for the device of
 * the series it does best on (a device that is present, or its database identity as for that series' winner). */
static vkat_result add_candidates(vkat_store *store, export_slot **slots, size_t *n, size_t *cap, size_t first,
                                  int wanted, vkat_error *err)
{
    size_t nw = *n - first, max = wanted ? (size_t)wanted : VKAT_EXPORT_DEFAULT_CANDIDATES, count = 0;
    vkat_row *winners = calloc(nw ? nw : 1, sizeof *winners);
    vkat_candidate *extra = NULL;
    if (!winners)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < nw; i++)
        winners[i] = (*slots)[first + i].row;
    vkat_result r = vkat_export_candidates(store, winners, nw, max, &extra, &count, err);
    for (size_t i = 0; i < count && !r; i++) {
        export_slot *x = new_slot(slots, n, cap);
        if (!x) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            break;
        }
        const export_slot *w = &(*slots)[first + extra[i].series];
        x->row = extra[i].row;
        x->space = w->space;
        x->device = w->device;
        x->absent = w->absent;
        x->candidate_only = 1;
        vkat_log(VKAT_LOG_DEBUG, "export: candidate %s of '%s' (%.0f%% of the winners' speed on average)",
                 x->row.config, x->row.kernel, 100 * extra[i].mean_fraction);
        r = export_build(x, err);
    }
    free(winners);
    free(extra);
    return r;
}

vkat_result vkat_tune_export(vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                             const char *const *problems, size_t device_count, vkat_store *store, const char *dir,
                             vkat_error *err)
{
    size_t n = 0, cap = device_count ? device_count : 1;
    export_slot *slots = calloc(cap, sizeof *slots);
    vkat_result r = VKAT_OK;
    if (!slots)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t d = 0; d < device_count; d++) {
        const vkat_device_info *dev = vkat_instance_device(inst, device_indices[d]);
        export_slot *x = &slots[n];
        vkat_row key;
        size_t count = 0;
        if ((problems && (r = vkat_space_set_problem(space, problems[d], err))) ||
            (r = vkat_tune_key(space, dev, &key, err)) || (r = vkat_store_best(store, &key, &x->row, 1, &count, err)))
            goto cleanup;
        if (count == 0) {
            vkat_log(VKAT_LOG_WARN, "export: no correct variant of '%s' for %s (%s) in the database", space->name,
                     dev->name, key.problem);
            continue;
        }
        x->space = space;
        x->device = dev;
        n++;
        if ((r = export_build(x, err)))
            goto cleanup;
    }
    /* The same candidates as `vkautotune export` with its default, so both write the same manifest. */
    if (n == 0)
        r = vkat_fail(err, VKAT_ERR_DB, NULL, 0, "nothing to export: no correct variant of '%s' in the database",
                      space->name);
    else if (!(r = add_candidates(store, &slots, &n, &cap, 0, 0, err)))
        r = write_slots(slots, n, dir, NULL, err);
cleanup:
    free_slots(slots, n);
    return r;
}

vkat_result vkat_tune_export_db(const vkat_export_request *req, vkat_store *store, size_t *exported, vkat_error *err)
{
    static const vkat_device_info no_device; /* for the key's hashes only */
    uint32_t local[64], nlocal = 0;
    int by_name = 0;
    vkat_result r = VKAT_OK;
    export_slot *slots = NULL;
    size_t n = 0, cap = 0;
    int64_t *want = NULL;
    if (exported)
        *exported = 0;

    /* Which devices: present ones picked like tune's --device, and (for a name) database ones by name. */
    int is_name = req->device && req->device[0] && strcmp(req->device, "all") != 0 &&
                  strspn(req->device, "0123456789") != strlen(req->device);
    if (!req->all_in_db) {
        vkat_error serr = {0};
        if (req->inst && vkat_select_devices(req->inst, req->device, local, 64, &nlocal, &serr) == VKAT_OK) {
            by_name = is_name;
        } else if (is_name) {
            by_name = 1; /* not present here: look for it in the database */
        } else if (!req->inst) {
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0,
                             "no Vulkan device on this machine to export for; name one in the database with "
                             "--device NAME, or use --all-devices-in-db");
        } else {
            *err = serr;
            return serr.code;
        }
    }

    for (size_t si = 0; si < req->space_count; si++) {
        vkat_space *space = req->spaces[si];
        vkat_row key, *rows = NULL;
        size_t nrows = 0, matched = 0, first = n;
        free(want);
        want = calloc(space->problem_count ? space->problem_count : 1, sizeof *want);
        if (!want) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            goto cleanup;
        }
        if ((r = problem_filter(space, req->problem, want, err)) || (r = vkat_tune_key(space, &no_device, &key, err)) ||
            (r = vkat_store_winners(store, &key, &rows, &nrows, err)))
            goto cleanup;
        for (size_t i = 0; i < nrows; i++) {
            const vkat_row *row = &rows[i];
            const vkat_device_info *dev = NULL;
            int selected = req->all_in_db;
            for (uint32_t d = 0; req->inst && d < vkat_instance_device_count(req->inst); d++) {
                vkat_device_key k;
                vkat_device_key_from_info(vkat_instance_device(req->inst, d), &k);
                if (!vkat_device_key_equal(&k, &row->device))
                    continue;
                dev = vkat_instance_device(req->inst, d);
                for (uint32_t j = 0; j < nlocal; j++)
                    selected |= local[j] == d;
            }
            if (!selected && by_name && vkat_contains_nocase(row->device.name, req->device))
                selected = 1;
            if (!selected)
                continue;
            /* The problem filter. */
            if ((r = vkat_space_set_problem(space, row->problem, err)))
                goto cleanup_rows;
            int keep = 1;
            for (size_t p = 0; p < space->problem_count; p++)
                keep &= want[p] == INT64_MIN || want[p] == space->problem[p].value;
            if (!keep)
                continue;
            matched++;
            if (!dev && req->profile && !strcmp(req->profile->name, row->device.name) &&
                req->profile->vendor_id == row->device.vendor_id && req->profile->device_id == row->device.device_id)
                dev = req->profile;
            if (!dev && launch_reads_device(space)) {
                vkat_log(VKAT_LOG_WARN,
                         "export: skipping '%s' on %s: %s is not present here and the space's dispatch reads its "
                         "limits (device.*)", space->name, row->device.name, row->device.name);
                continue;
            }
            export_slot *x = new_slot(&slots, &n, &cap);
            if (!x) {
                r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
                goto cleanup_rows;
            }
            x->row = *row;
            x->space = space;
            x->device = dev;
            snprintf(x->absent.name, sizeof x->absent.name, "%s", row->device.name);
            x->absent.api_version = EXPORT_ABSENT_API_VERSION;
            if ((r = export_build(x, err)))
                goto cleanup_rows;
        }
        if (!r && req->candidates >= 0)
            r = add_candidates(store, &slots, &n, &cap, first, req->candidates, err);
        if (matched == 0)
            vkat_log(VKAT_LOG_WARN, "export: no correct variant of '%s' for the chosen device(s)%s%s in %s",
                     space->name, req->problem ? " and problem " : "", req->problem ? req->problem : "",
                     "the database");
    cleanup_rows:
        free(rows);
        if (r)
            goto cleanup;
    }
    if (n == 0) {
        r = vkat_fail(err, VKAT_ERR_DB, NULL, 0,
                      "nothing to export: the database has no correct variant for the chosen spaces, devices and "
                      "problems (tune first, or see --all-devices-in-db)");
        goto cleanup;
    }
    if ((r = write_slots(slots, n, req->dir, req->header, err)))
        goto cleanup;
    if (exported)
        *exported = n;

cleanup:
    free_slots(slots, n);
    free(want);
    return r;
}
