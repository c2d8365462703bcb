/* cli_tune.c — the main job: `vkautotune [TEMPLATE] --space SPACE [options]`.
 * Loads the space, picks devices, runs the tuning on each, prints the ranked table (text, --json or --csv),
 * shows progress on stderr when it is a terminal, and exports the winners with --export. With several devices
 * (--device all) each device is tuned by its own thread with its own copy of the space (problem sizes fit for
 * that device) and its own database connection; output is buffered per device and printed in device order. */
#include "cli.h"
#include "device_key.h"
#include "device_profile.h"
#include "peaks.h"
#include "search.h"
#include "space_census.h"
#include "tune.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#define DEFAULT_DB "vkautotune.db"
#define MAX_STARTS 64

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkautotune [TEMPLATE] --space SPACE [options]\n"
            "\n"
            "Tunes the compute-shader template TEMPLATE (default: the space's [kernel] template) over the search\n"
            "space SPACE on one or more Vulkan devices; prints the best variants and stores every result.\n"
            "\n"
            "options:\n"
            "  --space PATH        the search-space file (docs/space-format.md)\n"
            "  --problem K=V,...   override problem sizes, e.g. --problem M=512,N=512,K=512\n"
            "  --device SPEC       index, name substring, 'all', or a comma list of those (default: first\n"
            "                      discrete GPU, else integrated, else the CPU device). Identical GPUs share one\n"
            "                      search, each measuring the next variant when it is free; others run side by side\n"
            "  --strategy NAME     exhaustive, random, annealing, genetic, local, de, model, forest, gp or auto\n"
            "                      (default: exhaustive when the space fits an evaluation budget or, with a\n"
            "                      time budget, has at most 100 configurations; else auto)\n"
            "  --budget N[s|m]     evaluations (default 100), or a time limit with s/m suffix (e.g. 90s, 10m)\n"
            "  --seed N            search seed (default 0)\n"
            "  --start CONFIG      measure this configuration first (every parameter named, e.g.\n"
            "                      TM=4,TN=4,...); the search goes on from what it scored. Repeatable\n"
            "  --warm-start        first measure the winners the database holds for this kernel at other\n"
            "                      problem sizes (this device's, then other devices'), up to 16\n"
            "  --shard K/N         tune only shard K (0..N-1) of N; a configuration's shard is its position in\n"
            "                      a fixed shuffle of the space, mod N, and other shards' are skipped unmeasured.\n"
            "                      Exhaustive and random shards together cover every configuration once; other\n"
            "                      strategies search their own shard with seed + K. The budget is per shard.\n"
            "                      Give each shard its own --db, then `vkautotune merge` them (docs/cluster.md)\n"
            "  --db PATH           results database (default ./" DEFAULT_DB "); reruns resume from it\n"
            "  --export DIR        write the winning SPIR-V and manifest.json to DIR\n"
            "  --top N             rows in the table (default 10)\n"
            "  --include-transfers add the space's input (host->device) and output (device->host) transfers at\n"
            "                      the measured link bandwidth (`vkautotune peaks`, measured when not cached) to\n"
            "                      each time, and say when the link dominates\n"
            "  --json | --csv      machine-readable output on stdout\n"
            "  --jobs N            threads compiling and creating pipelines ahead of the GPU (default: the\n"
            "                      machine's cores; 1 on a CPU device such as lavapipe; 1 = serial)\n"
            "  --pipeline-cache DIR  where each device's pipeline cache is kept between runs\n"
            "                      (default $XDG_CACHE_HOME/vkautotune or ~/.cache/vkautotune; 'none' disables)\n"
            "  --stats             add the driver's pipeline statistics (registers, spills) to the table, and\n"
            "                      the check's seconds per variant\n"
            "  --check-on WHERE    where outputs are compared with the reference: gpu (float outputs, summed in\n"
            "                      float64 on the device; only the partial sums are read back, and a variant it\n"
            "                      does not clearly pass is read back and judged on the host), host (read every\n"
            "                      output back), or auto (default: gpu for float outputs of 2^20 elements or more,\n"
            "                      except on a CPU device such as lavapipe)\n"
            "  --watchdog SECONDS  measure in a child process; when it makes no progress for this long (a hung\n"
            "                      shader, a wedged driver) or dies, kill it, mark the variant it was running as\n"
            "                      timeout or device-lost, and restart it to carry on (default 120; 0: off)\n"
            "  --kernel-timeout SECONDS  how long one submission to the GPU (a checked run, a warm-up or timed\n"
            "                      batch) may take before the variant is stored as timeout (default 10; the\n"
            "                      reference gets at least 60); --watchdog catches what never returns at all\n"
            "  --warmup SECONDS    the most warm-up before timing each variant, so the GPU clocks are up (default\n"
            "                      0.2; the gaps between variants let them drop): timed batches back to back until\n"
            "                      the variant's times stop falling, after at least --warmup-min\n"
            "  --warmup-min SECONDS  the least warm-up (default 0.02); --warmup-min equal to --warmup: a fixed\n"
            "                      warm-up. VKAT_MEASURE_TRACE=FILE writes each warm-up batch and variant\n"
            "                      measured to FILE (its times; src/run/measure_trace.h)\n"
            "  --repetitions N     timed samples per variant (default 10; with racing, contenders take more)\n"
            "  --race | --no-race  racing (default on): a variant whose first samples put it clearly behind the\n"
            "                      best so far (its least sample less 3 MADs, at least 2%%, above the best's\n"
            "                      median plus 3 MADs, at least 2%%; one sample: 1.5x that bound) stops being\n"
            "                      timed and is stored as raced-out, never ranked or exported; the others take\n"
            "                      samples until their median is stable (--race-tolerance) or 3x --repetitions.\n"
            "                      Every variant is checked before it is timed. --no-race times each variant\n"
            "                      --repetitions times, and measures raced-out rows of the database again\n"
            "  --race-tolerance F  contenders: until the median's standard error is at most F of it (default\n"
            "                      0.01)\n"
            "  --dry-run           count raw and valid configurations and show a few; touches no GPU;\n"
            "                      a space too large to count in 2 s gets an estimate from random samples\n"
            "  --device-profile FILE  with --dry-run: count for a device described by `vkautotune devices --json`\n"
            "                      output instead of one present (--device picks one of the file's by index or\n"
            "                      name)\n"
            "  -q, --quiet         no progress or info messages\n"
            "  -v, --verbose       debug messages (compiler logs)\n"
            "  -h, --help          this text\n");
}

typedef struct tune_args {
    const char *template_path, *space_path, *problem, *device, *strategy, *db, *export_dir, *device_profile;
    uint64_t budget, seed;
    uint32_t shard_index, shard_count; /* --shard K/N; count 0: unsharded */
    double budget_s;
    int top, json, csv, dry_run, quiet, verbose, transfers, stats;
    unsigned jobs;
    double watchdog; /* seconds; 0: measure in this process */
    double kernel_timeout; /* seconds one submission may take; 0: the library's 10 s */
    const char *pipeline_cache;
    vkat_timing_opts timing;
    vkat_race_opts race;
    vkat_check_on check_on;
    const char *starts[MAX_STARTS]; /* --start, in order */
    size_t start_count;
    int warm_start;
} tune_args;

/* --shard K/N with 0 <= K < N. */
static int parse_shard(const char *s, tune_args *a)
{
    uint64_t k, n;
    char buf[64];
    const char *slash = strchr(s, '/');
    if (!slash || (size_t)(slash - s) >= sizeof buf)
        return 0;
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = 0;
    if (!vkat_cli_parse_u64(buf, &k) || !vkat_cli_parse_u64(slash + 1, &n) || n == 0 || n > 1000000 || k >= n)
        return 0;
    a->shard_index = (uint32_t)k;
    a->shard_count = (uint32_t)n;
    return 1;
}

static int parse_budget(const char *s, tune_args *a)
{
    char *end;
    if (!s || !*s || *s == '-')
        return 0;
    double v = strtod(s, &end);
    if (end == s || v <= 0)
        return 0;
    if (!strcmp(end, "s"))
        a->budget_s = v;
    else if (!strcmp(end, "m"))
        a->budget_s = v * 60;
    else if (!strcmp(end, "h"))
        a->budget_s = v * 3600;
    else if (!*end && v == floor(v)) {
        a->budget = (uint64_t)v;
        return 1;
    } else
        return 0;
    a->budget = UINT64_MAX; /* a time budget: evaluations unlimited */
    return 1;
}

static int parse_args(int argc, char **argv, tune_args *a)
{
    memset(a, 0, sizeof *a);
    a->db = DEFAULT_DB;
    a->top = 10;
    a->watchdog = 120;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDS_VALUE()                                                                                            \
    do {                                                                                                         \
        if (!v) {                                                                                                \
            fprintf(stderr, "vkautotune: %s needs a value\n", o);                                               \
            return 0;                                                                                            \
        }                                                                                                        \
        i++;                                                                                                     \
    } while (0)
        if (!strcmp(o, "--space")) { NEEDS_VALUE(); a->space_path = v; }
        else if (!strcmp(o, "--problem")) { NEEDS_VALUE(); a->problem = v; }
        else if (!strcmp(o, "--device")) { NEEDS_VALUE(); a->device = v; }
        else if (!strcmp(o, "--strategy")) { NEEDS_VALUE(); a->strategy = v; }
        else if (!strcmp(o, "--db")) { NEEDS_VALUE(); a->db = v; }
        else if (!strcmp(o, "--export")) { NEEDS_VALUE(); a->export_dir = v; }
        else if (!strcmp(o, "--pipeline-cache")) { NEEDS_VALUE(); a->pipeline_cache = v; }
        else if (!strcmp(o, "--watchdog")) {
            NEEDS_VALUE();
            char *end;
            a->watchdog = strtod(v, &end);
            if (*end || end == v || a->watchdog < 0) {
                fprintf(stderr, "vkautotune: --watchdog '%s': expected seconds (0 turns it off)\n", v);
                return 0;
            }
        }
        else if (!strcmp(o, "--kernel-timeout")) {
            NEEDS_VALUE();
            char *end;
            a->kernel_timeout = strtod(v, &end);
            if (*end || end == v || !(a->kernel_timeout > 0) || a->kernel_timeout > 86400) {
                fprintf(stderr, "vkautotune: --kernel-timeout '%s': expected seconds, more than 0 and at most 86400\n",
                        v);
                return 0;
            }
        }
        else if (!strcmp(o, "--start")) {
            NEEDS_VALUE();
            if (a->start_count == MAX_STARTS) {
                fprintf(stderr, "vkautotune: --start: at most %d start configurations\n", MAX_STARTS);
                return 0;
            }
            a->starts[a->start_count++] = v;
        }
        else if (!strcmp(o, "--warm-start")) a->warm_start = 1;
        else if (!strcmp(o, "--check-on")) {
            NEEDS_VALUE();
            if (!strcmp(v, "auto")) a->check_on = VKAT_CHECK_AUTO;
            else if (!strcmp(v, "gpu")) a->check_on = VKAT_CHECK_GPU;
            else if (!strcmp(v, "host")) a->check_on = VKAT_CHECK_HOST;
            else {
                fprintf(stderr, "vkautotune: --check-on '%s': expected auto, gpu or host\n", v);
                return 0;
            }
        }
        else if (!strcmp(o, "--jobs")) {
            NEEDS_VALUE();
            uint64_t n;
            if (!vkat_cli_parse_u64(v, &n) || n == 0 || n > 1024) {
                fprintf(stderr, "vkautotune: --jobs '%s': expected 1..1024\n", v);
                return 0;
            }
            a->jobs = (unsigned)n;
        }
        else if (!strcmp(o, "--budget")) {
            NEEDS_VALUE();
            if (!parse_budget(v, a)) {
                fprintf(stderr, "vkautotune: --budget '%s': expected a count (100) or a time (90s, 10m)\n", v);
                return 0;
            }
        } else if (!strcmp(o, "--seed")) {
            NEEDS_VALUE();
            if (!vkat_cli_parse_u64(v, &a->seed)) {
                fprintf(stderr, "vkautotune: --seed '%s': expected a non-negative integer\n", v);
                return 0;
            }
        } else if (!strcmp(o, "--shard")) {
            NEEDS_VALUE();
            if (!parse_shard(v, a)) {
                fprintf(stderr, "vkautotune: --shard '%s': expected K/N with 0 <= K < N, e.g. 0/4\n", v);
                return 0;
            }
        } else if (!strcmp(o, "--top")) {
            NEEDS_VALUE();
            uint64_t t;
            if (!vkat_cli_parse_u64(v, &t) || t == 0 || t > 1000) {
                fprintf(stderr, "vkautotune: --top '%s': expected 1..1000\n", v);
                return 0;
            }
            a->top = (int)t;
        } else if (!strcmp(o, "--warmup")) {
            NEEDS_VALUE();
            char *end;
            a->timing.warmup_s = strtod(v, &end);
            if (*end || a->timing.warmup_s < 0) {
                fprintf(stderr, "vkautotune: --warmup '%s': expected seconds\n", v);
                return 0;
            }
            if (a->timing.warmup_s == 0)
                a->timing.warmup_s = -1; /* none: zero would mean the default */
        } else if (!strcmp(o, "--warmup-min")) {
            NEEDS_VALUE();
            char *end;
            double w = strtod(v, &end);
            if (end == v || *end || !(w >= 0)) {
                fprintf(stderr, "vkautotune: --warmup-min '%s': expected seconds\n", v);
                return 0;
            }
            a->timing.min_warmup_s = w > 0 ? w : -1; /* 0 is spelt negative: zero means the default */
        } else if (!strcmp(o, "--repetitions")) {
            NEEDS_VALUE();
            uint64_t n;
            if (!vkat_cli_parse_u64(v, &n) || n == 0 || n > 100000) {
                fprintf(stderr, "vkautotune: --repetitions '%s': expected 1..100000\n", v);
                return 0;
            }
            a->timing.repetitions = (uint32_t)n;
        } else if (!strcmp(o, "--race")) a->race.disabled = 0;
        else if (!strcmp(o, "--no-race")) a->race.disabled = 1;
        else if (!strcmp(o, "--race-tolerance")) {
            NEEDS_VALUE();
            char *end;
            a->race.tolerance = strtod(v, &end);
            if (end == v || *end || !(a->race.tolerance > 0 && a->race.tolerance < 1)) {
                fprintf(stderr, "vkautotune: --race-tolerance '%s': expected a fraction between 0 and 1\n", v);
                return 0;
            }
        } else if (!strcmp(o, "--json")) a->json = 1;
        else if (!strcmp(o, "--csv")) a->csv = 1;
        else if (!strcmp(o, "--include-transfers")) a->transfers = 1;
        else if (!strcmp(o, "--stats")) a->stats = 1;
        else if (!strcmp(o, "--dry-run")) a->dry_run = 1;
        else if (!strcmp(o, "--device-profile")) { NEEDS_VALUE(); a->device_profile = v; }
        else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) a->quiet = 1;
        else if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) a->verbose = 1;
        else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "vkautotune: unknown option '%s' (see vkautotune --help)\n", o);
            return 0;
        } else if (!a->template_path) a->template_path = o;
        else {
            fprintf(stderr, "vkautotune: unexpected argument '%s' (one template at most)\n", o);
            return 0;
        }
#undef NEEDS_VALUE
    }
    if (!a->space_path) {
        fprintf(stderr, "vkautotune: --space is required (see vkautotune --help)\n");
        return 0;
    }
    if (a->json && a->csv) {
        fprintf(stderr, "vkautotune: choose one of --json and --csv\n");
        return 0;
    }
    if (a->device_profile && !a->dry_run) {
        fprintf(stderr, "vkautotune: --device-profile describes a device that is not here: it goes with --dry-run\n");
        return 0;
    }
    /* Checked here so that a typo fails at once, not after loading the space and opening the devices. */
    if (a->strategy && !vkat_strategy_find(a->strategy)) {
        fprintf(stderr, "vkautotune: unknown strategy '%s' (known:", a->strategy);
        for (int i = 0; vkat_strategies[i]; i++)
            fprintf(stderr, "%s %s", i ? "," : "", vkat_strategies[i]->name);
        fprintf(stderr, ")\n");
        return 0;
    }
    return 1;
}

/* ---- Progress ------------------------------------------------------------------------------------------------ */

typedef struct progress_ctx {
    int enabled;
    const char *device;
} progress_ctx;

/* The measuring child's heartbeat to its watchdog (-1: not supervised). One byte per evaluated variant; write() of
 * one byte to a pipe is atomic, so device threads need no lock. */
static int heartbeat_fd = -1;
/* Set before each fork: the tag the measuring process puts in its "aborted" rows, so that the watchdog blames
 * only what this process was running, not rows an earlier killed run or another kernel left. */
static char watchdog_claim[64];

static void heartbeat(void)
{
    if (heartbeat_fd >= 0) {
        char b = 1;
        if (write(heartbeat_fd, &b, 1) < 0)
            heartbeat_fd = -1;
    }
}

static void show_progress(void *user, const vkat_tune_progress *p)
{
    progress_ctx *c = user;
    heartbeat();
    if (!c->enabled)
        return;
    char best[64] = "none yet";
    if (isfinite(p->best_s))
        snprintf(best, sizeof best, "%.4g ms", p->best_s * 1e3);
    char eta[48] = "";
    if (p->evaluated > p->resumed && p->budget != UINT64_MAX && p->budget > p->evaluated) {
        double per = p->elapsed_s / (double)(p->evaluated - p->resumed);
        snprintf(eta, sizeof eta, ", ETA %.0fs", per * (double)(p->budget - p->evaluated));
    } else if (p->budget_s > 0) {
        snprintf(eta, sizeof eta, ", %.0fs left", fmax(0, p->budget_s - p->elapsed_s));
    }
    char total[32] = "";
    if (p->budget != UINT64_MAX)
        snprintf(total, sizeof total, "/%llu", (unsigned long long)p->budget);
    char rate[32] = "";
    if (p->elapsed_s > 0 && p->evaluated > p->resumed)
        snprintf(rate, sizeof rate, ", %.1f variants/s", (double)(p->evaluated - p->resumed) / p->elapsed_s);
    /* One line, rewritten in place: the terminal's width is not known, so it stays short of 100 columns. */
    fprintf(stderr,
            "\r\033[K[%s] %llu%s evaluated (%llu resumed), %llu failed, %llu raced out, %llu invalid skipped%s, "
            "best %s%s",
            c->device, (unsigned long long)p->evaluated, total, (unsigned long long)p->resumed,
            (unsigned long long)p->failed, (unsigned long long)p->raced, (unsigned long long)p->invalid, rate, best,
            eta);
    if (p->done)
        fprintf(stderr, "\n");
    fflush(stderr);
}

/* ---- Dry run --------------------------------------------------------------------------------------------------- */

/* What a dry run shows of the valid configurations: the first few, and how many fall in --shard's shard. */
typedef struct count_visit {
    const vkat_space *space;
    const vkat_device_info *dev;
    const tune_args *a;
    uint64_t raw, in_shard;
    int show, shown;
    vkat_error sequence_error; /* the first shown configuration whose sequence does not evaluate */
} count_visit;

/* A sequence's dispatches for one configuration, as a dry run shows them: "reduce[0] 16x1x1, reduce[1] 1x1x1". */
static void show_sequence(const vkat_space *s, const vkat_device_info *dev, const uint32_t *choice,
                          vkat_error *first_error)
{
    vkat_value *env = vkat_space_env_create(s, dev);
    vkat_step *steps = NULL;
    size_t n = 0;
    vkat_error err = {0};
    if (!env)
        return;
    vkat_space_env_apply(s, choice, env);
    if (vkat_space_steps(s, env, 0, &steps, &n, &err) != VKAT_OK) {
        printf("    sequence: %s:%d: %s\n", err.file, err.line, err.message);
        if (!first_error->code)
            *first_error = err;
    } else {
        printf("    sequence of %zu:", n);
        for (size_t i = 0; i < n && i < 8; i++)
            printf("%s %s[%u] %ux%ux%u", i ? "," : "", steps[i].pass->name, steps[i].index, steps[i].groups[0],
                   steps[i].groups[1], steps[i].groups[2]);
        printf("%s\n", n > 8 ? ", ..." : "");
    }
    free(steps);
    free(env);
}

static void visit_valid(void *user, uint64_t index, const uint32_t *choice)
{
    count_visit *v = user;
    if (v->a->shard_count <= 1 || vkat_search_shard_of(v->raw, index, v->a->shard_count) == v->a->shard_index)
        v->in_shard++;
    if (v->show && v->shown < 5) {
        char cfg[512];
        vkat_space_format_config(v->space, choice, cfg, sizeof cfg);
        printf("  valid: %s\n", cfg);
        if (v->space->pass_count)
            show_sequence(v->space, v->dev, choice, &v->sequence_error);
        v->shown++;
    }
}

/* Walks the whole space with the device's limits (lazily, vkat_space_walk_valid): counts the valid configurations,
 * per constraint those it was the first to reject, and the shard's share; prints the first few valid ones when show
 * is set. Returns an exit code (an evaluation error, e.g. a division by zero, is reported with its line). */
static int count_space(const vkat_space *s, const vkat_device_info *dev, int show, uint64_t *valid,
                       uint64_t *removed, const tune_args *a, uint64_t *valid_in_shard)
{
    *valid = *valid_in_shard = 0;
    vkat_value *env = vkat_space_env_create(s, dev);
    if (!env) {
        fprintf(stderr, "vkautotune: out of memory\n");
        return VKAT_EXIT_FAILURE;
    }
    count_visit v = {s, dev, a, vkat_space_raw_count(s), 0, show, 0, {0}};
    vkat_error err = {0};
    vkat_result r = vkat_space_walk_valid(s, env, 0, visit_valid, &v, NULL, valid, removed, &err);
    free(env);
    *valid_in_shard = v.in_shard;
    /* An empty space is the caller's to explain (report_empty); the counts are written all the same. */
    if (r != VKAT_OK && r != VKAT_ERR_EMPTY_SPACE)
        return vkat_cli_report(&err);
    if (v.sequence_error.code) /* a sequence that cannot run: every such variant would fail the same way */
        return vkat_cli_report(&v.sequence_error);
    return VKAT_EXIT_OK;
}

/* Nothing valid: names the constraint that removed the most, at its line. Returns the exit code. */
static int report_empty(const vkat_space *s, const uint64_t *removed)
{
    size_t worst = 0;
    for (size_t c = 1; c < s->constraint_count; c++)
        if (removed[c] > removed[worst])
            worst = c;
    if (s->constraint_count)
        fprintf(stderr,
                "vkautotune: %s:%d: no configuration satisfies the constraints; '%s' removed the most (%llu of %llu)\n",
                s->path, s->constraints[worst].line, s->constraints[worst].name, (unsigned long long)removed[worst],
                (unsigned long long)vkat_space_raw_count(s));
    return VKAT_EXIT_INPUT;
}

/* The raw count as the dry run and the tuning summary print it: exact, or "more than 2^64 (about 1e+24)" where a
 * 64-bit count overflows, never a saturated number. */
static const char *format_raw(const vkat_space *s, char *buf, size_t size)
{
    double approx = 0;
    uint64_t raw = vkat_space_raw_count_checked(s, &approx);
    if (raw || s->param_count == 0)
        snprintf(buf, size, "%llu", (unsigned long long)(s->param_count ? raw : 1));
    else
        snprintf(buf, size, "more than 2^64 (about %.3g; a 64-bit count overflows)", approx);
    return buf;
}

/* The dry run's progress line, on a terminal only. */
typedef struct census_progress {
    int shown;
} census_progress;

static void show_census_progress(void *user, int sampling, uint64_t done, uint64_t total)
{
    census_progress *p = user;
    if (sampling)
        fprintf(stderr, "\r\033[Ktoo many to count in time; sampling: %llu of %llu random configurations",
                (unsigned long long)done, (unsigned long long)total);
    else
        fprintf(stderr, "\r\033[Kcounting: %llu of %llu raw configurations (%.1f%%)", (unsigned long long)done,
                (unsigned long long)total, 100.0 * (double)done / (double)total);
    fflush(stderr);
    p->shown = 1;
}

static int dry_run(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    uint64_t *removed = calloc(s->constraint_count ? s->constraint_count : 1, sizeof *removed);
    vkat_value *env = vkat_space_env_create(s, dev);
    if (!removed || !env) {
        free(removed);
        free(env);
        fprintf(stderr, "vkautotune: out of memory\n");
        return VKAT_EXIT_FAILURE;
    }
    printf("space %s: kernel '%s', %zu parameters, %zu constraints\n", s->path, s->name, s->param_count,
           s->constraint_count);
    char problem[256], raw_text[96];
    vkat_space_format_problem(s, problem, sizeof problem);
    printf("problem: %s\n", problem);
    printf("limits of: %s\n", dev ? dev->name : "Vulkan's minimum limits (no device)");
    fflush(stdout);
    /* Exact where the walk takes under 2 s; otherwise an estimate from random samples (space_census.c). */
    count_visit v = {s, dev, a, vkat_space_raw_count(s), 0, 1, 0, {0}};
    census_progress cp = {0};
    vkat_space_census_opts co = {0};
    co.seed = a->seed;
    co.visit = visit_valid;
    co.visit_user = &v;
    if (isatty(2) && !a->quiet) {
        co.progress = show_census_progress;
        co.progress_user = &cp;
    }
    vkat_space_census c;
    vkat_error err = {0};
    vkat_result r = vkat_space_census_run(s, env, &co, &c, removed, &err);
    if (cp.shown)
        fprintf(stderr, "\r\033[K");
    free(env);
    int code = r ? vkat_cli_report(&err) : VKAT_EXIT_OK;
    if (code == VKAT_EXIT_OK && v.sequence_error.code) /* a sequence that cannot run: every variant would fail */
        code = vkat_cli_report(&v.sequence_error);
    if (code == VKAT_EXIT_OK && c.exact) {
        printf("raw configurations: %llu\nvalid configurations: %llu\n", (unsigned long long)c.raw,
               (unsigned long long)c.valid);
        if (a->shard_count > 1)
            printf("valid in shard %u/%u: %llu\n", a->shard_index, a->shard_count, (unsigned long long)v.in_shard);
        for (size_t k = 0; k < s->constraint_count; k++)
            printf("  constraint '%s' (%s:%d) removed %llu\n", s->constraints[k].name, s->path,
                   s->constraints[k].line, (unsigned long long)removed[k]);
        if (c.valid == 0)
            code = report_empty(s, removed);
    } else if (code == VKAT_EXIT_OK) {
        printf("raw configurations: %s\n", format_raw(s, raw_text, sizeof raw_text));
        printf("valid configurations: about %.3g (an estimate: %.4g%% of %llu uniformly random configurations are "
               "valid, 95%% confidence interval %.4g%% to %.4g%%; too many to count exactly%s)\n",
               c.valid_estimate, 100 * c.fraction, (unsigned long long)c.checked, 100 * c.lo, 100 * c.hi,
               c.raw_overflows ? "" : " in 2 s");
        if (a->shard_count > 1)
            printf("valid in shard %u/%u: about %.3g\n", a->shard_index, a->shard_count,
                   c.valid_estimate / a->shard_count);
        for (size_t k = 0; k < s->constraint_count; k++)
            printf("  constraint '%s' (%s:%d) removed about %.4g%% (%llu of the samples)\n", s->constraints[k].name,
                   s->path, s->constraints[k].line, c.checked ? 100.0 * (double)removed[k] / (double)c.checked : 0,
                   (unsigned long long)removed[k]);
        if (c.valid == 0)
            fprintf(stderr, "vkautotune: warning: no sampled configuration is valid: the valid fraction is below "
                            "%.2g%% (95%% confidence); tuning may find nothing\n", 100 * c.hi);
    }
    free(removed);
    return code;
}

/* A tuning run that walked the whole space without one valid configuration: the space is at fault (exit 3, like
 * a dry run), not the kernel; say which constraint removed the most. A shard that holds none of the space's valid
 * configurations is not an error (a job array's other shards have them). */
static int explain_empty(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    uint64_t valid = 0, valid_in_shard = 0;
    uint64_t *removed = calloc(s->constraint_count ? s->constraint_count : 1, sizeof *removed);
    if (!removed)
        return VKAT_EXIT_FAILURE;
    int code = count_space(s, dev, 0, &valid, removed, a, &valid_in_shard);
    if (code == VKAT_EXIT_OK && valid > 0 && valid_in_shard == 0) {
        vkat_log(VKAT_LOG_WARN, "shard %u/%u holds none of the %llu valid configurations", a->shard_index,
                 a->shard_count, (unsigned long long)valid);
        code = VKAT_EXIT_OK;
    } else if (code == VKAT_EXIT_OK)
        code = valid == 0 ? report_empty(s, removed) : VKAT_EXIT_FAILURE;
    free(removed);
    return code;
}

/* ---- Output ------------------------------------------------------------------------------------------------------ */

/* What a device's table shows beyond the rows: its peaks (when known) and the transfer cost (with
 * --include-transfers; NaN otherwise). */
typedef struct table_extra {
    const vkat_peaks *peaks; /* NULL: unknown */
    double transfer_s;       /* NaN: not asked or unknown */
    double bytes_in, bytes_out;
    int stats; /* --stats: the driver's pipeline statistics after each row */
    uint32_t shard_index, shard_count; /* --shard */
} table_extra;

static void print_table(FILE *o, const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                        size_t n, const table_extra *x)
{
    const vkat_tune_progress *t = &rep->totals;
    fprintf(o, "\n%s — kernel %s, problem %s\n", dev->name, rep->key.kernel, rep->key.problem);
    if (x->shard_count > 1)
        fprintf(o, "shard %u/%u: %llu configurations of other shards skipped\n", x->shard_index, x->shard_count,
                (unsigned long long)t->other_shard);
    char raced[48] = ""; /* only when racing cut some: runs without any print as before */
    if (t->raced)
        snprintf(raced, sizeof raced, ", %llu raced out", (unsigned long long)t->raced);
    fprintf(o, "strategy %s: %llu evaluated (%llu from the database), %llu failed%s, %llu invalid skipped, %.1f s\n",
            rep->strategy, (unsigned long long)t->evaluated, (unsigned long long)t->resumed,
            (unsigned long long)t->failed, raced, (unsigned long long)t->invalid, t->elapsed_s);
    const vkat_tune_times *tm = &rep->times;
    if (t->evaluated > t->resumed)
        fprintf(o,
                "time: instantiate %.2f s, compile %.2f s (%llu from cache), validate %.2f s, pipeline %.2f s on %u "
                "thread(s); check %.2f s, measure %.2f s (warm-up %.2f s), waiting %.2f s, storing %.2f s\n",
                tm->instantiate, tm->compile, (unsigned long long)tm->compile_hits, tm->validate, tm->pipeline,
                tm->jobs, tm->check, tm->measure, tm->warmup, tm->wait, tm->store);
    if (x->stats && tm->checked)
        fprintf(o, "check: %.4f s per variant over %llu checked run(s), %llu passed on the device\n",
                tm->check / (double)tm->checked, (unsigned long long)tm->checked, (unsigned long long)tm->checked_gpu);
    if (n == 0) {
        fprintf(o, "no correct variant found\n");
        return;
    }
    int xfer = !isnan(x->transfer_s);
    if (xfer)
        fprintf(o, "transfers: %.4g MB in (host->device), %.4g MB out (device->host): %.4f ms at the measured link\n",
                x->bytes_in / 1e6, x->bytes_out / 1e6, x->transfer_s * 1e3);
    fprintf(o, "%4s  %10s  %10s  %8s  %9s  %9s  %6s  ", "rank", "median ms", "min ms", "mad %", "TFLOP/s", "GB/s",
            "% peak");
    if (xfer)
        fprintf(o, "%10s  ", "+xfer ms");
    fprintf(o, "configuration\n");
    for (size_t i = 0; i < n; i++) {
        const vkat_row *r = &rows[i];
        char frac[16] = "-";
        double f = vkat_peaks_fraction(x->peaks, r);
        if (!isnan(f))
            snprintf(frac, sizeof frac, "%.1f", 100 * f);
        fprintf(o, "%4zu  %10.4f  %10.4f  %8.2f  %9.4g  %9.4g  %6s  ", i + 1, r->median_s * 1e3, r->min_s * 1e3,
                r->median_s > 0 ? 100.0 * r->mad_s / r->median_s : 0.0, r->tflops, r->gbps, frac);
        if (xfer)
            fprintf(o, "%10.4f  ", (r->median_s + x->transfer_s) * 1e3);
        fprintf(o, "%s", r->config);
        if (x->stats)
            fprintf(o, "  [%s]", r->pipeline_stats[0] ? r->pipeline_stats : "no driver statistics");
        fprintf(o, "\n");
    }
    if (xfer && x->transfer_s > rows[0].median_s)
        fprintf(o, "the link dominates: moving the buffers (%.4f ms) takes longer than the best kernel (%.4f ms)\n",
                x->transfer_s * 1e3, rows[0].median_s * 1e3);
    if (!x->peaks)
        fprintf(o, "%% peak: no measured peaks for this device yet (vkautotune peaks --db DB measures them)\n");
    else if (rows[0].tensor[0] && isnan(vkat_peaks_tensor_tflops(x->peaks, rows[0].tensor)))
        fprintf(o, "%% peak: no tensor-core peak for '%s' on this device (vkautotune peaks --db DB --refresh)\n",
                rows[0].tensor);
}

static json_object *row_json(const vkat_row *r, int rank)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rank", json_object_new_int(rank));
    json_object_object_add(o, "config", json_object_new_string(r->config));
    json_object_object_add(o, "median_ms", json_object_new_double(r->median_s * 1e3));
    json_object_object_add(o, "min_ms", json_object_new_double(r->min_s * 1e3));
    json_object_object_add(o, "max_ms", json_object_new_double(r->max_s * 1e3));
    json_object_object_add(o, "mad_ms", json_object_new_double(r->mad_s * 1e3));
    json_object_object_add(o, "samples", json_object_new_int64(r->samples));
    json_object_object_add(o, "tflops", json_object_new_double(r->tflops));
    json_object_object_add(o, "gbps", json_object_new_double(r->gbps));
    json_object_object_add(o, "rel_l2", json_object_new_double(r->rel_l2));
    json_object_object_add(o, "spirv_hash", json_object_new_string(r->spirv_hash));
    json_object_object_add(o, "pipeline_stats", json_object_new_string(r->pipeline_stats));
    return o;
}

static json_object *run_json(const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                             size_t n)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "device", json_object_new_string(dev->name));
    json_object_object_add(o, "device_index", json_object_new_int64(dev->index));
    json_object_object_add(o, "driver", json_object_new_string(dev->driver_version_string));
    json_object_object_add(o, "kernel", json_object_new_string(rep->key.kernel));
    json_object_object_add(o, "problem", json_object_new_string(rep->key.problem));
    if (rep->skipped) {
        json_object_object_add(o, "skipped", json_object_new_string(rep->skip_reason));
        return o;
    }
    json_object_object_add(o, "strategy", json_object_new_string(rep->strategy));
    json_object_object_add(o, "evaluated", json_object_new_int64((int64_t)rep->totals.evaluated));
    json_object_object_add(o, "resumed", json_object_new_int64((int64_t)rep->totals.resumed));
    json_object_object_add(o, "failed", json_object_new_int64((int64_t)rep->totals.failed));
    json_object_object_add(o, "raced_out", json_object_new_int64((int64_t)rep->totals.raced));
    json_object_object_add(o, "race", json_object_new_boolean(rep->race));
    const vkat_tune_progress *tp = &rep->totals;
    json_object_object_add(o, "variants_per_s",
                           json_object_new_double(tp->elapsed_s > 0 ? (double)(tp->evaluated - tp->resumed) /
                                                                          tp->elapsed_s
                                                                    : 0));
    json_object_object_add(o, "invalid", json_object_new_int64((int64_t)rep->totals.invalid));
    if (rep->totals.other_shard)
        json_object_object_add(o, "other_shard", json_object_new_int64((int64_t)rep->totals.other_shard));
    json_object_object_add(o, "seconds", json_object_new_double(rep->totals.elapsed_s));
    json_object *t = json_object_new_object();
    json_object_object_add(t, "jobs", json_object_new_int64(rep->times.jobs));
    json_object_object_add(t, "instantiate", json_object_new_double(rep->times.instantiate));
    json_object_object_add(t, "compile", json_object_new_double(rep->times.compile));
    json_object_object_add(t, "compile_cache_hits", json_object_new_int64((int64_t)rep->times.compile_hits));
    json_object_object_add(t, "validate", json_object_new_double(rep->times.validate));
    json_object_object_add(t, "pipeline", json_object_new_double(rep->times.pipeline));
    json_object_object_add(t, "check", json_object_new_double(rep->times.check));
    json_object_object_add(t, "measure", json_object_new_double(rep->times.measure));
    json_object_object_add(t, "checked", json_object_new_int64((int64_t)rep->times.checked));
    json_object_object_add(t, "checked_on_gpu", json_object_new_int64((int64_t)rep->times.checked_gpu));
    json_object_object_add(t, "warmup", json_object_new_double(rep->times.warmup));
    json_object_object_add(t, "warmup_capped", json_object_new_int64((int64_t)rep->times.warmup_capped));
    json_object_object_add(t, "warmup_retaken", json_object_new_int64((int64_t)rep->times.warmup_retaken));
    json_object_object_add(t, "wait", json_object_new_double(rep->times.wait));
    json_object_object_add(t, "store", json_object_new_double(rep->times.store));
    json_object_object_add(o, "time_split_s", t);
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(arr, row_json(&rows[i], (int)i + 1));
    json_object_object_add(o, "best", arr);
    return o;
}

static void csv_field(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}

static void print_csv(FILE *o, const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const vkat_row *r = &rows[i];
        csv_field(o, dev->name);
        fputc(',', o);
        csv_field(o, rep->key.kernel);
        fputc(',', o);
        csv_field(o, rep->key.problem);
        fprintf(o, ",%zu,%.6g,%.6g,%.6g,%.6g,%.6g,", i + 1, r->median_s * 1e3, r->min_s * 1e3, r->mad_s * 1e3,
                r->tflops, r->gbps);
        csv_field(o, r->config);
        fputc('\n', o);
    }
}

/* The device's pipeline-cache file in `dir` (or the default cache directory), created if needed; NULL when
 * disabled ('none') or when no directory can be had, which only costs the cache. */
static const char *pipeline_cache_file(const char *dir, const vkat_device_info *dev, char *buf, size_t size)
{
    char base[3072];
    if (dir && !strcmp(dir, "none"))
        return NULL;
    if (dir)
        snprintf(base, sizeof base, "%s", dir);
    else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
        snprintf(base, sizeof base, "%s/vkautotune", getenv("XDG_CACHE_HOME"));
    else if (getenv("HOME") && *getenv("HOME"))
        snprintf(base, sizeof base, "%s/.cache/vkautotune", getenv("HOME"));
    else
        return NULL;
    vkat_error err;
    if (vkat_make_dirs(base, &err)) {
        char msg[2048];
        vkat_log(VKAT_LOG_WARN, "pipeline cache disabled: %s", vkat_error_format(&err, msg, sizeof msg));
        return NULL;
    }
    char uuid[33];
    for (int i = 0; i < 16; i++)
        snprintf(uuid + 2 * i, 3, "%02x", dev->pipeline_cache_uuid[i]);
    snprintf(buf, size, "%s/pipeline-%04x-%04x-%s.bin", base, dev->vendor_id, dev->device_id, uuid);
    return buf;
}

/* Problem sizes for one device: the space's defaults for it ([problem.cpu] on a CPU device), then --problem
 * (already checked, so it cannot fail here). */
static void use_problem_for(vkat_space *space, const vkat_device_info *dev, const char *overrides)
{
    vkat_space_problem_for_device(space, dev);
    if (overrides)
        vkat_space_set_problem(space, overrides, NULL);
}

/* When no variant passed, the table alone does not say why: show the reason of the first variant evaluated
 * (often the same for all, e.g. a GLSL error at the template's line). */
static void report_first_failure(vkat_store *store, const vkat_row *key)
{
    vkat_row *rows = NULL;
    size_t n = 0;
    vkat_error err = {0};
    if (vkat_store_rows(store, key, 1, &rows, &n, &err) != VKAT_OK || n == 0) {
        free(rows);
        return;
    }
    const vkat_row *first = &rows[0];
    for (size_t i = 1; i < n; i++)
        if (rows[i].id < first->id)
            first = &rows[i];
    vkat_log(VKAT_LOG_WARN, "every variant failed; the first, %s: %s: %s%s", first->config,
             vkat_status_name(first->status), first->reason,
             first->status == VKAT_STATUS_TIMEOUT ? " (--kernel-timeout SECONDS sets the limit)" : "");
    free(rows);
}

/* SIGINT (Ctrl-C) or SIGTERM asks the run to stop after the variant being measured: `interrupted` holds the
 * signal. A second one ends the process at once with 128 + its number: what finished is committed, and the
 * variant in flight is left "aborted", which a rerun measures again. */
static volatile sig_atomic_t interrupted;
static volatile int stop_requested; /* opts.stop: the library reads an int */

static void on_stop_signal(int sig)
{
    if (interrupted)
        _exit(128 + sig);
    interrupted = sig;
    stop_requested = 1;
}

static void install_stop_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The exit code of a run that a signal stopped: 130 for SIGINT, 143 for SIGTERM (docs/exit-codes.md). */
static int interrupted_code(void)
{
    return interrupted == SIGTERM ? 128 + SIGTERM : VKAT_EXIT_INTERRUPTED;
}

/* ---- One device's run (its own thread when there are several) ---------------------------------------------------- */

typedef struct device_job {
    const tune_args *a;
    const vkat_instance *inst;
    uint32_t index;       /* the first of the group */
    uint32_t indices[64]; /* identical GPUs sharing one search */
    size_t nindices;
    int show_progress;
    int several;       /* other devices run at the same time: say when this one is done */
    /* results */
    int code;          /* exit code of this device's run */
    int tuned;         /* has a correct variant (for --export) */
    char problem[256]; /* the problem it was tuned at ([problem.cpu] on a CPU device, then --problem) */
    char *text;        /* buffered stdout (table or CSV), malloc'ed */
    size_t text_size;
    json_object *json; /* --json */
} device_job;

static void *tune_one(void *arg)
{
    device_job *j = arg;
    const tune_args *a = j->a;
    const vkat_device_info *dev = vkat_instance_device(j->inst, j->index);
    vkat_error err = {0};
    vkat_space *space = NULL;
    vkat_store *store = NULL;
    vkat_row *rows = NULL;
    FILE *o = open_memstream(&j->text, &j->text_size);
    j->code = VKAT_EXIT_OK;
    if (!o) {
        j->code = VKAT_EXIT_FAILURE;
        return NULL;
    }
    /* Its own space (the problem is set per device) and its own connection (one per thread). */
    if (vkat_space_load_with_template(a->space_path, a->template_path, &space, &err) != VKAT_OK ||
        vkat_store_open(a->db, &store, &err) != VKAT_OK) {
        j->code = vkat_cli_report(&err);
        goto done;
    }
    vkat_log(VKAT_LOG_INFO, "device %u: %s (%s, %s %s)", dev->index, dev->name, dev->device_type, dev->driver_name,
             dev->driver_version_string);
    use_problem_for(space, dev, a->problem);
    progress_ctx pc = {j->show_progress, dev->name};
    vkat_tune_opts opts = {0};
    opts.strategy = a->strategy;
    opts.budget = a->budget;
    opts.budget_s = a->budget_s;
    opts.seed = a->seed;
    opts.shard_index = a->shard_index;
    opts.shard_count = a->shard_count;
    opts.timing = a->timing;
    if (a->kernel_timeout > 0)
        opts.run_timeout_ns = opts.timing.timeout_ns = (uint64_t)(a->kernel_timeout * 1e9);
    opts.race = a->race;
    opts.jobs = a->jobs;
    opts.check_on = a->check_on;
    opts.starts = a->starts;
    opts.start_count = a->start_count;
    opts.warm_start = a->warm_start;
    char cache_path[4096];
    opts.pipeline_cache_path = pipeline_cache_file(a->pipeline_cache, dev, cache_path, sizeof cache_path);
    opts.stop = &stop_requested;
    opts.claim = watchdog_claim[0] ? watchdog_claim : NULL;
    opts.progress = show_progress;
    opts.progress_user = &pc;
    vkat_tune_report rep;
    if (j->nindices > 1)
        vkat_log(VKAT_LOG_INFO, "%zu identical devices share one search", j->nindices);
    if (vkat_tune_devices(space, j->inst, j->indices, j->nindices, store, &opts, &rep, &err) != VKAT_OK) {
        j->code = vkat_cli_report(&err);
        goto done;
    }
    if (rep.skipped) {
        vkat_log(VKAT_LOG_WARN, "%s: skipped: %s", dev->name, rep.skip_reason);
        if (a->json)
            j->json = run_json(dev, &rep, NULL, 0);
        goto done;
    }
    if (j->several && !a->quiet && !a->json && !a->csv)
        vkat_log(VKAT_LOG_INFO, "%s: %llu evaluated, %.1f s", dev->name, (unsigned long long)rep.totals.evaluated,
                 rep.totals.elapsed_s);
    rows = calloc((size_t)a->top, sizeof *rows);
    size_t n = 0;
    if (!rows) {
        j->code = VKAT_EXIT_FAILURE;
        goto done;
    }
    if (vkat_store_best(store, &rep.key, rows, (size_t)a->top, &n, &err) != VKAT_OK) {
        j->code = vkat_cli_report(&err);
        goto done;
    }
    vkat_peaks peaks;
    table_extra x = {NULL, NAN, 0, 0, a->stats, a->shard_index, a->shard_count};
    /* Cached peaks are free to show; measuring costs seconds, so only --include-transfers (which needs the link
     * bandwidth) measures them when missing. The measurement runs after the tuning, on a quiet device. */
    int have = a->transfers ? vkat_cli_peaks_for(store, j->inst, j->index, 0, &peaks, &err)
                            : vkat_store_get_peaks(store, &rep.key.device, &peaks, &err);
    if (have < 0) {
        j->code = vkat_cli_report(&err);
        goto done;
    }
    if (have >= 0 && (have > 0 || a->transfers))
        x.peaks = &peaks;
    if (a->transfers) {
        if (vkat_cli_space_transfer_bytes(space, NULL, &x.bytes_in, &x.bytes_out, &err) != VKAT_OK) {
            j->code = vkat_cli_report(&err);
            goto done;
        }
        x.transfer_s = vkat_peaks_transfer_s(&peaks, x.bytes_in, x.bytes_out);
    }
    if (a->json)
        j->json = run_json(dev, &rep, rows, n);
    else if (a->csv)
        print_csv(o, dev, &rep, rows, n);
    else
        print_table(o, dev, &rep, rows, n, &x);
    if (n > 0) {
        j->tuned = 1;
        snprintf(j->problem, sizeof j->problem, "%s", rep.key.problem);
    }
    else if (rep.totals.evaluated == 0 && rep.totals.proposed >= vkat_space_raw_count(space))
        j->code = explain_empty(space, dev, a);
    else {
        report_first_failure(store, &rep.key);
        j->code = VKAT_EXIT_FAILURE;
    }
    if (rep.interrupted) {
        vkat_log(VKAT_LOG_WARN, "%s: interrupted: stopped after the variant in flight; everything measured is in %s "
                 "and a rerun resumes from it", dev->name, a->db);
        j->code = interrupted_code();
        goto done;
    }
    uint64_t raw = vkat_space_raw_count(space);
    char raw_text[96];
    if (!a->quiet && !a->json && !a->csv && rep.totals.proposed < raw && !a->budget_s)
        fprintf(o,
                "searched %llu of %s raw configurations; for a larger search use --budget N or --budget 10m "
                "(reruns resume from %s)\n",
                (unsigned long long)rep.totals.proposed, format_raw(space, raw_text, sizeof raw_text), a->db);
done:
    fclose(o);
    free(rows);
    vkat_store_close(store);
    vkat_space_destroy(space);
    return NULL;
}

/* ---- The watchdog ------------------------------------------------------------------------------------------------
 * A shader that never finishes cannot be stopped from inside the process that submitted it (a CPU driver such as
 * lavapipe keeps running it; a wedged GPU driver may block every call), so the run itself happens in a child. The
 * parent only watches the heartbeat; when it stops for --watchdog seconds, or the child dies of a signal, the parent
 * kills it, turns the variant it was running (stored as "aborted" before it ran) into a timeout or device-lost
 * result, and starts it again: the new child resumes from the database and goes on with the rest. */

static volatile pid_t supervised_child;

/* The stop signal the watchdog received (0: none): the run then ends with 128 + it, and whatever the child's end
 * (clean, killed by a second signal), nothing is blamed and nothing restarts. */
static volatile sig_atomic_t watchdog_stop;

/* Ctrl-C at a terminal reaches the whole process group, the child included, so the watchdog only passes on a
 * signal sent to it by a process (kill(1): SI_USER); a kill of the process group thus reaches the child twice,
 * which ends it at once, its variant in flight left to be measured again. */
static void forward_stop(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (!watchdog_stop)
        watchdog_stop = sig;
    if (supervised_child > 0 && (info->si_code == SI_USER || info->si_code == SI_QUEUE))
        kill(supervised_child, sig);
}

/* How the watchdog ends when a stop signal ended the run (-1: none did). */
static int stopped_code(int status)
{
    int sig = watchdog_stop;
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
        sig = sig ? sig : WTERMSIG(status);
    if (!sig)
        return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128)
        return WEXITSTATUS(status);
    return 128 + sig;
}

static int supervise(const tune_args *a)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward_stop;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* Blocked across fork, so that a signal arriving then waits for the child's own handler. */
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    for (unsigned restarts = 0;; restarts++) {
        if (watchdog_stop)
            return 128 + watchdog_stop;
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "vkautotune: cannot create the watchdog's pipe: %s\n", strerror(errno));
            return VKAT_EXIT_FAILURE;
        }
        snprintf(watchdog_claim, sizeof watchdog_claim, "[measuring process %ld.%ld.%u]", (long)getpid(),
                 (long)time(NULL), restarts);
        fflush(NULL);
        sigprocmask(SIG_BLOCK, &stops, &old);
        pid_t pid = fork();
        if (pid < 0) {
            sigprocmask(SIG_SETMASK, &old, NULL);
            fprintf(stderr, "vkautotune: cannot start the measuring process: %s\n", strerror(errno));
            return VKAT_EXIT_FAILURE;
        }
        if (pid == 0) {
            close(fds[0]);
            heartbeat_fd = fds[1];
            install_stop_handlers();
            if (watchdog_stop) /* the watchdog was asked to stop before this child existed */
                on_stop_signal(watchdog_stop);
            sigprocmask(SIG_SETMASK, &old, NULL);
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed watchdog takes its child along */
#endif
            return -1; /* the caller goes on as the measuring process */
        }
        close(fds[1]);
        supervised_child = pid;
        sigprocmask(SIG_SETMASK, &old, NULL);
        int hung = 0;
        for (;;) {
            struct pollfd p = {fds[0], POLLIN, 0};
            int n = poll(&p, 1, (int)(a->watchdog * 1000));
            if (n < 0 && errno == EINTR)
                continue;
            if (n == 0) {
                hung = 1;
                kill(pid, SIGKILL);
                break;
            }
            char buf[256];
            if (read(fds[0], buf, sizeof buf) <= 0)
                break; /* the child closed its end: it exited */
        }
        close(fds[0]);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        supervised_child = 0;
        int stopped = stopped_code(status);
        if (!hung && stopped >= 0)
            return stopped;
        if (!hung && WIFEXITED(status))
            return WEXITSTATUS(status);
        char reason[256];
        if (hung)
            snprintf(reason, sizeof reason,
                     "no progress for %.0f s: the measuring process was killed and restarted (--watchdog)",
                     a->watchdog);
        else
            snprintf(reason, sizeof reason, "the measuring process died of signal %d while this variant ran",
                     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
        vkat_store *st = NULL;
        vkat_error err = {0};
        uint64_t blamed = 0;
        if (vkat_store_open(a->db, &st, &err) != VKAT_OK ||
            vkat_store_resolve_aborted(st, hung ? VKAT_STATUS_TIMEOUT : VKAT_STATUS_DEVICE_LOST, reason,
                                       watchdog_claim, &blamed, &err) != VKAT_OK) {
            vkat_store_close(st);
            return vkat_cli_report(&err);
        }
        vkat_store_close(st);
        if (stopped >= 0)
            return stopped; /* hung while asked to stop: the variant is blamed, nothing restarts */
        if (blamed == 0) {
            fprintf(stderr, "vkautotune: %s, but not while a variant ran (setting up the device or the reference?); "
                            "giving up\n", hung ? "the measuring process stopped making progress" :
                                                  "the measuring process died");
            return VKAT_EXIT_DEVICE;
        }
        if (restarts >= 100) {
            fprintf(stderr, "vkautotune: the measuring process was restarted %u times; giving up\n", restarts);
            return VKAT_EXIT_DEVICE;
        }
        vkat_log(VKAT_LOG_WARN, "%s; %llu variant(s) marked %s; restarting", reason, (unsigned long long)blamed,
                 hung ? "timeout" : "device-lost");
    }
}

/* ---- The command ------------------------------------------------------------------------------------------------- */

int vkat_cmd_tune(int argc, char **argv)
{
    tune_args a;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        }
    if (!parse_args(argc, argv, &a))
        return VKAT_EXIT_USAGE;
    vkat_cli_setup_log(a.verbose, a.quiet || a.json || a.csv);
    if (!a.dry_run && a.watchdog > 0) {
        int code = supervise(&a);
        if (code >= 0)
            return code; /* the watchdog's own exit: the child's code or why it gave up */
    } else if (!a.dry_run) {
        install_stop_handlers();
    }

    vkat_error err = {0};
    vkat_space *space = NULL;
    vkat_instance *inst = NULL;
    vkat_store *store = NULL;
    device_job *jobs = NULL;
    pthread_t *threads = NULL;
    uint32_t ndev = 0;
    json_object *out = a.json ? json_object_new_array() : NULL;
    int code = VKAT_EXIT_OK;
    if (vkat_space_load_with_template(a.space_path, a.template_path, &space, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    /* Checks --problem early; it is applied again per device, after that device's defaults. */
    if (a.problem && vkat_space_set_problem(space, a.problem, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }

    if (a.device_profile) {
        vkat_device_info described;
        if (vkat_device_profile_load(a.device_profile, a.device, &described, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        use_problem_for(space, &described, a.problem);
        code = dry_run(space, &described, &a);
        goto done;
    }
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r != VKAT_OK) {
        if (a.dry_run && (r == VKAT_ERR_NO_LOADER || r == VKAT_ERR_NO_DEVICE)) {
            vkat_log(VKAT_LOG_INFO, "%s; counting with Vulkan's minimum limits", err.message);
            code = dry_run(space, NULL, &a);
            goto done;
        }
        code = vkat_cli_report(&err);
        goto done;
    }
    uint32_t devices[64];
    if (vkat_select_devices(inst, a.device, devices, 64, &ndev, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (a.dry_run) {
        use_problem_for(space, vkat_instance_device(inst, devices[0]), a.problem);
        code = dry_run(space, vkat_instance_device(inst, devices[0]), &a);
        goto done;
    }
    /* Opened here first so that a bad path fails once, before any thread starts (and for --export). */
    if (vkat_store_open(a.db, &store, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    jobs = calloc(ndev, sizeof *jobs);
    threads = calloc(ndev, sizeof *threads);
    if (!jobs || !threads) {
        code = VKAT_EXIT_FAILURE;
        goto done;
    }
    /* Identical GPUs (vkat_device_identical: same model, driver and driver version) share one search, each taking
     * the next proposal when it is free; different devices each run their own, side by side. */
    uint32_t ngroups = 0;
    for (uint32_t d = 0; d < ndev; d++) {
        const vkat_device_info *di = vkat_instance_device(inst, devices[d]);
        device_job *g = NULL;
        for (uint32_t k = 0; k < ngroups && !g; k++) {
            const vkat_device_info *gk = vkat_instance_device(inst, jobs[k].index);
            if (vkat_device_identical(gk, di) && jobs[k].nindices < 64)
                g = &jobs[k];
        }
        if (!g) {
            g = &jobs[ngroups++];
            g->a = &a;
            g->inst = inst;
            g->index = devices[d];
        }
        g->indices[g->nindices++] = devices[d];
    }
    for (uint32_t k = 0; k < ngroups; k++) {
        /* One live progress line per terminal: with several searches at once, a line per finished one. */
        jobs[k].show_progress = ngroups == 1 && !a.quiet && isatty(2);
        jobs[k].several = ngroups > 1;
    }
    ndev = ngroups;
    if (interrupted) { /* before anything was measured */
        code = interrupted_code();
        goto done;
    }
    /* Threads even for one device: one code path, exercised by every test run on lavapipe. */
    uint32_t started = 0;
    for (; started < ndev; started++)
        if (pthread_create(&threads[started], NULL, tune_one, &jobs[started]) != 0)
            break;
    for (uint32_t d = 0; d < started; d++)
        pthread_join(threads[d], NULL);
    for (uint32_t d = started; d < ndev; d++) {
        fprintf(stderr, "vkautotune: cannot start a thread for device %u\n", jobs[d].index);
        jobs[d].code = VKAT_EXIT_FAILURE;
    }
    /* Output in device order, whatever order the threads finished in. */
    uint32_t tuned[64], ntuned = 0;
    const char *problems[64];
    for (uint32_t d = 0; d < ndev; d++) {
        if (jobs[d].text)
            fwrite(jobs[d].text, 1, jobs[d].text_size, stdout);
        if (out && jobs[d].json)
            json_object_array_add(out, jobs[d].json), jobs[d].json = NULL;
        if (jobs[d].tuned) {
            problems[ntuned] = jobs[d].problem;
            tuned[ntuned++] = jobs[d].index;
        }
        if (code == VKAT_EXIT_OK || jobs[d].code == interrupted_code())
            code = jobs[d].code;
    }
    if (interrupted) {
        /* Whatever else happened (a search that ended before it saw the flag, a device that failed), a stop signal
         * ends the run with its code, and --export is not run on a partial result. */
        code = interrupted_code();
        goto done;
    }
    if (a.export_dir && ntuned > 0) {
        if (vkat_tune_export(space, inst, tuned, problems, ntuned, store, a.export_dir, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        vkat_log(VKAT_LOG_INFO, "exported %u variant(s) to %s", ntuned, a.export_dir);
    }
done:
    if (out) {
        printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(out);
    }
    for (uint32_t d = 0; jobs && d < ndev; d++) {
        free(jobs[d].text);
        json_object_put(jobs[d].json);
    }
    free(jobs);
    free(threads);
    vkat_store_close(store);
    vkat_instance_destroy(inst);
    vkat_space_destroy(space);
    return code;
}
