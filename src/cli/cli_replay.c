/* cli_replay.c — `vkautotune replay TABLE`: runs a search strategy against a recorded table (a Kernel Tuner cache
 * file or a vkautotune results database) instead of a GPU, over one or more seeds, and prints the fraction of the
 * optimum (best time in the table / best time found) after each budget. Output is deterministic for the seeds. */
#include "cli.h"
#include "replay.h"

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
            "  --json            machine-readable output on stdout\n"
            "  -h, --help        this text\n");
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

int vkat_cmd_replay(int argc, char **argv)
{
    const char *table_path = NULL, *strategy = "auto", *kernel = NULL, *missing = "free";
    uint64_t budget = 400, seed = 0, seeds = 1, window = 1;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t *num = NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (!strcmp(o, "--json")) {
            json = 1;
            continue;
        } else if (!strcmp(o, "--strategy") || !strcmp(o, "--kernel") || !strcmp(o, "--missing")) {
            if (!v) {
                fprintf(stderr, "vkautotune: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            *(!strcmp(o, "--strategy") ? &strategy : !strcmp(o, "--kernel") ? &kernel : &missing) = v;
            i++;
            continue;
        } else if (!strcmp(o, "--budget")) num = &budget;
        else if (!strcmp(o, "--seed")) num = &seed;
        else if (!strcmp(o, "--seeds")) num = &seeds;
        else if (!strcmp(o, "--window")) num = &window;
        else if (o[0] == '-' && o[1]) {
            fprintf(stderr, "vkautotune: unknown option '%s' (see vkautotune replay --help)\n", o);
            return VKAT_EXIT_USAGE;
        } else if (!table_path) {
            table_path = o;
            continue;
        } else {
            fprintf(stderr, "vkautotune: unexpected argument '%s' (one table)\n", o);
            return VKAT_EXIT_USAGE;
        }
        int bad = !vkat_cli_parse_u64(v, num) || (num != &seed && (*num == 0 || *num > 100000000));
        if (bad) {
            fprintf(stderr, "vkautotune: %s '%s': expected a %s integer\n", o, v ? v : "", num == &seed ? "non-negative" : "positive");
            return VKAT_EXIT_USAGE;
        }
        i++;
    }
    if (!table_path) {
        fprintf(stderr, "vkautotune: replay needs a TABLE (see vkautotune replay --help)\n");
        return VKAT_EXIT_USAGE;
    }
    if (!vkat_strategy_find(strategy)) {
        fprintf(stderr, "vkautotune: unknown strategy '%s' (known:", strategy);
        for (int i = 0; vkat_strategies[i]; i++)
            fprintf(stderr, "%s %s", i ? "," : "", vkat_strategies[i]->name);
        fprintf(stderr, ")\n");
        return VKAT_EXIT_USAGE;
    }

    if (strcmp(missing, "free") && strcmp(missing, "charged")) {
        fprintf(stderr, "vkautotune: --missing '%s': expected free or charged\n", missing);
        return VKAT_EXIT_USAGE;
    }
    int charge = !strcmp(missing, "charged");
    vkat_error err = {0};
    vkat_replay_table *t = NULL;
    if (vkat_replay_load(table_path, kernel, &t, &err) != VKAT_OK)
        return vkat_cli_report(&err);
    /* The standard budgets up to --budget, and --budget itself. */
    static const uint64_t standard[] = {25, 50, 100, 200, 400, 800, 1600, 3200, 6400};
    uint64_t marks[16];
    size_t nm = 0;
    for (size_t k = 0; k < sizeof standard / sizeof *standard && standard[k] < budget; k++)
        marks[nm++] = standard[k];
    marks[nm++] = budget;
    double sum[16] = {0}, sq[16] = {0}, minf[16], best_at[16], rsum[16] = {0};
    uint64_t at_opt[16] = {0};
    for (size_t k = 0; k < nm; k++)
        minf[k] = 1;
    uint32_t *best_choice = calloc(t->param_count ? t->param_count : 1, sizeof *best_choice);
    double first_best = INFINITY;
    vkat_search_stats first = {0};
    int code = VKAT_EXIT_OK;
    if (!best_choice) {
        fprintf(stderr, "vkautotune: out of memory\n");
        code = VKAT_EXIT_FAILURE;
        goto done;
    }
    for (uint64_t s = 0; s < seeds; s++) {
        /* Random sampling with the same seed and budget: the yardstick. */
        vkat_replay_opts ro = {"random", seed + s, budget, (uint32_t)window, charge};
        if (vkat_replay_run(t, &ro, marks, nm, best_at, NULL, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        for (size_t k = 0; k < nm; k++)
            rsum[k] += fraction(t->best_s, best_at[k]);
        vkat_replay_opts o = {strategy, seed + s, budget, (uint32_t)window, charge};
        vkat_search_stats st = {0};
        st.best_choice = s == 0 ? best_choice : NULL;
        if (vkat_replay_run(t, &o, marks, nm, best_at, &st, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        if (s == 0) {
            first = st;
            first_best = st.best_s;
        }
        for (size_t k = 0; k < nm; k++) {
            double f = fraction(t->best_s, best_at[k]);
            sum[k] += f;
            sq[k] += f * f;
            minf[k] = fmin(minf[k], f);
            at_opt[k] += f >= 1.0;
        }
    }
    char config[2048] = "";
    if (isfinite(first_best))
        vkat_replay_format(t, best_choice, config, sizeof config);
    if (json) {
        json_object *root = json_object_new_object(), *arr = json_object_new_array();
        json_object_object_add(root, "table", json_object_new_string(t->label));
        json_object_object_add(root, "parameters", json_object_new_int64((int64_t)t->param_count));
        json_object_object_add(root, "raw", json_object_new_int64((int64_t)t->raw_count));
        json_object_object_add(root, "valid", json_object_new_int64((int64_t)t->valid));
        json_object_object_add(root, "failed", json_object_new_int64((int64_t)t->failed));
        json_object_object_add(root, "optimum_s", json_object_new_double(t->best_s));
        json_object_object_add(root, "strategy", json_object_new_string(strategy));
        json_object_object_add(root, "seed", json_object_new_int64((int64_t)seed));
        json_object_object_add(root, "seeds", json_object_new_int64((int64_t)seeds));
        json_object_object_add(root, "missing", json_object_new_string(vkat_replay_missing_name(charge)));
        for (size_t k = 0; k < nm; k++) {
            json_object *b = json_object_new_object();
            json_object_object_add(b, "evaluations", json_object_new_int64((int64_t)marks[k]));
            json_object_object_add(b, "mean_fraction", json_object_new_double(sum[k] / (double)seeds));
            json_object_object_add(b, "sd_fraction", json_object_new_double(sd_of(sum[k], sq[k], seeds)));
            json_object_object_add(b, "min_fraction", json_object_new_double(minf[k]));
            json_object_object_add(b, "random_mean_fraction", json_object_new_double(rsum[k] / (double)seeds));
            json_object_object_add(b, "seeds_at_optimum", json_object_new_int64((int64_t)at_opt[k]));
            json_object_array_add(arr, b);
        }
        json_object_object_add(root, "budgets", arr);
        json_object *f = json_object_new_object();
        json_object_object_add(f, "best_s", isfinite(first_best) ? json_object_new_double(first_best) : NULL);
        json_object_object_add(f, "config", json_object_new_string(config));
        json_object_object_add(f, "proposed", json_object_new_int64((int64_t)first.proposed));
        json_object_object_add(f, "invalid", json_object_new_int64((int64_t)first.invalid));
        json_object_object_add(f, "duplicates", json_object_new_int64((int64_t)first.duplicates));
        json_object_object_add(f, "evaluated", json_object_new_int64((int64_t)first.evaluated));
        json_object_object_add(f, "failed", json_object_new_int64((int64_t)first.failed));
        json_object_object_add(f, "stop", json_object_new_string(vkat_search_stop_name(first.stop)));
        json_object_object_add(root, "first_seed", f);
        printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(root);
        goto done;
    }
    printf("table %s: %zu parameters, %llu raw, %llu valid, %llu failed, optimum %.6g ms\n", t->label, t->param_count,
           (unsigned long long)t->raw_count, (unsigned long long)t->valid, (unsigned long long)t->failed,
           t->best_s * 1e3);
    printf("strategy %s, %llu seed%s from %llu, window %llu\n", strategy, (unsigned long long)seeds,
           seeds == 1 ? "" : "s", (unsigned long long)seed, (unsigned long long)window);
    printf("missing configurations: %s\n",
           charge ? "charged, one evaluation each (the published benchmark's counting)"
                  : "free, ruled out without an evaluation (as constraints are in a live run)");
    printf("%11s  %13s  %8s  %12s  %16s  %11s\n", "evaluations", "mean fraction", "sd", "min fraction",
           "seeds at optimum", "random mean");
    for (size_t k = 0; k < nm; k++)
        printf("%11llu  %13.4f  %8.4f  %12.4f  %16llu  %11.4f\n", (unsigned long long)marks[k], sum[k] / (double)seeds,
               sd_of(sum[k], sq[k], seeds), minf[k], (unsigned long long)at_opt[k], rsum[k] / (double)seeds);
    printf("seed %llu: %llu evaluated, %llu failed, %llu invalid and %llu repeated proposals skipped, stopped: %s\n",
           (unsigned long long)seed, (unsigned long long)first.evaluated, (unsigned long long)first.failed,
           (unsigned long long)first.invalid, (unsigned long long)first.duplicates, vkat_search_stop_name(first.stop));
    if (isfinite(first_best))
        printf("seed %llu best: %.6g ms  %s\n", (unsigned long long)seed, first_best * 1e3, config);

done:
    free(best_choice);
    vkat_replay_free(t);
    return code;
}
