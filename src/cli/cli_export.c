/* cli_export.c — `vkautotune export --db DB --space SPACE [--space ...] -o DIR [--header NAME.h] [--candidates N]`:
 * writes the database's winners (and candidates for runtime tuning) as .spv files, manifest.json and optionally a C
 * header for the runtime library, for devices on this machine or (by name, or --all-devices-in-db) devices that
 * were tuned elsewhere. The work is vkat_export_stored; this file parses arguments and maps errors to exit codes. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SPACES 64

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkautotune export --space SPACE [--space SPACE ...] -o DIR [options]\n"
            "\n"
            "Writes the best stored variant of each kernel, device and tuned problem: DIR/*.spv, DIR/manifest.json\n"
            "(docs/manifest.md) and, with --header, a C header for the vkautotune runtime library (docs/runtime.md).\n"
            "Nothing is measured or compiled: each variant's SPIR-V is the one its row was measured with, kept in\n"
            "the database (a row measured before it kept them is compiled again and must give the measured hash).\n"
            "\n"
            "options:\n"
            "  --space PATH          a search-space file; repeat for several kernels\n"
            "  -o, --output DIR      the export directory (created if needed)\n"
            "  --db PATH             results database (default ./vkautotune.db)\n"
            "  --device SPEC         index, name or 'all' of devices on this machine, or a name substring of\n"
            "                        devices in the database (default: this machine's default device)\n"
            "  --all-devices-in-db   every device in the database, present or not\n"
            "  --device-profile FILE the first device of `vkautotune devices --json` output: a device of that name and\n"
            "                        ids that is not here is exported with its limits (for spaces whose dispatch or\n"
            "                        buffers read device.*)\n"
            "  --problem K=V,...     only tuned problems with these sizes (default: every tuned problem)\n"
            "  --header NAME.h       also write DIR/NAME.h: SPIR-V words and a selection table\n"
            "  --candidates N        per kernel, N distinct configurations for the runtime library to time on an\n"
            "                        untuned device (docs/runtime.md): every device's winner, then those best on\n"
            "                        average across the exported devices (default %d; 0: the winners only)\n"
            "  -q, --quiet           no info messages\n"
            "  -v, --verbose         debug messages\n"
            "  -h, --help            this text\n",
            VKAT_EXPORT_DEFAULT_CANDIDATES);
}

typedef struct export_args {
    const char *space_paths[MAX_SPACES];
    size_t nspaces;
    vkat_export_desc req;
    const char *db, *profile_path;
    int quiet, verbose;
} export_args;

/* The options that take a value; 0 (message printed) for a bad one. */
static int parse_value(const char *o, const char *v, export_args *x)
{
    const char **slot = !strcmp(o, "--db")                            ? &x->db
                        : !strcmp(o, "--device")                      ? &x->req.device
                        : !strcmp(o, "--problem")                     ? &x->req.problem
                        : !strcmp(o, "--header")                      ? &x->req.header
                        : !strcmp(o, "--device-profile")              ? &x->profile_path
                        : !strcmp(o, "-o") || !strcmp(o, "--output") ? &x->req.dir
                                                                      : NULL;
    if (slot) {
        *slot = v;
    } else if (!strcmp(o, "--space")) {
        if (x->nspaces == MAX_SPACES) {
            fprintf(stderr, "vkautotune export: at most %d --space options\n", MAX_SPACES);
            return 0;
        }
        x->space_paths[x->nspaces++] = v;
    } else { /* --candidates */
        char *end = NULL;
        long c = strtol(v, &end, 10);
        if (end == v || *end || c < 0 || c > 32) { /* the runtime tuner times at most 32 */
            fprintf(stderr, "vkautotune export: --candidates expects a number from 0 to 32\n");
            return 0;
        }
        x->req.candidates = c ? (int)c : -1;
    }
    return 1;
}

/* Returns -1 to go on, else the exit code (help, usage error). */
static int parse_args(int argc, char **argv, export_args *x)
{
    memset(x, 0, sizeof *x);
    x->db = "vkautotune.db";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value = !strcmp(o, "--db") || !strcmp(o, "--device") || !strcmp(o, "--problem") ||
                          !strcmp(o, "--header") || !strcmp(o, "--device-profile") || !strcmp(o, "-o") ||
                          !strcmp(o, "--output") || !strcmp(o, "--space");
        if (takes_value || !strcmp(o, "--candidates")) {
            if (!v && takes_value) {
                fprintf(stderr, "vkautotune export: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            if (!v) {
                fprintf(stderr, "vkautotune export: --candidates expects a number from 0 to 32\n");
                return VKAT_EXIT_USAGE;
            }
            if (!parse_value(o, v, x))
                return VKAT_EXIT_USAGE;
            i++;
        } else if (!strcmp(o, "--all-devices-in-db")) {
            x->req.all_in_db = 1;
        } else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
            x->quiet = 1;
        } else if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
            x->verbose = 1;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else {
            fprintf(stderr, "vkautotune export: unexpected argument '%s' (see vkautotune export --help)\n", o);
            return VKAT_EXIT_USAGE;
        }
    }
    const vkat_export_desc *req = &x->req;
    if (x->nspaces == 0 || !req->dir) {
        fprintf(stderr, "vkautotune export: --space and -o DIR are required (see vkautotune export --help)\n");
        return VKAT_EXIT_USAGE;
    }
    if (req->all_in_db && req->device) {
        fprintf(stderr, "vkautotune export: choose one of --device and --all-devices-in-db\n");
        return VKAT_EXIT_USAGE;
    }
    if (req->header) {
        size_t n = strlen(req->header);
        if (strchr(req->header, '/') || n < 3 || strcmp(req->header + n - 2, ".h") != 0) {
            fprintf(stderr, "vkautotune export: --header '%s': expected a file name ending in .h (it is written "
                            "into the -o directory)\n", req->header);
            return VKAT_EXIT_USAGE;
        }
    }
    return -1;
}

int vkat_cmd_export(int argc, char **argv)
{
    export_args x;
    int code = parse_args(argc, argv, &x);
    if (code >= 0)
        return code;
    vkat_export_desc req = x.req;
    const char *db = x.db, *profile_path = x.profile_path;
    size_t nspaces = x.nspaces;
    vkat_space *spaces[MAX_SPACES] = {0};
    const char *const *space_paths = x.space_paths;
    code = VKAT_EXIT_OK;
    vkat_cli_setup_log(x.verbose, x.quiet);

    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_store *store = NULL;
    vkat_device_info profile;
    if (profile_path) {
        if (vkat_device_profile_load(profile_path, NULL, &profile, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        req.profile = &profile;
    }
    for (size_t i = 0; i < nspaces; i++) {
        if (vkat_space_load(space_paths[i], &spaces[i], &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
    }
    /* Vulkan is optional here: without it, devices in the database can still be exported. */
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r == VKAT_ERR_NO_LOADER || r == VKAT_ERR_NO_DEVICE) {
        vkat_cli_log(VKAT_LOG_DEBUG, "%s; exporting from the database only", err.message);
        inst = NULL;
    } else if (r != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (!vkat_cli_database_exists(db, " (tune first, or give --db)")) {
        code = VKAT_EXIT_DB;
        goto done;
    }
    if (vkat_store_open_readonly(db, &store, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    req.spaces = spaces;
    req.space_count = nspaces;
    req.inst = inst;
    size_t n = 0;
    if (vkat_export_stored(&req, store, &n, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    vkat_cli_log(VKAT_LOG_INFO, "exported %zu variant(s) to %s", n, req.dir);
done:
    vkat_store_close(store);
    vkat_instance_destroy(inst);
    for (size_t i = 0; i < nspaces; i++)
        vkat_space_destroy(spaces[i]);
    return code;
}
