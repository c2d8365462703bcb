/* cli_tune.h — internal to the vkautotune program: the tune command's parts, one concern per file:
 * cli_tune_args.c (options -> tune_args), cli_tune_dry_run.c (--dry-run, and why a run found nothing valid),
 * cli_tune_output.c (the table, --json, --csv), cli_watchdog.c (the measuring child, its heartbeat, stop signals)
 * and cli_tune.c (the command: the library's tuning run, progress). */
#ifndef VKAT_CLI_TUNE_H
#define VKAT_CLI_TUNE_H

#include "cli.h"

#include <stdio.h>

#define VKAT_CLI_DEFAULT_DB "vkautotune.db"
#define VKAT_CLI_MAX_STARTS 64

typedef struct tune_args {
    vkat_tune_desc d;
    const char *device, *export_dir, *device_profile;
    int top, json, csv, dry_run, quiet, verbose, transfers, stats;
    double watchdog; /* seconds; 0: measure in this process */
    const char *starts[VKAT_CLI_MAX_STARTS]; /* --start, in order (d.starts points here) */
} tune_args;

void vkat_cli_tune_usage(FILE *f);
/* Parses the tune command's options into *a (messages printed); 0 on a usage error. */
int vkat_cli_tune_parse_args(int argc, char **argv, tune_args *a);

/* --dry-run on `space` (loaded, --problem checked): counts and prints. Returns the exit code. */
int vkat_cli_tune_dry_run(const tune_args *a, vkat_space *space);
/* A run that walked the whole space without a valid configuration: says which constraint removed the most (exit
 * 3), or that the shard holds none (not an error). Returns the exit code. */
int vkat_cli_tune_explain_empty(const vkat_space *s, const vkat_device_info *dev, const tune_args *a);

/* Prints every group's output in device order (--json: into `out`, a JSON array); returns the run's exit code. */
struct json_object;
int vkat_cli_tune_print_groups(const tune_args *a, vkat_tune_run *run, struct json_object *out);

/* The watchdog (--watchdog): forks the measuring process and watches its heartbeat. Returns -1 in the child, which
 * goes on to measure, else the run's exit code. */
int vkat_cli_watchdog_supervise(const tune_args *a);
/* One beat per progress update, from any thread (a no-op when not supervised); `fresh` once this process has
 * evaluated a variant itself, not only resumed rows. */
void vkat_cli_watchdog_heartbeat(int fresh);
/* The tag this measuring process writes into its "aborted" rows (vkat_tune_desc.claim); NULL when unsupervised. */
const char *vkat_cli_watchdog_claim(void);
/* vkat_tune_desc.stage: what the measuring process is doing outside a variant, kept where the watchdog reads it
 * after the process died (a no-op when not supervised). */
void vkat_cli_watchdog_stage(void *user, const vkat_device_info *device, const char *what);
/* SIGINT and SIGTERM stop the run after the variant in flight; a second one ends the process at once. */
void vkat_cli_stop_install(void);
/* The flag the library reads (vkat_tune_desc.stop); the signal that set it (0: none); the exit code it means. */
const volatile int *vkat_cli_stop_flag(void);
int vkat_cli_stop_signal(void);
int vkat_cli_stop_exit_code(void);

#endif
