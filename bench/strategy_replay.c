/* strategy_replay.c — the strategy benchmark: every adaptive strategy and random sampling, replayed on recorded
 * tables (Kernel Tuner cache files, vkautotune results databases) over many seeds, through the same driver as a
 * live run. Prints the mean fraction of the optimum (best time in the table / best time found) after 25 .. 800
 * unique evaluations, its spread over the seeds (standard deviation) and its difference from random sampling at the
 * same budget, and writes it as a markdown table (strategies.md) and a plot (strategies.svg). Configurations absent
 * from a table are charged one evaluation each (--missing charged, the default: the published benchmark's counting)
 * or ruled out free (--missing free, as a constraint check in a live run); every output says which.
 *
 * With --trace, every evaluation of every seed is also written to OUT/trace-TABLE-STRATEGY.csv (seed, evaluation,
 * who proposed it: a member of auto, else the strategy; whether it failed, a missing configuration counting as
 * failed; the fraction of the optimum found so far), which bench/trace_summary.py sums up: where a strategy's
 * evaluations go, by member and by stretch of the budget.
 *
 * With --constraints FILE, the tables after it (up to the next --constraints; `none` ends it) get their kernel's
 * constraints from FILE, a space file (bench/replay_constraints/): configurations that break them are ruled out
 * free, as in a live run, those that pass and are missing stay charged. Every output names the file and the raw,
 * constraint-valid and table counts.
 *
 * With --known-after N (missing charged only), the search is given the table as its validity oracle once it has
 * spent N evaluations: a diagnostic ceiling, the most that any validity model learned from the first N
 * evaluations could bring (none beats knowing the answer). Every output says so.
 *
 * usage: strategy_replay [--seeds N] [--threads N] [--out DIR] [--missing charged|free] [--known-after N]
 *                        [--strategies a,b] [--trace] [--constraints FILE|none] TABLE...
 * A benchmark, never a test: it asserts nothing. */
#include "replay.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const uint64_t marks[] = {25, 50, 100, 200, 400, 800};
#define NMARKS (sizeof marks / sizeof *marks)
static const char *const strategies[] = {"auto", "annealing", "genetic", "local", "de", "model", "forest", "gp", "random"};
#define NSTRAT (sizeof strategies / sizeof *strategies)
#define MAX_TABLES 32

typedef struct job {
    const vkat_replay_table *table;
    size_t strategy;
    uint64_t seeds;
    double mean[NMARKS], sd[NMARKS]; /* over the seeds */
    int failed;
} job;

static int charge_missing = 1;
static uint64_t known_after; /* --known-after: 0 = off */
static const char *trace_dir; /* --trace: the --out folder */

/* One seed's trace rows: best-so-far is the trace's own, from the evaluations it is shown. */
typedef struct trace_file {
    FILE *f;
    uint64_t seed;
    double table_best, best;
} trace_file;

static void trace_row(void *user, uint64_t evaluation, const uint32_t *choice, double seconds, const char *origin)
{
    (void)choice;
    trace_file *t = user;
    if (seconds < t->best)
        t->best = seconds;
    fprintf(t->f, "%llu,%llu,%s,%d,%.6f\n", (unsigned long long)t->seed, (unsigned long long)evaluation, origin,
            !isfinite(seconds), isfinite(t->best) ? t->table_best / t->best : 0.0);
}

/* "constraints FILE: C of R raw configurations pass, holding T of the table's entries (O break them)", or "no
 * constraints", into buf. */
static const char *constraints_line(const vkat_replay_table *t, char *buf, size_t size)
{
    if (!t->constraints_path)
        snprintf(buf, size, "no constraints");
    else
        snprintf(buf, size, "constraints %s: %llu of %llu raw configurations pass, holding %llu of the table's entries "
                 "(%llu timed, %llu failed; %llu break them)",
                 t->constraints_path, (unsigned long long)t->constraint_valid, (unsigned long long)t->raw_count,
                 (unsigned long long)(t->constrained_valid + t->constrained_failed),
                 (unsigned long long)t->constrained_valid, (unsigned long long)t->constrained_failed,
                 (unsigned long long)t->constraint_outside);
    return buf;
}

/* OUT/trace-TABLE-STRATEGY.csv, its header written; NULL (and a message) when it cannot be opened. */
static FILE *trace_open(const job *b)
{
    char path[4096];
    const char *base = strrchr(b->table->label, '/');
    snprintf(path, sizeof path, "%s/trace-%s-%s.csv", trace_dir, base ? base + 1 : b->table->label,
             strategies[b->strategy]);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "strategy_replay: cannot write %s\n", path);
    else {
        char line[1024];
        fprintf(f, "# %s\n", constraints_line(b->table, line, sizeof line));
        fprintf(f, "seed,evaluation,origin,failed,fraction\n");
    }
    return f;
}

static job *jobs;
static size_t job_count, next_job;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        size_t j = next_job++;
        pthread_mutex_unlock(&lock);
        if (j >= job_count)
            return NULL;
        job *b = &jobs[j];
        if (!b->seeds)
            continue; /* not asked for */
        trace_file tf = {trace_dir ? trace_open(b) : NULL, 0, b->table->best_s, INFINITY};
        if (trace_dir && !tf.f) {
            b->failed = 1;
            continue;
        }
        for (uint64_t s = 0; s < b->seeds; s++) {
            vkat_replay_opts o = {strategies[b->strategy], s, marks[NMARKS - 1], 1, charge_missing, NULL, NULL,
                                  known_after};
            if (tf.f) {
                o.trace = trace_row;
                o.trace_user = &tf;
                tf.seed = s;
                tf.best = INFINITY;
            }
            double best_at[NMARKS];
            vkat_error err = {0};
            if (vkat_replay_run(b->table, &o, marks, NMARKS, best_at, NULL, &err) != VKAT_OK) {
                b->failed = 1;
                break;
            }
            for (size_t k = 0; k < NMARKS; k++) {
                double f = isfinite(best_at[k]) ? b->table->best_s / best_at[k] : 0;
                b->mean[k] += f;
                b->sd[k] += f * f;
            }
        }
        if (tf.f)
            fclose(tf.f);
        for (size_t k = 0; k < NMARKS; k++) {
            b->mean[k] /= (double)b->seeds;
            b->sd[k] = sqrt(fmax(0, b->sd[k] / (double)b->seeds - b->mean[k] * b->mean[k]));
        }
    }
}

/* ---- the plot: one panel per table and one for the mean, a polyline per strategy ---------------------------- */

static const char *const colours[NSTRAT] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#ff7f0e",
                                            "#17becf", "#e377c2", "#7f7f7f"};

static void panel(FILE *f, double x0, double y0, double w, double h, const char *title, double curves[][NMARKS])
{
    double lo = 1;
    for (size_t s = 0; s < NSTRAT; s++)
        for (size_t k = 0; k < NMARKS && curves[s][NMARKS - 1] > 0; k++) /* all zero: not run (--strategies) */
            lo = fmin(lo, curves[s][k]);
    lo = floor(lo * 20) / 20; /* y axis from the lowest value rounded down to 0.05, up to 1 */
    if (lo > 0.95)
        lo = 0.95;
    fprintf(f, "<g font-family=\"sans-serif\" font-size=\"11\">\n");
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\">%s</text>\n", x0 + w / 2, y0 - 8,
            title);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#000\"/>\n", x0, y0,
            w, h);
    for (double v = lo; v <= 1.0001; v += 0.05) {
        double y = y0 + h - (v - lo) / (1 - lo) * h;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, y, x0 + w, y);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", x0 - 4, y + 4, v);
    }
    for (size_t k = 0; k < NMARKS; k++) {
        double x = x0 + (double)k / (NMARKS - 1) * w;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>\n", x, y0 + h + 14,
                (unsigned long long)marks[k]);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">unique evaluations</text>\n", x0 + w / 2,
            y0 + h + 30);
    for (size_t s = 0; s < NSTRAT; s++) {
        if (!(curves[s][NMARKS - 1] > 0))
            continue;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" points=\"", colours[s],
                s == 0 ? "2.5" : "1.5");
        for (size_t k = 0; k < NMARKS; k++)
            fprintf(f, "%.1f,%.1f ", x0 + (double)k / (NMARKS - 1) * w,
                    y0 + h - (fmax(curves[s][k], lo) - lo) / (1 - lo) * h);
        fprintf(f, "\"/>\n");
    }
    fprintf(f, "</g>\n");
}

static int usage(void)
{
    fprintf(stderr, "usage: strategy_replay [--seeds N] [--threads N] [--out DIR] [--missing charged|free] "
                    "[--known-after N] [--strategies a,b] [--trace] [--constraints FILE|none] TABLE...\n");
    return 2;
}

int main(int argc, char **argv)
{
    uint64_t seeds = 50;
    unsigned threads = 2;
    const char *out = "records";
    const char *only = NULL; /* comma list of strategies; random always runs, as the yardstick */
    const char *paths[MAX_TABLES], *constraints[MAX_TABLES], *current = NULL;
    size_t nt = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            seeds = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--missing") && i + 1 < argc && (!strcmp(argv[i + 1], "charged") ||
                                                                    !strcmp(argv[i + 1], "free")))
            charge_missing = !strcmp(argv[++i], "charged");
        else if (!strcmp(argv[i], "--known-after") && i + 1 < argc)
            known_after = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--strategies") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--trace"))
            trace_dir = "";
        else if (!strcmp(argv[i], "--constraints") && i + 1 < argc)
            current = strcmp(argv[++i], "none") ? argv[i] : NULL;
        else if (argv[i][0] != '-' && nt < MAX_TABLES) {
            constraints[nt] = current;
            paths[nt++] = argv[i];
        } else
            return usage();
    }
    if (trace_dir)
        trace_dir = out; /* beside strategies.md */
    if (known_after && !charge_missing) {
        fprintf(stderr, "strategy_replay: --known-after needs --missing charged (free counting knows them from the "
                        "start)\n");
        return 2;
    }
    if (!nt || !seeds || !threads) {
        return usage();
    }
    vkat_replay_table *tables[MAX_TABLES];
    for (size_t t = 0; t < nt; t++) {
        vkat_error err = {0};
        char buf[2048];
        if (vkat_replay_load(paths[t], NULL, &tables[t], &err) != VKAT_OK ||
            vkat_replay_constrain(tables[t], constraints[t], &err) != VKAT_OK) {
            fprintf(stderr, "strategy_replay: %s\n", vkat_error_format(&err, buf, sizeof buf));
            return 1;
        }
    }
    job_count = nt * NSTRAT;
    jobs = calloc(job_count, sizeof *jobs);
    if (!jobs)
        return 1;
    /* The slowest jobs (the model, the bandit) first, so the threads finish together. */
    int run[NSTRAT];
    for (size_t s = 0; s < NSTRAT; s++) {
        size_t len = strlen(strategies[s]);
        const char *at = only ? strstr(only, strategies[s]) : NULL;
        while (at && !((at == only || at[-1] == ',') && (at[len] == ',' || at[len] == 0)))
            at = strstr(at + 1, strategies[s]);
        run[s] = !only || at || !strcmp(strategies[s], "random");
    }
    for (size_t t = 0; t < nt; t++)
        for (size_t s = 0; s < NSTRAT; s++)
            jobs[t * NSTRAT + s] = (job){tables[t], s, run[s] ? seeds : 0, {0}, {0}, 0};
    double start = (double)clock();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_t tid[64];
    if (threads > 64)
        threads = 64;
    for (unsigned i = 0; i < threads; i++)
        pthread_create(&tid[i], NULL, worker, NULL);
    for (unsigned i = 0; i < threads; i++)
        pthread_join(tid[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    (void)start;
    double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;

    /* curves[t][s][k]; the last "table" is the mean over tables. spread: the standard deviation over seeds (for the
     * mean over tables, of the per-seed mean over tables: seed i of every table is one trial). */
    double(*curves)[NSTRAT][NMARKS] = calloc(nt + 1, sizeof *curves);
    double(*spread)[NSTRAT][NMARKS] = calloc(nt + 1, sizeof *spread);
    if (!curves || !spread)
        return 1;
    size_t random_index = 0;
    for (size_t s = 0; s < NSTRAT; s++)
        if (!strcmp(strategies[s], "random"))
            random_index = s;
    for (size_t t = 0; t < nt; t++)
        for (size_t s = 0; s < NSTRAT; s++) {
            if (jobs[t * NSTRAT + s].failed) {
                fprintf(stderr, "strategy_replay: %s failed on %s\n", strategies[s], tables[t]->label);
                return 1;
            }
            for (size_t k = 0; k < NMARKS; k++) {
                curves[t][s][k] = jobs[t * NSTRAT + s].mean[k];
                spread[t][s][k] = jobs[t * NSTRAT + s].sd[k];
                curves[nt][s][k] += jobs[t * NSTRAT + s].mean[k] / (double)nt;
                /* Seeds of different tables are independent: the variance of the mean is the mean variance / nt. */
                spread[nt][s][k] += jobs[t * NSTRAT + s].sd[k] * jobs[t * NSTRAT + s].sd[k] / ((double)nt * nt);
            }
        }
    for (size_t s = 0; s < NSTRAT; s++)
        for (size_t k = 0; k < NMARKS; k++)
            spread[nt][s][k] = sqrt(spread[nt][s][k]);

    char path[4096];
    snprintf(path, sizeof path, "%s/strategies.md", out);
    FILE *md = fopen(path, "w");
    if (!md) {
        fprintf(stderr, "strategy_replay: cannot write %s\n", path);
        return 1;
    }
    char known[256];
    snprintf(known, sizeof known,
             "charged one evaluation each until %llu evaluations, then known to the search (a perfect validity "
             "oracle from there on: a diagnostic ceiling, not a strategy)",
             (unsigned long long)known_after);
    const char *missing = !charge_missing ? "ruled out free (as a constraint check in a live run)"
                          : known_after   ? known
                                          : "charged one evaluation each (the published benchmark's counting)";
    int constrained = 0;
    for (size_t t = 0; t < nt; t++)
        constrained |= tables[t]->constraints_path != NULL;
    char with[512];
    snprintf(with, sizeof with, "%s%s", missing,
             constrained ? "; configurations that break a table's constraints are ruled out free, as in a live run"
                         : "");
    missing = with;
    printf("missing configurations %s\n", missing);
    fprintf(md, "Mean fraction of the optimum (best time in the table / best time found) after N unique evaluations, "
                "over %llu seeds (0..%llu), window 1; configurations missing from a table %s. Each cell: mean, "
                "standard deviation over the seeds (of a table; for the mean over tables, of that mean), and the "
                "difference from random sampling's mean at the same budget.\n\n",
            (unsigned long long)seeds, (unsigned long long)seeds - 1, missing);
    for (size_t t = 0; t < nt; t++) {
        char line[1024];
        printf("%s: %s\n", tables[t]->label, constraints_line(tables[t], line, sizeof line));
        fprintf(md, "%s- %s: %s\n%s", t ? "" : "Constraints (a configuration that breaks them is ruled out free, as in "
                                               "a live run):\n\n", tables[t]->label, line, t + 1 == nt ? "\n" : "");
    }
    for (size_t t = 0; t <= nt; t++) {
        char title[512];
        if (t < nt)
            snprintf(title, sizeof title, "%s (%llu valid of %llu)", tables[t]->label,
                     (unsigned long long)tables[t]->valid, (unsigned long long)tables[t]->raw_count);
        else
            snprintf(title, sizeof title, "mean over the %zu tables", nt);
        printf("\n%s\n%-10s", title, "strategy");
        fprintf(md, "| %s |", title);
        for (size_t k = 0; k < NMARKS; k++) {
            printf(" %7llu", (unsigned long long)marks[k]);
            fprintf(md, " %llu |", (unsigned long long)marks[k]);
        }
        printf("\n");
        fprintf(md, "\n|---|");
        for (size_t k = 0; k < NMARKS; k++)
            fprintf(md, "---|");
        fprintf(md, "\n");
        for (size_t s = 0; s < NSTRAT; s++) {
            if (!run[s])
                continue;
            printf("%-10s", strategies[s]);
            fprintf(md, "| %s |", strategies[s]);
            for (size_t k = 0; k < NMARKS; k++) {
                printf(" %7.4f", curves[t][s][k]);
                fprintf(md, " %.4f ± %.4f (%+.3f) |", curves[t][s][k], spread[t][s][k],
                        curves[t][s][k] - curves[t][random_index][k]);
            }
            printf("\n");
            fprintf(md, "\n");
        }
        fprintf(md, "\n");
    }
    fclose(md);
    printf("\n%zu tables x %zu strategies x %llu seeds in %.1f s; wrote %s/strategies.md and %s/strategies.svg\n", nt,
           NSTRAT, (unsigned long long)seeds, wall, out, out);

    snprintf(path, sizeof path, "%s/strategies.svg", out);
    FILE *svg = fopen(path, "w");
    if (!svg) {
        fprintf(stderr, "strategy_replay: cannot write %s\n", path);
        return 1;
    }
    const double pw = 300, ph = 200, mx = 70, my = 50, gapx = 60, gapy = 80;
    size_t cols = 3, rows = (nt + 1 + cols - 1) / cols;
    double W = mx + cols * (pw + gapx) + 110, H = my + rows * (ph + gapy);
    fprintf(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
            W, H, W, H);
    fprintf(svg, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
    fprintf(svg, "<text x=\"%.0f\" y=\"22\" font-family=\"sans-serif\" font-size=\"15\">Fraction of the optimum found "
                 "by replayed strategies (mean over %llu seeds)</text>\n",
            mx, (unsigned long long)seeds);
    for (size_t t = 0; t <= nt; t++) {
        size_t slot = t == nt ? 0 : t + 1; /* the mean first */
        char title[512];
        snprintf(title, sizeof title, "%s", t < nt ? tables[t]->label : "mean over tables");
        panel(svg, mx + (double)(slot % cols) * (pw + gapx), my + 10 + (double)(slot / cols) * (ph + gapy), pw, ph,
              title, curves[t]);
    }
    for (size_t s = 0; s < NSTRAT; s++) {
        double y = my + 20 + (double)s * 18, x = mx + cols * (pw + gapx) - 20;
        fprintf(svg, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" stroke-width=\"2.5\"/>\n", x,
                y, x + 24, y, colours[s]);
        fprintf(svg, "<text x=\"%.0f\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"12\">%s</text>\n", x + 30,
                y + 4, strategies[s]);
    }
    fprintf(svg, "</svg>\n");
    fclose(svg);
    for (size_t t = 0; t < nt; t++)
        vkat_replay_free(tables[t]);
    free(curves);
    free(spread);
    free(jobs);
    return 0;
}
