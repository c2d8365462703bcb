/* cli_tune_args.c — the tune command's options: the help text, and each option parsed into tune_args (what the
 * library takes goes straight into its vkat_tune_desc; the rest is the CLI's own) with a message for a bad value. */
#include "cli_tune.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void vkat_cli_tune_usage(FILE *f)
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
            "  --seed N            search seed (default 0). Results reach the strategy as they finish, so\n"
            "                      an adaptive strategy's proposals also depend on timing; VKAT_REPORT_IN_ORDER=1\n"
            "                      makes them depend on the seed alone (one GPU)\n"
            "  --start CONFIG      measure this configuration first (every parameter with more than one\n"
            "                      value named, e.g. TM=4,TN=4,...); the search goes on from what it scored.\n"
            "                      Repeatable\n"
            "  --warm-start        first measure the winners the database holds for this kernel at other\n"
            "                      problem sizes (this device's, then other devices'), up to 16\n"
            "  --shard K/N         tune only shard K (0..N-1) of N; a configuration's shard is its position in\n"
            "                      a fixed shuffle of the space, mod N, and other shards' are skipped unmeasured.\n"
            "                      Exhaustive and random shards together cover every configuration once; other\n"
            "                      strategies search their own shard with seed + K. The budget is per shard.\n"
            "                      Give each shard its own --db, then `vkautotune merge` them (docs/cluster.md)\n"
            "  --db PATH           results database (default ./" VKAT_CLI_DEFAULT_DB "); reruns resume from it\n"
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
            "  --check-on WHERE    where outputs are compared with the reference: gpu (float outputs summed in\n"
            "                      float64 on the device, integer outputs compared exactly there; only partial\n"
            "                      sums are read back, and a variant it does not clearly pass is read back and\n"
            "                      judged on the host), host (read every output back), or auto (default: gpu for\n"
            "                      outputs of 2^20 elements or more, except on a CPU device such as lavapipe)\n"
            "  --watchdog SECONDS  measure in a child process; when it makes no progress for this long (a hung\n"
            "                      shader, a wedged driver) or dies, kill it, mark the variant it was running as\n"
            "                      timeout or device-lost, and restart it to carry on (default 120; 0: off)\n"
            "  --kernel-timeout SECONDS  how long one submission to the GPU (a checked run, a warm-up or timed\n"
            "                      batch) may take before the variant is stored as timeout (default 10; the\n"
            "                      reference gets at least 60); --watchdog catches what never returns at all\n"
            "  --warmup SECONDS    the most warm-up before timing each variant, so the GPU clocks are up (default\n"
            "                      0.2; the gaps between variants let them drop): timed batches back to back until\n"
            "                      the variant's times stop falling, after at least --warmup-min\n"
            "  --warmup-min SECONDS  the least warm-up (default 0.02), waived when the GPU has already run that\n"
            "                      much work with no idle past 50 ms (back-to-back variants); --warmup-min\n"
            "                      equal to --warmup: a fixed warm-up. VKAT_MEASURE_TRACE=FILE writes each\n"
            "                      warm-up batch and variant measured to FILE (its times; measure_trace.h)\n"
            "  --repetitions N     timed samples per variant (default 10; with racing, contenders take more)\n"
            "  --min-sample SECONDS  the least time one timed sample spans (default 0.0001): a shorter kernel is\n"
            "                      timed in batches of back-to-back dispatches, each after a barrier, as\n"
            "                      PyTorch's and CUDA's benchmarks time back-to-back calls\n"
            "  --race | --no-race  racing (default on): a variant whose first samples put it clearly behind the\n"
            "                      best so far (its least sample less 3 MADs, at least 2%%, above the best's\n"
            "                      median plus 3 MADs, at least 2%%; one sample: 1.5x that bound; its checked\n"
            "                      run, and one dispatch after it where first dispatches were seen to carry\n"
            "                      more: 10x, right after a busy GPU) stops being\n"
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

/* --watchdog, --kernel-timeout, --warmup, --warmup-min, --min-sample and --race-tolerance: seconds or a fraction. Returns 0 (message printed)
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
        if (x == 0)
            a->d.warmup_s = -1; /* none: zero would mean the default */
    } else if (!strcmp(o, "--warmup-min")) {
        a->d.warmup_min_s = x > 0 ? x : -1; /* 0 is spelt negative: zero means the default */
        if (end == v || *end || !(x >= 0)) {
            fprintf(stderr, "vkautotune: --warmup-min '%s': expected seconds\n", v);
            return 0;
        }
    } else if (!strcmp(o, "--min-sample")) {
        a->d.min_sample_s = x;
        if (end == v || *end || !(x > 0 && x <= 1)) {
            fprintf(stderr, "vkautotune: --min-sample '%s': expected seconds, more than 0 and at most 1\n", v);
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
        if (a->d.start_count == VKAT_CLI_MAX_STARTS) {
            fprintf(stderr, "vkautotune: --start: at most %d start configurations\n", VKAT_CLI_MAX_STARTS);
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
               !strcmp(o, "--warmup-min") || !strcmp(o, "--min-sample") || !strcmp(o, "--race-tolerance")) {
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
                                        "--kernel-timeout", "--warmup", "--warmup-min", "--min-sample", "--race-tolerance", "--jobs", "--seed",
                                        "--top", "--repetitions", NULL};
    for (int i = 0; names[i]; i++)
        if (!strcmp(o, names[i]))
            return 1;
    return 0;
}

/* What the options say together: the required --space, the exclusive pairs, the strategy's name. */
static int check_args(const tune_args *a)
{
    if (!a->d.space_path && a->d.template_path && access(a->d.template_path, R_OK) != 0) {
        fprintf(stderr, "vkautotune: %s: %s (and --space is required: see vkautotune --help)\n", a->d.template_path,
                strerror(errno));
        return 0;
    }
    if (!a->d.space_path && a->d.template_path) {
        /* A shader alone: the one step a first run is missing. */
        fprintf(stderr, "vkautotune: --space is required: `vkautotune init %s -o SPACE.ini` writes one from the "
                        "shader's SPIR-V, then `vkautotune %s --space SPACE.ini` tunes it\n",
                a->d.template_path, a->d.template_path);
        return 0;
    }
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

int vkat_cli_tune_parse_args(int argc, char **argv, tune_args *a)
{
    memset(a, 0, sizeof *a);
    a->d.db_path = VKAT_CLI_DEFAULT_DB;
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
