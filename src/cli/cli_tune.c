/* cli_tune.c — the main job: `vkautotune [TEMPLATE] --space SPACE [options]`.
 * Picks the devices, runs the library's tuning run on them (which groups identical GPUs into one search and runs
 * each group on its own thread), shows progress on stderr when it is a terminal, prints each group's output in
 * device order and exports the winners with --export; under the watchdog when it is on. The parts are the files
 * cli_tune.h lists. Built on the public header alone. */
#include "cli_tune.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- Progress ------------------------------------------------------------------------------------------------ */

typedef struct progress_ctx {
    int enabled; /* one live progress line per terminal: only when one search runs */
} progress_ctx;

static void show_progress(void *user, const vkat_device_info *device, const vkat_tune_progress *p)
{
    progress_ctx *c = user;
    vkat_cli_watchdog_heartbeat(p->evaluated > p->resumed);
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

/* ---- The command ------------------------------------------------------------------------------------------------- */

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
    a->d.stop = vkat_cli_stop_flag();
    a->d.claim = vkat_cli_watchdog_claim();
    a->d.progress = show_progress;
    a->d.progress_user = &pc;
    a->d.stage = vkat_cli_watchdog_stage;
    if (vkat_tune_run_create(&a->d, &run, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    pc.enabled = vkat_tune_run_group_count(run) == 1 && !a->quiet && isatty(2);
    if (vkat_cli_stop_signal()) { /* before anything was measured */
        code = vkat_cli_stop_exit_code();
        goto done;
    }
    if (vkat_tune_run_execute(run, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    code = vkat_cli_tune_print_groups(a, run, out);
    if (vkat_cli_stop_signal()) {
        /* Whatever else happened (a search that ended before it saw the flag, a device that failed), a stop signal
         * ends the run with its code, and --export is not run on a partial result. */
        code = vkat_cli_stop_exit_code();
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
            vkat_cli_tune_usage(stdout);
            return VKAT_EXIT_OK;
        }
    if (!vkat_cli_tune_parse_args(argc, argv, &a))
        return VKAT_EXIT_USAGE;
    vkat_cli_setup_log(a.verbose, a.quiet || a.json || a.csv);
    if (!a.dry_run && a.watchdog > 0) {
        int code = vkat_cli_watchdog_supervise(&a);
        if (code >= 0)
            return code; /* the watchdog's own exit: the child's code or why it gave up */
    } else if (!a.dry_run) {
        vkat_cli_stop_install();
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
        code = a.dry_run ? vkat_cli_tune_dry_run(&a, space) : tune_command(&a, out);
    if (out) {
        printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(out);
    }
    vkat_space_destroy(space);
    return code;
}
