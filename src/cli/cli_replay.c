/* cli_replay.c — `vkautotune replay TABLE`: runs a search strategy against a recorded table (a Kernel Tuner cache
 * file or a vkautotune results database) instead of a GPU, over one or more seeds, and prints the fraction of the
 * optimum (best time in the table / best time found) after each budget. Output is deterministic for the seeds. */
#include "cli.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkautotune replay TABLE [options]\n"
            "\n"
            "Replays a search strategy against TABLE, a Kernel Tuner cache file (.json) or a vkautotune results\n"
            "database, with the table in place of the GPU, and prints the fraction of the optimum found (best time\n"
            "in the table / best time found) after 25, 50, 100, ... unique evaluations, averaged over the seeds, with\n"
            "its spread over the seeds and random sampling's mean with the same seeds and budget beside it.\n"
            "\n"
            "options:\n"
            "  --strategy NAME   a strategy (default: auto); see the list in `vkautotune tune --help`\n"
            "  --budget N        unique evaluations (default 400)\n"
            "  --seed N          first seed (default 0)\n"
            "  --seeds K         seeds N .. N+K-1 (default 1)\n"
            "  --window N        evaluations in flight, as in a live run that compiles ahead (default 1)\n"
            "  --kernel NAME     in a database, the kernel to replay (default: the key with the most rows)\n"
            "  --missing HOW     configurations absent from the table: free (default: ruled out without an\n"
            "                    evaluation, as a constraint check is in a live run; the strategy may ask the\n"
            "                    table which exist) or charged (one evaluation each when proposed, as a\n"
            "                    failure, and nothing known beforehand: how the published benchmark counted)\n"
            "  --constraints FILE\n"
            "                    the kernel's constraints, as a live run's space has them: a space file whose\n"
            "                    [params] are the table's parameters with the table's values and whose\n"
            "                    [constraints] are the kernel's ([kernel] may be left out; device.* names take\n"
            "                    Vulkan's minimum limits, so write the recorded device's as numbers). A\n"
            "                    configuration that breaks them is ruled out free under either --missing, as\n"
            "                    a live run never compiles it; one that passes and is missing from the table\n"
            "                    is still charged under --missing charged. Examples: bench/replay_constraints/\n"
            "  --objective NAME  the entries' metric to score (default: the file's \"objective\", else time);\n"
            "                    fraction of the optimum is best / found when lower is better, found / best\n"
            "                    when higher is\n"
            "  --higher-is-better, --lower-is-better\n"
            "                    the objective's direction (default: the file's objective_higher_is_better;\n"
            "                    time: lower); a metric other than time without one is refused\n"
            "  --json            machine-readable output on stdout\n"
            "  -h, --help        this text\n"
            "\n"
            "A Kernel Tuner cache's keys are Python's str() of each value (\"0.5\", \"1e-05\", \"True\", \"None\").\n"
            "An entry whose objective is an error string (CompilationFailedConfig, RuntimeFailedConfig), 0,\n"
            "negative, NaN or a time of 1e20 failed: one evaluation; InvalidConfig and an entry without the\n"
            "objective are missing, like an absent one. A cache that was not closed (a stopped run) is closed as\n"
            "Kernel Tuner does, with a warning; a file cut inside an entry is refused with its line. T4 results\n"
            "({\"results\": [...]}) are read too; schema_version 1.x only.\n");
}

static double fraction(double optimum, double found)
{
    return isfinite(found) && found > 0 ? optimum / found : 0;
}

/* The standard deviation over the seeds from the sum and the sum of squares. */
static double sd_of(double sum, double sq, uint64_t n)
{
    double mean = sum / (double)n;
    return sqrt(fmax(0, sq / (double)n - mean * mean));
}

typedef struct replay_args {
    const char *table_path, *strategy, *kernel, *missing, *constraints, *objective;
    uint64_t budget, seed, seeds, window;
    int json, charge, higher_is_better;
} replay_args;

/* Returns -1 to go on, else the exit code (help, usage error). */
static int parse_args(int argc, char **argv, replay_args *a)
{
    *a = (replay_args){NULL, "auto", NULL, "free", NULL, NULL, 400, 0, 1, 1, 0, 0, 0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t *num = NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (!strcmp(o, "--json")) {
            a->json = 1;
            continue;
        } else if (!strcmp(o, "--higher-is-better") || !strcmp(o, "--lower-is-better")) {
            a->higher_is_better = !strcmp(o, "--higher-is-better") ? 1 : -1;
            continue;
        } else if (!strcmp(o, "--strategy") || !strcmp(o, "--kernel") || !strcmp(o, "--missing") ||
                   !strcmp(o, "--constraints") || !strcmp(o, "--objective")) {
            if (!v) {
                fprintf(stderr, "vkautotune: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            *(!strcmp(o, "--strategy")    ? &a->strategy
              : !strcmp(o, "--kernel")    ? &a->kernel
              : !strcmp(o, "--missing")   ? &a->missing
              : !strcmp(o, "--objective") ? &a->objective
                                          : &a->constraints) = v;
            i++;
            continue;
        } else if (!strcmp(o, "--budget")) num = &a->budget;
        else if (!strcmp(o, "--seed")) num = &a->seed;
        else if (!strcmp(o, "--seeds")) num = &a->seeds;
        else if (!strcmp(o, "--window")) num = &a->window;
        else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "vkautotune: unknown option '%s' (see vkautotune replay --help)\n", o);
            return VKAT_EXIT_USAGE;
        } else if (!a->table_path) {
            a->table_path = o;
            continue;
        } else {
            fprintf(stderr, "vkautotune: unexpected argument '%s' (one table)\n", o);
            return VKAT_EXIT_USAGE;
        }
        int bad = !vkat_cli_parse_u64(v, num) || (num != &a->seed && (*num == 0 || *num > 100000000));
        if (bad) {
            fprintf(stderr, "vkautotune: %s '%s': expected a %s integer\n", o, v ? v : "",
                    num == &a->seed ? "non-negative" : "positive");
            return VKAT_EXIT_USAGE;
        }
        i++;
    }
    if (!a->table_path) {
        fprintf(stderr, "vkautotune: replay needs a TABLE (see vkautotune replay --help)\n");
        return VKAT_EXIT_USAGE;
    }
    if (!vkat_strategy_exists(a->strategy)) {
        fprintf(stderr, "vkautotune: unknown strategy '%s' (known:", a->strategy);
        for (size_t i = 0; vkat_strategy_name(i); i++)
            fprintf(stderr, "%s %s", i ? "," : "", vkat_strategy_name(i));
        fprintf(stderr, ")\n");
        return VKAT_EXIT_USAGE;
    }
    if (strcmp(a->missing, "free") && strcmp(a->missing, "charged")) {
        fprintf(stderr, "vkautotune: --missing '%s': expected free or charged\n", a->missing);
        return VKAT_EXIT_USAGE;
    }
    a->charge = !strcmp(a->missing, "charged");
    return -1;
}

#define MAX_MARKS 16

/* What the seeds found, per budget mark: sums for the mean and spread, the least fraction, how many reached the
 * optimum, random sampling's sum; and the first seed's search. */
typedef struct replay_totals {
    uint64_t marks[MAX_MARKS];
    size_t nm;
    double sum[MAX_MARKS], sq[MAX_MARKS], minf[MAX_MARKS], rsum[MAX_MARKS];
    uint64_t at_opt[MAX_MARKS];
    vkat_replay_result first;
} replay_totals;

/* Runs every seed with the strategy and with random sampling (the yardstick). Returns an exit code. */
static int run_seeds(const replay_args *a, const vkat_replay_table *t, const vkat_replay_info *info,
                     replay_totals *x)
{
    /* The standard budgets up to --budget, and --budget itself. */
    static const uint64_t standard[] = {25, 50, 100, 200, 400, 800, 1600, 3200, 6400};
    memset(x, 0, sizeof *x);
    for (size_t k = 0; k < sizeof standard / sizeof *standard && standard[k] < a->budget; k++)
        x->marks[x->nm++] = standard[k];
    x->marks[x->nm++] = a->budget;
    for (size_t k = 0; k < x->nm; k++)
        x->minf[k] = 1;
    x->first.best_s = INFINITY;
    double best_at[MAX_MARKS];
    vkat_error err = {0};
    for (uint64_t s = 0; s < a->seeds; s++) {
        vkat_replay_desc ro = {"random", a->seed + s, a->budget, (uint32_t)a->window, a->charge};
        if (vkat_replay_search(t, &ro, x->marks, x->nm, best_at, NULL, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        for (size_t k = 0; k < x->nm; k++)
            x->rsum[k] += fraction(info->best_s, best_at[k]);
        vkat_replay_desc o = {a->strategy, a->seed + s, a->budget, (uint32_t)a->window, a->charge};
        if (vkat_replay_search(t, &o, x->marks, x->nm, best_at, s == 0 ? &x->first : NULL, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        for (size_t k = 0; k < x->nm; k++) {
            double f = fraction(info->best_s, best_at[k]);
            x->sum[k] += f;
            x->sq[k] += f * f;
            x->minf[k] = fmin(x->minf[k], f);
            x->at_opt[k] += f >= 1.0;
        }
    }
    return VKAT_EXIT_OK;
}

static void print_json(const replay_args *a, const vkat_replay_table *tab, const vkat_replay_info *t,
                       const replay_totals *x)
{
    int time = !strcmp(t->objective, "time");
    const vkat_replay_result *first = &x->first;
    json_object *root = json_object_new_object(), *arr = json_object_new_array();
    json_object_object_add(root, "table", json_object_new_string(t->label));
    json_object_object_add(root, "parameters", json_object_new_int64((int64_t)t->param_count));
    json_object_object_add(root, "raw", json_object_new_int64((int64_t)t->raw));
    json_object_object_add(root, "valid", json_object_new_int64((int64_t)t->valid));
    json_object_object_add(root, "failed", json_object_new_int64((int64_t)t->failed));
    json_object_object_add(root, "format", json_object_new_string(t->format));
    json_object_object_add(root, "objective", json_object_new_string(t->objective));
    json_object_object_add(root, "higher_is_better", json_object_new_boolean(t->higher_is_better));
    json_object_object_add(root, "unit", json_object_new_string(vkat_replay_unit(tab)));
    json_object_object_add(root, "optimum", json_object_new_double(vkat_replay_value(tab, t->best_s)));
    json_object_object_add(root, "optimum_s", time ? json_object_new_double(t->best_s) : NULL);
    json_object_object_add(root, "marked_invalid", json_object_new_int64((int64_t)t->marked_invalid));
    json_object_object_add(root, "without_objective", json_object_new_int64((int64_t)t->no_objective));
    json_object_object_add(root, "repaired", json_object_new_boolean(t->repaired));
    json_object_object_add(root, "strategy", json_object_new_string(a->strategy));
    json_object_object_add(root, "seed", json_object_new_int64((int64_t)a->seed));
    json_object_object_add(root, "seeds", json_object_new_int64((int64_t)a->seeds));
    json_object_object_add(root, "missing", json_object_new_string(vkat_replay_missing_name(a->charge)));
    json_object *c = NULL;
    if (t->constraints) {
        c = json_object_new_object();
        json_object_object_add(c, "file", json_object_new_string(t->constraints));
        json_object_object_add(c, "raw_passing", json_object_new_int64((int64_t)t->constraint_valid));
        json_object_object_add(c, "table_valid", json_object_new_int64((int64_t)t->constrained_valid));
        json_object_object_add(c, "table_failed", json_object_new_int64((int64_t)t->constrained_failed));
        json_object_object_add(c, "table_breaking", json_object_new_int64((int64_t)t->constraint_outside));
    }
    json_object_object_add(root, "constraints", c);
    for (size_t k = 0; k < x->nm; k++) {
        json_object *b = json_object_new_object();
        json_object_object_add(b, "evaluations", json_object_new_int64((int64_t)x->marks[k]));
        json_object_object_add(b, "mean_fraction", json_object_new_double(x->sum[k] / (double)a->seeds));
        json_object_object_add(b, "sd_fraction", json_object_new_double(sd_of(x->sum[k], x->sq[k], a->seeds)));
        json_object_object_add(b, "min_fraction", json_object_new_double(x->minf[k]));
        json_object_object_add(b, "random_mean_fraction", json_object_new_double(x->rsum[k] / (double)a->seeds));
        json_object_object_add(b, "seeds_at_optimum", json_object_new_int64((int64_t)x->at_opt[k]));
        json_object_array_add(arr, b);
    }
    json_object_object_add(root, "budgets", arr);
    json_object *f = json_object_new_object();
    json_object_object_add(
        f, "best", isfinite(first->best_s) ? json_object_new_double(vkat_replay_value(tab, first->best_s)) : NULL);
    json_object_object_add(f, "best_s", time && isfinite(first->best_s) ? json_object_new_double(first->best_s) : NULL);
    json_object_object_add(f, "config", json_object_new_string(first->config));
    json_object_object_add(f, "proposed", json_object_new_int64((int64_t)first->proposed));
    json_object_object_add(f, "invalid", json_object_new_int64((int64_t)first->invalid));
    json_object_object_add(f, "duplicates", json_object_new_int64((int64_t)first->duplicates));
    json_object_object_add(f, "evaluated", json_object_new_int64((int64_t)first->evaluated));
    json_object_object_add(f, "failed", json_object_new_int64((int64_t)first->failed));
    json_object_object_add(f, "stop", json_object_new_string(first->stop));
    json_object_object_add(root, "first_seed", f);
    printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
    json_object_put(root);
}

static void print_text(const replay_args *a, const vkat_replay_table *tab, const vkat_replay_info *t,
                       const replay_totals *x)
{
    const vkat_replay_result *first = &x->first;
    const char *unit = vkat_replay_unit(tab);
    printf("table %s: %zu parameters, %llu raw, %llu valid, %llu failed, optimum %.6g %s\n", t->label, t->param_count,
           (unsigned long long)t->raw, (unsigned long long)t->valid, (unsigned long long)t->failed,
           vkat_replay_value(tab, t->best_s), unit);
    /* What was scored, and the entries read as missing, so that a table read differently from intended shows. */
    printf("objective %s (%s is better), %s%s; %llu entr%s %s and %llu without %s: missing\n", t->objective,
           t->higher_is_better ? "higher" : "lower", t->format,
           t->repaired ? " not closed (read as Kernel Tuner does)" : "", (unsigned long long)t->marked_invalid,
           t->marked_invalid == 1 ? "y" : "ies",
           !strcmp(t->format, "T4 results") ? "with invalidity constraints" : "marked InvalidConfig",
           (unsigned long long)t->no_objective, t->objective);
    printf("strategy %s, %llu seed%s from %llu, window %llu\n", a->strategy, (unsigned long long)a->seeds,
           a->seeds == 1 ? "" : "s", (unsigned long long)a->seed, (unsigned long long)a->window);
    printf("missing configurations: %s\n",
           a->charge ? "charged, one evaluation each (the published benchmark's counting)"
                     : "free, ruled out without an evaluation (as constraints are in a live run)");
    if (t->constraints)
        printf("constraints %s: %llu of %llu raw configurations pass (ruled out free, as in a live run), holding "
               "%llu valid and %llu failed of the table's entries; %llu entries break them\n",
               t->constraints, (unsigned long long)t->constraint_valid, (unsigned long long)t->raw,
               (unsigned long long)t->constrained_valid, (unsigned long long)t->constrained_failed,
               (unsigned long long)t->constraint_outside);
    else
        printf("constraints: none\n");
    printf("%11s  %13s  %8s  %12s  %16s  %11s\n", "evaluations", "mean fraction", "sd", "min fraction",
           "seeds at optimum", "random mean");
    for (size_t k = 0; k < x->nm; k++)
        printf("%11llu  %13.4f  %8.4f  %12.4f  %16llu  %11.4f\n", (unsigned long long)x->marks[k],
               x->sum[k] / (double)a->seeds, sd_of(x->sum[k], x->sq[k], a->seeds), x->minf[k],
               (unsigned long long)x->at_opt[k], x->rsum[k] / (double)a->seeds);
    printf("seed %llu: %llu evaluated, %llu failed, %llu invalid and %llu repeated proposals skipped, stopped: %s\n",
           (unsigned long long)a->seed, (unsigned long long)first->evaluated, (unsigned long long)first->failed,
           (unsigned long long)first->invalid, (unsigned long long)first->duplicates, first->stop);
    if (isfinite(first->best_s))
        printf("seed %llu best: %.6g %s  %s\n", (unsigned long long)a->seed, vkat_replay_value(tab, first->best_s),
               unit, first->config);
}

int vkat_cmd_replay(int argc, char **argv)
{
    replay_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0)
        return code;
    vkat_error err = {0};
    vkat_replay_table *t = NULL;
    vkat_replay_load_desc ld = {a.kernel, a.objective, a.higher_is_better};
    if (vkat_replay_open(a.table_path, &ld, &t, &err) != VKAT_OK)
        return vkat_cli_report(&err);
    if (vkat_replay_constrain(t, a.constraints, &err) != VKAT_OK) {
        vkat_replay_free(t);
        return vkat_cli_report(&err);
    }
    vkat_replay_info info;
    vkat_replay_describe(t, &info);
    replay_totals x;
    code = run_seeds(&a, t, &info, &x);
    if (code == VKAT_EXIT_OK && a.json)
        print_json(&a, t, &info, &x);
    else if (code == VKAT_EXIT_OK)
        print_text(&a, t, &info, &x);
    vkat_replay_free(t);
    return code;
}
