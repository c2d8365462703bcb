/* cli_tune.c — the main job: `vkautotune [TEMPLATE] --space SPACE [options]`.
 * Parses the options into a vkat_tune_desc, picks devices, runs the library's tuning run (which groups identical
 * GPUs into one search and runs each group on its own thread), prints each group's ranked table (text, --json or
 * --csv) in device order, shows progress on stderr when it is a terminal, exports the winners with --export, and
 * watches the run from a parent process (the watchdog). Built on the public header alone. */
#include "cli.h"

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
            "  --warmup SECONDS    warm-up before timing each variant, so the GPU clocks are up (default 0.2;\n"
            "                      the gaps between variants let them drop)\n"
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

/* The options: what the library takes goes straight into its description; the rest is the CLI's own. */
typedef struct tune_args {
    vkat_tune_desc d;
    const char *device, *export_dir, *device_profile;
    int top, json, csv, dry_run, quiet, verbose, transfers, stats;
    double watchdog; /* seconds; 0: measure in this process */
    const char *starts[MAX_STARTS]; /* --start, in order (d.starts points here) */
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
    a->d.shard_index = (uint32_t)k;
    a->d.shard_count = (uint32_t)n;
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
        a->d.budget_s = v;
    else if (!strcmp(end, "m"))
        a->d.budget_s = v * 60;
    else if (!strcmp(end, "h"))
        a->d.budget_s = v * 3600;
    else if (!*end && v == floor(v)) {
        a->d.budget = (uint64_t)v;
        return 1;
    } else
        return 0;
    a->d.budget = UINT64_MAX; /* a time budget: evaluations unlimited */
    return 1;
}

/* --watchdog, --kernel-timeout, --warmup and --race-tolerance: seconds or a fraction. Returns 0 (message printed)
 * when `v` is not a number in the option's range. */
static int parse_real_option(const char *o, const char *v, tune_args *a)
{
    char *end;
    double x = strtod(v, &end);
    if (!strcmp(o, "--watchdog")) {
        a->watchdog = x;
        if (*end || end == v || x < 0) {
            fprintf(stderr, "vkautotune: --watchdog '%s': expected seconds (0 turns it off)\n", v);
            return 0;
        }
    } else if (!strcmp(o, "--kernel-timeout")) {
        a->d.kernel_timeout_s = x;
        if (*end || end == v || !(x > 0) || x > 86400) {
            fprintf(stderr, "vkautotune: --kernel-timeout '%s': expected seconds, more than 0 and at most 86400\n",
                    v);
            return 0;
        }
    } else if (!strcmp(o, "--warmup")) {
        a->d.warmup_s = x;
        if (*end || x < 0) {
            fprintf(stderr, "vkautotune: --warmup '%s': expected seconds\n", v);
            return 0;
        }
    } else { /* --race-tolerance */
        a->d.race_tolerance = x;
        if (end == v || *end || !(x > 0 && x < 1)) {
            fprintf(stderr, "vkautotune: --race-tolerance '%s': expected a fraction between 0 and 1\n", v);
            return 0;
        }
    }
    return 1;
}

/* --jobs, --seed, --top and --repetitions: whole numbers. Returns 0 (message printed) when out of range. */
static int parse_count_option(const char *o, const char *v, tune_args *a)
{
    uint64_t n;
    int ok = vkat_cli_parse_u64(v, &n);
    if (!strcmp(o, "--jobs")) {
        if (!ok || n == 0 || n > 1024) {
            fprintf(stderr, "vkautotune: --jobs '%s': expected 1..1024\n", v);
            return 0;
        }
        a->d.jobs = (unsigned)n;
    } else if (!strcmp(o, "--seed")) {
        if (!ok) {
            fprintf(stderr, "vkautotune: --seed '%s': expected a non-negative integer\n", v);
            return 0;
        }
        a->d.seed = n;
    } else if (!strcmp(o, "--top")) {
        if (!ok || n == 0 || n > 1000) {
            fprintf(stderr, "vkautotune: --top '%s': expected 1..1000\n", v);
            return 0;
        }
        a->top = (int)n;
    } else { /* --repetitions */
        if (!ok || n == 0 || n > 100000) {
            fprintf(stderr, "vkautotune: --repetitions '%s': expected 1..100000\n", v);
            return 0;
        }
        a->d.repetitions = (uint32_t)n;
    }
    return 1;
}

/* The other options that take a value. Returns 0 (message printed) for a bad value. */
static int parse_value_option(const char *o, const char *v, tune_args *a)
{
    if (!strcmp(o, "--start")) {
        if (a->d.start_count == MAX_STARTS) {
            fprintf(stderr, "vkautotune: --start: at most %d start configurations\n", MAX_STARTS);
            return 0;
        }
        a->starts[a->d.start_count++] = v;
    } else if (!strcmp(o, "--check-on")) {
        if (!strcmp(v, "auto")) a->d.check_on = VKAT_CHECK_AUTO;
        else if (!strcmp(v, "gpu")) a->d.check_on = VKAT_CHECK_GPU;
        else if (!strcmp(v, "host")) a->d.check_on = VKAT_CHECK_HOST;
        else {
            fprintf(stderr, "vkautotune: --check-on '%s': expected auto, gpu or host\n", v);
            return 0;
        }
    } else if (!strcmp(o, "--budget")) {
        if (!parse_budget(v, a)) {
            fprintf(stderr, "vkautotune: --budget '%s': expected a count (100) or a time (90s, 10m)\n", v);
            return 0;
        }
    } else if (!strcmp(o, "--shard")) {
        if (!parse_shard(v, a)) {
            fprintf(stderr, "vkautotune: --shard '%s': expected K/N with 0 <= K < N, e.g. 0/4\n", v);
            return 0;
        }
    } else if (!strcmp(o, "--watchdog") || !strcmp(o, "--kernel-timeout") || !strcmp(o, "--warmup") ||
               !strcmp(o, "--race-tolerance")) {
        return parse_real_option(o, v, a);
    } else {
        return parse_count_option(o, v, a);
    }
    return 1;
}

/* The option's string slot when it takes a value that is used as given, else NULL. */
static const char **string_slot(const char *o, tune_args *a)
{
    return !strcmp(o, "--space")            ? &a->d.space_path
           : !strcmp(o, "--problem")        ? &a->d.problem
           : !strcmp(o, "--device")         ? &a->device
           : !strcmp(o, "--strategy")       ? &a->d.strategy
           : !strcmp(o, "--db")             ? &a->d.db_path
           : !strcmp(o, "--export")         ? &a->export_dir
           : !strcmp(o, "--pipeline-cache") ? &a->d.pipeline_cache_dir
           : !strcmp(o, "--device-profile") ? &a->device_profile
                                            : NULL;
}

/* 1 when `o` is a flag (set here), 0 when it is not one. */
static int parse_flag(const char *o, tune_args *a)
{
    int *flag = !strcmp(o, "--warm-start")          ? &a->d.warm_start
                : !strcmp(o, "--no-race")           ? &a->d.no_race
                : !strcmp(o, "--json")              ? &a->json
                : !strcmp(o, "--csv")               ? &a->csv
                : !strcmp(o, "--include-transfers") ? &a->transfers
                : !strcmp(o, "--stats")             ? &a->stats
                : !strcmp(o, "--dry-run")           ? &a->dry_run
                : !strcmp(o, "-q") || !strcmp(o, "--quiet")   ? &a->quiet
                : !strcmp(o, "-v") || !strcmp(o, "--verbose") ? &a->verbose
                                                              : NULL;
    if (!strcmp(o, "--race")) {
        a->d.no_race = 0;
        return 1;
    }
    if (flag)
        *flag = 1;
    return flag != NULL;
}

static int is_value_option(const char *o)
{
    static const char *const names[] = {"--start", "--check-on", "--budget", "--shard", "--watchdog",
                                        "--kernel-timeout", "--warmup", "--race-tolerance", "--jobs", "--seed",
                                        "--top", "--repetitions", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(o, names[i]))
            return 1;
    return 0;
}

/* What the options say together: the required --space, the exclusive pairs, the strategy's name. */
static int check_args(const tune_args *a)
{
    if (!a->d.space_path) {
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
    if (a->d.strategy && !vkat_strategy_exists(a->d.strategy)) {
        fprintf(stderr, "vkautotune: unknown strategy '%s' (known:", a->d.strategy);
        for (size_t i = 0; vkat_strategy_name(i); i++)
            fprintf(stderr, "%s %s", i ? "," : "", vkat_strategy_name(i));
        fprintf(stderr, ")\n");
        return 0;
    }
    return 1;
}

static int parse_args(int argc, char **argv, tune_args *a)
{
    memset(a, 0, sizeof *a);
    a->d.db_path = DEFAULT_DB;
    a->d.starts = a->starts;
    a->top = 10;
    a->watchdog = 120;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = string_slot(o, a);
        if (slot || is_value_option(o)) {
            if (!v) {
                fprintf(stderr, "vkautotune: %s needs a value\n", o);
                return 0;
            }
            i++;
            if (slot)
                *slot = v;
            else if (!parse_value_option(o, v, a))
                return 0;
        } else if (parse_flag(o, a)) {
            continue;
        } else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "vkautotune: unknown option '%s' (see vkautotune --help)\n", o);
            return 0;
        } else if (!a->d.template_path) {
            a->d.template_path = o;
        } else {
            fprintf(stderr, "vkautotune: unexpected argument '%s' (one template at most)\n", o);
            return 0;
        }
    }
    return check_args(a);
}

/* ---- Progress ------------------------------------------------------------------------------------------------ */

typedef struct progress_ctx {
    int enabled; /* one live progress line per terminal: only when one search runs */
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

static void show_progress(void *user, const vkat_device_info *device, const vkat_tune_progress *p)
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
            device->name, (unsigned long long)p->evaluated, total, (unsigned long long)p->resumed,
            (unsigned long long)p->failed, (unsigned long long)p->raced, (unsigned long long)p->invalid, rate, best,
            eta);
    if (p->done)
        fprintf(stderr, "\n");
    fflush(stderr);
}

/* ---- Dry run --------------------------------------------------------------------------------------------------- */

/* What a dry run shows of the valid configurations: the first few, with their sequence of dispatches. */
typedef struct show_visit {
    const vkat_space *space;
    const vkat_device_info *dev;
    vkat_error sequence_error; /* the first shown configuration whose sequence does not evaluate */
} show_visit;

/* A sequence's dispatches for one configuration, as a dry run shows them: "reduce[0] 16x1x1, reduce[1] 1x1x1". */
static void show_valid(void *user, const char *config)
{
    show_visit *v = user;
    printf("  valid: %s\n", config);
    if (!vkat_space_pass_count(v->space))
        return;
    char text[1024];
    size_t n = 0;
    vkat_error err = {0};
    if (vkat_space_describe_sequence(v->space, v->dev, config, &n, text, sizeof text, &err) != VKAT_OK) {
        printf("    sequence: %s:%d: %s\n", err.file, err.line, err.message);
        if (!v->sequence_error.code)
            v->sequence_error = err;
    } else {
        printf("    sequence of %zu:%s\n", n, text);
    }
}

/* Nothing valid: names the constraint that removed the most, at its line. Returns the exit code. */
static int report_empty(const vkat_space *s, const uint64_t *removed)
{
    size_t worst = 0, nc = vkat_space_constraint_count(s);
    for (size_t c = 1; c < nc; c++)
        if (removed[c] > removed[worst])
            worst = c;
    int line = 0;
    const char *name = vkat_space_constraint(s, worst, &line);
    if (nc)
        fprintf(stderr,
                "vkautotune: %s:%d: no configuration satisfies the constraints; '%s' removed the most (%llu of %llu)\n",
                vkat_space_path(s), line, name, (unsigned long long)removed[worst],
                (unsigned long long)vkat_space_raw_count(s));
    return VKAT_EXIT_INPUT;
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

/* The counts of an exact census, per constraint; the exit code. */
static int print_exact(const vkat_space *s, const tune_args *a, const vkat_space_count *c)
{
    printf("raw configurations: %llu\nvalid configurations: %llu\n", (unsigned long long)c->raw,
           (unsigned long long)c->valid);
    if (a->d.shard_count > 1)
        printf("valid in shard %u/%u: %llu\n", a->d.shard_index, a->d.shard_count,
               (unsigned long long)c->valid_in_shard);
    for (size_t k = 0; k < vkat_space_constraint_count(s); k++) {
        int line = 0;
        const char *name = vkat_space_constraint(s, k, &line);
        printf("  constraint '%s' (%s:%d) removed %llu\n", name, vkat_space_path(s), line,
               (unsigned long long)c->removed[k]);
    }
    return c->valid == 0 ? report_empty(s, c->removed) : VKAT_EXIT_OK;
}

/* The estimate of a sampled census, per constraint. */
static void print_estimate(const vkat_space *s, const tune_args *a, const vkat_space_count *c)
{
    char raw_text[96];
    printf("raw configurations: %s\n", vkat_space_format_raw(s, raw_text, sizeof raw_text));
    printf("valid configurations: about %.3g (an estimate: %.4g%% of %llu uniformly random configurations are "
           "valid, 95%% confidence interval %.4g%% to %.4g%%; too many to count exactly%s)\n",
           c->valid_estimate, 100 * c->fraction, (unsigned long long)c->checked, 100 * c->lo, 100 * c->hi,
           c->raw_overflows ? "" : " in 2 s");
    if (a->d.shard_count > 1)
        printf("valid in shard %u/%u: about %.3g\n", a->d.shard_index, a->d.shard_count,
               c->valid_estimate / a->d.shard_count);
    for (size_t k = 0; k < vkat_space_constraint_count(s); k++) {
        int line = 0;
        const char *name = vkat_space_constraint(s, k, &line);
        printf("  constraint '%s' (%s:%d) removed about %.4g%% (%llu of the samples)\n", name, vkat_space_path(s),
               line, c->checked ? 100.0 * (double)c->removed[k] / (double)c->checked : 0,
               (unsigned long long)c->removed[k]);
    }
    if (c->valid == 0)
        fprintf(stderr, "vkautotune: warning: no sampled configuration is valid: the valid fraction is below "
                        "%.2g%% (95%% confidence); tuning may find nothing\n", 100 * c->hi);
}

static int dry_run(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    printf("space %s: kernel '%s', %zu parameters, %zu constraints\n", vkat_space_path(s),
           vkat_space_kernel_name(s), vkat_space_param_count(s), vkat_space_constraint_count(s));
    char problem[256];
    vkat_space_format_problem(s, problem, sizeof problem);
    printf("problem: %s\n", problem);
    printf("limits of: %s\n", dev ? dev->name : "Vulkan's minimum limits (no device)");
    fflush(stdout);
    /* Exact where the walk takes under 2 s; otherwise an estimate from random samples. */
    show_visit v = {s, dev, {0}};
    census_progress cp = {0};
    vkat_count_desc cd = {0};
    cd.seed = a->d.seed;
    cd.shard_index = a->d.shard_index;
    cd.shard_count = a->d.shard_count;
    cd.visit = show_valid;
    cd.visit_user = &v;
    cd.visit_limit = 5;
    if (isatty(2) && !a->quiet) {
        cd.progress = show_census_progress;
        cd.progress_user = &cp;
    }
    vkat_space_count c;
    vkat_error err = {0};
    vkat_result r = vkat_space_count_configs(s, dev, &cd, &c, &err);
    if (cp.shown)
        fprintf(stderr, "\r\033[K");
    int code = r ? vkat_cli_report(&err) : VKAT_EXIT_OK;
    if (code == VKAT_EXIT_OK && v.sequence_error.code) /* a sequence that cannot run: every variant would fail */
        code = vkat_cli_report(&v.sequence_error);
    if (code == VKAT_EXIT_OK && c.exact)
        code = print_exact(s, a, &c);
    else if (code == VKAT_EXIT_OK)
        print_estimate(s, a, &c);
    vkat_space_count_free(&c);
    return code;
}

/* A tuning run that walked the whole space without one valid configuration: the space is at fault (exit 3, like
 * a dry run), not the kernel; say which constraint removed the most. A shard that holds none of the space's valid
 * configurations is not an error (a job array's other shards have them). */
static int explain_empty(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    vkat_count_desc cd = {0};
    cd.exact = 1;
    cd.shard_index = a->d.shard_index;
    cd.shard_count = a->d.shard_count;
    vkat_space_count c;
    vkat_error err = {0};
    int code = vkat_space_count_configs(s, dev, &cd, &c, &err) ? vkat_cli_report(&err) : VKAT_EXIT_OK;
    if (code == VKAT_EXIT_OK && c.valid > 0 && c.valid_in_shard == 0) {
        fprintf(stderr, "vkautotune: warning: shard %u/%u holds none of the %llu valid configurations\n",
                a->d.shard_index, a->d.shard_count, (unsigned long long)c.valid);
        code = VKAT_EXIT_OK;
    } else if (code == VKAT_EXIT_OK)
        code = c.valid == 0 ? report_empty(s, c.removed) : VKAT_EXIT_FAILURE;
    vkat_space_count_free(&c);
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
                "thread(s); check %.2f s, measure %.2f s\n",
                tm->instantiate, tm->compile, (unsigned long long)tm->compile_hits, tm->validate, tm->pipeline,
                tm->jobs, tm->check, tm->measure);
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
    vkat_cli_log(VKAT_LOG_WARN, "every variant failed; the first, %s: %s: %s%s", first->config,
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

/* ---- One group's output ------------------------------------------------------------------------------------------
 * After the run: each group's table, JSON or CSV (buffered, so that the groups print in device order), and why it
 * found nothing when it did not. */

typedef struct group_output {
    int code;    /* exit code of this group's run */
    char *text;  /* buffered stdout (table or CSV), malloc'ed */
    size_t text_size;
    json_object *json; /* --json */
} group_output;

/* The table's extras: cached peaks (free to show), measured when --include-transfers needs the link bandwidth
 * (seconds of work, after the tuning, on a quiet device), and the transfers' cost. Returns an exit code. */
static int table_extras(const tune_args *a, vkat_store *store, const vkat_tune_group *g, vkat_peaks *peaks,
                        table_extra *x)
{
    vkat_error err = {0};
    int have = a->transfers ? vkat_device_peaks(store, a->d.inst, g->devices[0], 0, peaks, &err)
                            : vkat_store_get_peaks(store, &g->report.key.device, peaks, &err);
    if (have < 0)
        return vkat_cli_report(&err);
    if (have > 0 || a->transfers)
        x->peaks = peaks;
    if (a->transfers) {
        if (vkat_space_transfer_bytes(g->space, NULL, &x->bytes_in, &x->bytes_out, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        x->transfer_s = vkat_peaks_transfer_s(peaks, x->bytes_in, x->bytes_out);
    }
    return VKAT_EXIT_OK;
}

/* Writes the group's result into `o` (or its JSON) and returns the exit code. */
static int print_group(const tune_args *a, vkat_store *store, const vkat_tune_group *g, FILE *o, group_output *out)
{
    const vkat_device_info *dev = vkat_instance_device(a->d.inst, g->devices[0]);
    const vkat_tune_report *rep = &g->report;
    if (g->result != VKAT_OK)
        return vkat_cli_report(&g->error);
    if (rep->skipped) {
        if (a->json)
            out->json = run_json(dev, rep, NULL, 0);
        return VKAT_EXIT_OK;
    }
    vkat_error err = {0};
    vkat_row *rows = calloc((size_t)a->top, sizeof *rows);
    size_t n = 0;
    int code = VKAT_EXIT_OK;
    if (!rows)
        return VKAT_EXIT_FAILURE;
    if (vkat_store_best(store, &rep->key, rows, (size_t)a->top, &n, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    vkat_peaks peaks;
    table_extra x = {NULL, NAN, 0, 0, a->stats, a->d.shard_index, a->d.shard_count};
    if ((code = table_extras(a, store, g, &peaks, &x)) != VKAT_EXIT_OK)
        goto done;
    if (a->json)
        out->json = run_json(dev, rep, rows, n);
    else if (a->csv)
        print_csv(o, dev, rep, rows, n);
    else
        print_table(o, dev, rep, rows, n, &x);
    if (n == 0 && rep->totals.evaluated == 0 && rep->totals.proposed >= vkat_space_raw_count(g->space))
        code = explain_empty(g->space, dev, a);
    else if (n == 0) {
        report_first_failure(store, &rep->key);
        code = VKAT_EXIT_FAILURE;
    }
    if (rep->interrupted) {
        vkat_cli_log(VKAT_LOG_WARN, "%s: interrupted: stopped after the variant in flight; everything measured is in "
                     "%s and a rerun resumes from it", dev->name, a->d.db_path);
        code = interrupted_code();
        goto done;
    }
    uint64_t raw = vkat_space_raw_count(g->space);
    char raw_text[96];
    if (!a->quiet && !a->json && !a->csv && rep->totals.proposed < raw && !a->d.budget_s)
        fprintf(o,
                "searched %llu of %s raw configurations; for a larger search use --budget N or --budget 10m "
                "(reruns resume from %s)\n",
                (unsigned long long)rep->totals.proposed, vkat_space_format_raw(g->space, raw_text, sizeof raw_text),
                a->d.db_path);
done:
    free(rows);
    return code;
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

/* Turns the variant the killed measuring process was running (its "aborted" rows, by this process's claim) into a
 * timeout (hung) or device-lost (died) result, saying why in `reason`. Returns an exit code on a database error,
 * else -1 with *blamed set. */
static int blame(const tune_args *a, int hung, int status, char *reason, size_t size, uint64_t *blamed)
{
    if (hung)
        snprintf(reason, size, "no progress for %.0f s: the measuring process was killed and restarted (--watchdog)",
                 a->watchdog);
    else
        snprintf(reason, size, "the measuring process died of signal %d while this variant ran",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    vkat_store *st = NULL;
    vkat_error err = {0};
    if (vkat_store_open(a->d.db_path, &st, &err) != VKAT_OK ||
        vkat_store_resolve_aborted(st, hung ? VKAT_STATUS_TIMEOUT : VKAT_STATUS_DEVICE_LOST, reason, watchdog_claim,
                                   blamed, &err) != VKAT_OK) {
        vkat_store_close(st);
        return vkat_cli_report(&err);
    }
    vkat_store_close(st);
    return -1;
}

/* Reads the child's heartbeat until it exits (its end of the pipe closes) or goes `seconds` without one (then it
 * is killed); reaps it into *status. Returns 1 when it hung. */
static int watch_child(int fd, pid_t pid, double seconds, int *status)
{
    int hung = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int n = poll(&p, 1, (int)(seconds * 1000));
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            hung = 1;
            kill(pid, SIGKILL);
            break;
        }
        char buf[256];
        if (read(fd, buf, sizeof buf) <= 0)
            break; /* the child closed its end: it exited */
    }
    close(fd);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return hung;
}

/* Forks the measuring process and watches it; restarts it after a hang or a crash. Returns -1 in the child (which
 * goes on to measure), else the run's exit code. */
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
        int status = 0;
        int hung = watch_child(fds[0], pid, a->watchdog, &status);
        supervised_child = 0;
        int stopped = stopped_code(status);
        if (!hung && stopped >= 0)
            return stopped;
        if (!hung && WIFEXITED(status))
            return WEXITSTATUS(status);
        char reason[256];
        uint64_t blamed = 0;
        int code = blame(a, hung, status, reason, sizeof reason, &blamed);
        if (code >= 0)
            return code;
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
        vkat_cli_log(VKAT_LOG_WARN, "%s; %llu variant(s) marked %s; restarting", reason, (unsigned long long)blamed,
                 hung ? "timeout" : "device-lost");
    }
}

/* ---- The command ------------------------------------------------------------------------------------------------- */

/* --dry-run: counts for the device described by --device-profile, else the first device asked for, else (no
 * Vulkan) Vulkan's minimum limits. Returns the exit code. */
static int dry_run_command(const tune_args *a, vkat_space *space)
{
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_device_info described;
    int code;
    if (a->device_profile) {
        if (vkat_device_profile_load(a->device_profile, a->device, &described, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        use_problem_for(space, &described, a->d.problem);
        return dry_run(space, &described, a);
    }
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r == VKAT_ERR_NO_LOADER || r == VKAT_ERR_NO_DEVICE) {
        vkat_cli_log(VKAT_LOG_INFO, "%s; counting with Vulkan's minimum limits", err.message);
        return dry_run(space, NULL, a);
    }
    uint32_t devices[64], n;
    if (r != VKAT_OK || vkat_select_devices(inst, a->device, devices, 64, &n, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
    } else {
        use_problem_for(space, vkat_instance_device(inst, devices[0]), a->d.problem);
        code = dry_run(space, vkat_instance_device(inst, devices[0]), a);
    }
    vkat_instance_destroy(inst);
    return code;
}

/* Prints every group's output in device order, whatever order they finished in; returns the run's exit code. */
static int print_groups(const tune_args *a, vkat_tune_run *run, json_object *out)
{
    size_t ng = vkat_tune_run_group_count(run);
    int code = VKAT_EXIT_OK;
    for (size_t k = 0; k < ng; k++) {
        group_output g = {0};
        FILE *o = open_memstream(&g.text, &g.text_size);
        g.code = o ? print_group(a, vkat_tune_run_store(run), vkat_tune_run_group(run, k), o, &g)
                   : VKAT_EXIT_FAILURE;
        if (o)
            fclose(o);
        if (g.text)
            fwrite(g.text, 1, g.text_size, stdout);
        free(g.text);
        if (out && g.json)
            json_object_array_add(out, g.json);
        if (code == VKAT_EXIT_OK || g.code == interrupted_code())
            code = g.code;
    }
    return code;
}

/* Tunes on the devices asked for, prints (--json: into `out`), and exports with --export. Returns the exit code. */
static int tune_command(tune_args *a, json_object *out)
{
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_tune_run *run = NULL;
    uint32_t devices[64], ndev = 0;
    progress_ctx pc = {0};
    int code = VKAT_EXIT_OK;
    if (vkat_instance_create(&inst, &err) != VKAT_OK ||
        vkat_select_devices(inst, a->device, devices, 64, &ndev, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    a->d.inst = inst;
    a->d.devices = devices;
    a->d.device_count = ndev;
    a->d.stop = &stop_requested;
    a->d.claim = watchdog_claim[0] ? watchdog_claim : NULL;
    a->d.progress = show_progress;
    a->d.progress_user = &pc;
    if (vkat_tune_run_create(&a->d, &run, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    pc.enabled = vkat_tune_run_group_count(run) == 1 && !a->quiet && isatty(2);
    if (interrupted) { /* before anything was measured */
        code = interrupted_code();
        goto done;
    }
    if (vkat_tune_run_execute(run, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    code = print_groups(a, run, out);
    if (interrupted) {
        /* Whatever else happened (a search that ended before it saw the flag, a device that failed), a stop signal
         * ends the run with its code, and --export is not run on a partial result. */
        code = interrupted_code();
        goto done;
    }
    size_t exported = 0;
    if (a->export_dir && vkat_tune_run_export(run, a->export_dir, &exported, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (exported)
        vkat_cli_log(VKAT_LOG_INFO, "exported %zu variant(s) to %s", exported, a->export_dir);
done:
    vkat_tune_run_destroy(run);
    vkat_instance_destroy(inst);
    return code;
}

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
    /* The space and --problem are checked first, whatever else is wrong; the tuning run loads its own copies.
     * --json prints an array whatever happens (empty when nothing ran), so stdout always parses. */
    vkat_error err = {0};
    vkat_space *space = NULL;
    json_object *out = a.json ? json_object_new_array() : NULL;
    int code;
    if (vkat_space_load_with_template(a.d.space_path, a.d.template_path, &space, &err) != VKAT_OK ||
        (a.d.problem && vkat_space_set_problem(space, a.d.problem, &err) != VKAT_OK))
        code = vkat_cli_report(&err);
    else
        code = a.dry_run ? dry_run_command(&a, space) : tune_command(&a, out);
    if (out) {
        printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(out);
    }
    vkat_space_destroy(space);
    return code;
}
