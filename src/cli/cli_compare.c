/* cli_compare.c — `vkautotune compare` (devices side by side from a results database) and `vkautotune merge`
 * (databases from several machines into one). The grouping and the portability matrix are compare.c's; this
 * file formats them and owns the options. */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- compare ------------------------------------------------------------------------------------------------- */

static void compare_usage(FILE *f)
{
    fprintf(f,
            "usage: vkautotune compare --db DB [--kernel NAME] [--problem K=V,...] [--include-transfers --space SPACE]\n"
            "\n"
            "Devices side by side from a results database, one table per kernel: each device's best variant, its\n"
            "time, TFLOP/s, GB/s and fraction of the device's measured peak (`vkautotune peaks`; roofline:\n"
            "max(flops / fp32 peak, bytes / memory peak) / time), and the winner's parameters. Then the\n"
            "portability matrix: each device's winner as measured on every other device, as a fraction of that\n"
            "device's own best ('-': not measured there; 'fail': measured and failed; '<=0.62': raced out there,\n"
            "so at most that fraction).\n"
            "Devices may have tuned different problem sizes (a CPU device takes the space's [problem.cpu]); the\n"
            "comparison is then by kernel, each device with its own problem, and says so.\n"
            "\n"
            "options:\n"
            "  --db PATH             the results database (required; `vkautotune merge` combines several)\n"
            "  --kernel NAME         only this kernel\n"
            "  --problem K=V,...     only series of this problem, written as stored (e.g. M=256,N=256,K=256)\n"
            "  --include-transfers   add the space's input and output transfers at the measured link bandwidth\n"
            "  --space PATH          the space whose buffers are transferred (with --include-transfers)\n");
}

/* Names come from the database: escaped (cli_escape.c), so that none can drive the terminal or forge a row. */
static void print_cell(const char *s, int width)
{
    char safe[1024];
    printf("  %-*.*s", width, width, vkat_cli_printable(s, safe, sizeof safe));
}

static int printable_length(const char *s)
{
    char safe[1024];
    return (int)strlen(vkat_cli_printable(s, safe, sizeof safe));
}

static void print_comparison(const vkat_comparison *c, vkat_space *space, int transfers)
{
    size_t nd = c->device_count;
    char safe[1024];
    printf("kernel %s: %zu device(s)\n", vkat_cli_printable(c->kernel, safe, sizeof safe), nd);
    if (!c->same_problem)
        printf("note: the devices tuned different problem sizes (a CPU device takes the space's [problem.cpu]):\n"
               "      times and TFLOP/s are not comparable across columns; fractions of peak and portability are\n");
    if (!c->same_template)
        printf("note: the template or space differs between devices (different hashes)\n");
    int width = 20, label = 22;
    for (size_t i = 0; i < nd; i++) {
        int l = printable_length(c->devices[i].rows[0].config), m = printable_length(c->devices[i].device.name);
        if (l > width)
            width = l;
        if (m > width)
            width = m;
    }
    char buf[600];
#define ROW(name, ...)                                                                                           \
    do {                                                                                                         \
        printf("%-*s", label, name);                                                                             \
        for (size_t i = 0; i < nd; i++) {                                                                        \
            const vkat_cmp_device *d = &c->devices[i];                                                           \
            const vkat_row *w = d->ok_count ? &d->rows[0] : NULL;                                                \
            (void)w;                                                                                             \
            snprintf(buf, sizeof buf, __VA_ARGS__);                                                              \
            print_cell(buf, width);                                                                              \
        }                                                                                                        \
        printf("\n");                                                                                            \
    } while (0)
    ROW("device", "%s", d->device.name);
    ROW("driver", "%s %s", d->device.vendor, d->device.driver_version_string);
    ROW("problem", "%s", d->problem);
    ROW("variants ok / stored", "%zu / %zu%s", d->ok_count, d->count, d->other_series ? " (+ other series)" : "");
    size_t any_raced = 0;
    for (size_t i = 0; i < nd; i++)
        any_raced += c->devices[i].raced_count;
    if (any_raced) /* stored, checked, but cut after a few samples (racing): never a winner */
        ROW("of them raced out", "%zu", d->raced_count);
    ROW("best median ms", "%s", w ? (snprintf(buf + 300, 64, "%.4f", w->median_s * 1e3), buf + 300) : "-");
    ROW("TFLOP/s", "%s", w && w->flops > 0 ? (snprintf(buf + 300, 64, "%.4g", w->tflops), buf + 300) : "-");
    ROW("GB/s", "%s", w && w->bytes > 0 ? (snprintf(buf + 300, 64, "%.4g", w->gbps), buf + 300) : "-");
    ROW("fraction of peak", "%s",
        w && d->has_peaks && !isnan(vkat_peaks_fraction(&d->peaks, w))
            ? (snprintf(buf + 300, 64, "%.1f%%", 100 * vkat_peaks_fraction(&d->peaks, w)), buf + 300)
            : (d->has_peaks ? "-" : "- (no peaks)"));
    ROW("winner", "%s", w ? w->config : "no correct variant");
    if (transfers && space) {
        for (size_t i = 0; i < nd; i++) {
            const vkat_cmp_device *d = &c->devices[i];
            double in = 0, out = 0, t = NAN;
            vkat_error err = {0};
            if (vkat_space_transfer_bytes(space, d->problem, &in, &out, &err) == VKAT_OK && d->has_peaks)
                t = vkat_peaks_transfer_s(&d->peaks, in, out);
            if (i == 0)
                printf("%-*s", label, "+ transfers ms");
            if (isnan(t) || !d->ok_count)
                snprintf(buf, sizeof buf, "-");
            else
                snprintf(buf, sizeof buf, "%.4f (%.0f%% link%s)", (d->rows[0].median_s + t) * 1e3,
                         100 * t / (d->rows[0].median_s + t), t > d->rows[0].median_s ? ", link dominates" : "");
            print_cell(buf, width);
        }
        printf("\n");
    }
#undef ROW
    for (size_t i = 0; i < nd; i++)
        if (!c->devices[i].has_peaks) {
            printf("(no peaks: the database has no measured peaks for %s; `vkautotune peaks --db DB` on its "
                   "machine measures them, `vkautotune merge` brings them here)\n",
                   vkat_cli_printable(c->devices[i].device.name, safe, sizeof safe));
        }
    printf("\nportability: the row device's winner measured on the column device, as a fraction of the column\n"
           "device's own best (1.00 = as fast as its own winner)\n");
    printf("%-*s", label, "winner of \\ run on");
    for (size_t j = 0; j < nd; j++)
        print_cell(c->devices[j].device.name, width);
    printf("\n");
    for (size_t i = 0; i < nd; i++) {
        printf("%-*.*s", label, label, vkat_cli_printable(c->devices[i].device.name, safe, sizeof safe));
        for (size_t j = 0; j < nd; j++) {
            int st = c->port_state[i * nd + j];
            if (st == VKAT_PORT_OK)
                snprintf(buf, sizeof buf, "%.2f", c->portability[i * nd + j]);
            else if (st == VKAT_PORT_RACED)
                snprintf(buf, sizeof buf, "<=%.2f", c->portability[i * nd + j]);
            else
                snprintf(buf, sizeof buf, "%s", st == VKAT_PORT_FAILED ? "fail" : "-");
            print_cell(buf, width);
        }
        printf("\n");
    }
}

int vkat_cmd_compare(int argc, char **argv)
{
    const char *db = NULL, *kernel = NULL, *problem = NULL, *space_path = NULL;
    int transfers = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char **slot = !strcmp(o, "--db")        ? &db
                            : !strcmp(o, "--kernel")  ? &kernel
                            : !strcmp(o, "--problem") ? &problem
                            : !strcmp(o, "--space")   ? &space_path
                                                      : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            compare_usage(stdout);
            return VKAT_EXIT_OK;
        } else if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "vkautotune: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            *slot = argv[++i];
        } else if (!strcmp(o, "--include-transfers")) {
            transfers = 1;
        } else {
            fprintf(stderr, "vkautotune: compare: unexpected argument '%s' (see vkautotune compare --help)\n", o);
            return VKAT_EXIT_USAGE;
        }
    }
    if (!db) {
        fprintf(stderr, "vkautotune: compare: --db is required (see vkautotune compare --help)\n");
        return VKAT_EXIT_USAGE;
    }
    if (transfers && !space_path) {
        fprintf(stderr, "vkautotune: compare: --include-transfers needs --space (the buffers to transfer)\n");
        return VKAT_EXIT_USAGE;
    }
    if (!vkat_cli_database_exists(db, NULL))
        return VKAT_EXIT_INPUT;
    vkat_error err = {0};
    vkat_store *st = NULL;
    vkat_space *space = NULL;
    vkat_comparison *cs = NULL;
    size_t nc = 0;
    int code = VKAT_EXIT_OK;
    if ((space_path && vkat_space_load(space_path, &space, &err)) || vkat_store_open_readonly(db, &st, &err) ||
        vkat_compare_build(st, kernel, problem, &cs, &nc, &err)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (nc == 0) {
        fprintf(stderr, "vkautotune: %s: no results%s%s%s%s\n", db, kernel ? " for kernel " : "", kernel ? kernel : "",
                problem ? " with problem " : "", problem ? problem : "");
        code = VKAT_EXIT_FAILURE;
        goto done;
    }
    for (size_t k = 0; k < nc; k++) {
        if (k)
            printf("\n");
        if (space && strcmp(vkat_space_kernel_name(space), cs[k].kernel)) {
            print_comparison(&cs[k], NULL, 0);
            continue;
        }
        print_comparison(&cs[k], space, transfers);
    }
done:
    vkat_comparisons_free(cs, nc);
    vkat_space_destroy(space);
    vkat_store_close(st);
    return code;
}

/* ---- merge --------------------------------------------------------------------------------------------------- */

static void merge_usage(FILE *f)
{
    fprintf(f, "usage: vkautotune merge OUT.db IN1.db [IN2.db ...]\n"
               "\n"
               "Combines results databases from different machines into OUT.db (created when missing; its own rows\n"
               "take part). Inputs are only read. A key (device and driver, kernel, template and space hashes,\n"
               "problem, configuration) keeps one row: a correct row beats a failed one, then the later\n"
               "measurement wins, then the faster; an exact tie keeps what OUT.db had. Peaks: the later wins.\n"
               "Merging is idempotent and the result does not depend on the order of the inputs.\n");
}

int vkat_cmd_merge(int argc, char **argv)
{
    const char *paths[256];
    int n = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            merge_usage(stdout);
            return VKAT_EXIT_OK;
        }
        if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
            quiet = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "vkautotune: merge: unknown option '%s' (see vkautotune merge --help)\n", argv[i]);
            return VKAT_EXIT_USAGE;
        }
        if (n == 256) {
            fprintf(stderr, "vkautotune: merge: at most 255 inputs at once\n");
            return VKAT_EXIT_USAGE;
        }
        paths[n++] = argv[i];
    }
    if (n < 2) {
        fprintf(stderr, "vkautotune: merge: needs OUT.db and at least one input (see vkautotune merge --help)\n");
        return VKAT_EXIT_USAGE;
    }
    for (int i = 1; i < n; i++)
        if (!strcmp(paths[i], paths[0])) {
            fprintf(stderr, "vkautotune: merge: %s is both the output and an input\n", paths[0]);
            return VKAT_EXIT_USAGE;
        }
    /* Check every input first (readable, a vkautotune database), so a typo or a foreign file leaves no output, not
     * even an empty one, and no half-merged one. */
    vkat_error err = {0};
    for (int i = 1; i < n; i++) {
        if (!vkat_cli_database_exists(paths[i], NULL))
            return VKAT_EXIT_INPUT;
        vkat_store *in = NULL;
        if (vkat_store_open_readonly(paths[i], &in, &err))
            return vkat_cli_report(&err);
        vkat_store_close(in);
    }
    struct stat sb;
    int created = stat(paths[0], &sb) != 0;
    vkat_store *st = NULL;
    int code = VKAT_EXIT_OK;
    if (vkat_store_open(paths[0], &st, &err)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    for (int i = 1; i < n; i++) {
        vkat_merge_stats s = {0};
        if (vkat_store_merge(st, paths[i], &s, &err)) {
            code = vkat_cli_report(&err);
            goto done;
        }
        if (!quiet)
            printf("%s: %llu rows: %llu added, %llu replaced, %llu kept; %llu peaks: %llu added, %llu replaced, "
                   "%llu kept\n",
                   paths[i], (unsigned long long)s.read, (unsigned long long)s.added, (unsigned long long)s.replaced,
                   (unsigned long long)s.kept, (unsigned long long)s.peaks_read, (unsigned long long)s.peaks_added,
                   (unsigned long long)s.peaks_replaced, (unsigned long long)s.peaks_kept);
    }
done:
    vkat_store_close(st);
    if (code != VKAT_EXIT_OK && created) {
        /* A merge that failed part way leaves nothing where nothing was (each input's merge is one transaction,
         * so an output that existed is as it was before the failed input). */
        static const char *const suffixes[] = {"", "-wal", "-shm"};
        for (size_t k = 0; k < 3; k++) {
            char p[4096];
            snprintf(p, sizeof p, "%s%s", paths[0], suffixes[k]);
            unlink(p);
        }
    }
    return code;
}
