/* cli_report.c — `vkautotune report --db DB -o report.html [--kernel NAME] [--problem P] [--param NAME]
 * [--param2 NAME] [--title TEXT]`: the library's report of a results database (vkat_report_write_file). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune report --db DB -o report.html [options]\n"
               "\n"
               "Writes one self-contained HTML file (inline SVG, no script, nothing fetched when viewed): the device\n"
               "table with measured peaks and, per kernel, the devices side by side, bars of each device's best\n"
               "variants, every measured variant against a parameter, a heat map of two parameters per device and\n"
               "the portability matrix (see vkautotune compare --help).\n"
               "\n"
               "options:\n"
               "  --db PATH          the results database (required)\n"
               "  -o, --output PATH  the HTML file to write (required)\n"
               "  --kernel NAME      only this kernel\n"
               "  --problem K=V,...  only series of this problem\n"
               "  --param NAME       x axis of the scatter plot and heat map (default: each kernel's first)\n"
               "  --param2 NAME      y axis of the heat map (default: the next parameter)\n"
               "  --title TEXT       the report's title\n"
               "  -q, --quiet        no info messages\n");
}

int vkat_cmd_report(int argc, char **argv)
{
    const char *db = NULL, *out = NULL, *kernel = NULL, *problem = NULL;
    vkat_report_opts o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = !strcmp(a, "--db")                               ? &db
                            : !strcmp(a, "-o") || !strcmp(a, "--output")     ? &out
                            : !strcmp(a, "--kernel")                         ? &kernel
                            : !strcmp(a, "--problem")                        ? &problem
                            : !strcmp(a, "--param")                          ? &o.param
                            : !strcmp(a, "--param2")                         ? &o.param2
                            : !strcmp(a, "--title")                          ? &o.title
                                                                             : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            vkat_cli_setup_log(0, 1);
        } else if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "vkautotune: %s needs a value\n", a);
                return VKAT_EXIT_USAGE;
            }
            *slot = argv[++i];
        } else {
            fprintf(stderr, "vkautotune: report: unexpected argument '%s' (see vkautotune report --help)\n", a);
            return VKAT_EXIT_USAGE;
        }
    }
    if (!db || !out) {
        fprintf(stderr, "vkautotune: report: --db and -o are required (see vkautotune report --help)\n");
        return VKAT_EXIT_USAGE;
    }
    if (!vkat_cli_database_exists(db, NULL))
        return VKAT_EXIT_INPUT;
    vkat_error err = {0};
    vkat_store *st = NULL;
    size_t nc = 0, np = 0;
    int code = VKAT_EXIT_OK;
    o.source = db;
    if (vkat_store_open_readonly(db, &st, &err) ||
        vkat_report_write_file(st, out, kernel, problem, &o, &nc, &np, &err)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (nc == 0) {
        fprintf(stderr, "vkautotune: %s: no results to report%s%s\n", db, kernel ? " for kernel " : "",
                kernel ? kernel : "");
        code = VKAT_EXIT_FAILURE;
        goto done;
    }
    vkat_cli_log(VKAT_LOG_INFO, "wrote %s (%zu kernel(s), %zu device(s) with peaks)", out, nc, np);
done:
    vkat_store_close(st);
    return code;
}
