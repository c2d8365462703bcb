/* main.c — the vkautotune program: dispatches to one subcommand per file (cli_*.c). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "vkautotune " VKAT_VERSION_STRING " — a Vulkan compute-shader autotuner\n"
            "\n"
            "usage: vkautotune [TEMPLATE] --space SPACE [options]   tune (see vkautotune tune --help)\n"
            "       vkautotune <command> [options]\n"
            "\n"
            "commands:\n"
            "  tune                   tune a template over a search space (the default command)\n"
            "  init SHADER            write a starting space file for a shader as it is\n"
            "  compile                compile and validate one configuration to SPIR-V\n"
            "  export                 write stored winners as SPIR-V, manifest.json and a C header\n"
            "  devices [--json]       list Vulkan devices, their limits and cooperative-matrix shapes\n"
            "  replay TABLE           replay a search strategy against a recorded table (no GPU needed)\n"
            "  peaks                  measure (and cache) each device's bandwidth and arithmetic peaks\n"
            "  compare --db DB        devices side by side: winners, fraction of peak, portability\n"
            "  merge OUT IN...        combine results databases from different machines\n"
            "  report --db DB -o F    a self-contained HTML report with charts\n"
            "  help                   this text\n"
            "  version                print the version\n"
            "\n"
            "Run `vkautotune <command> --help` for a command's options. Exit codes: docs/exit-codes.md.\n");
}

int main(int argc, char **argv)
{
    vkat_cli_setup_log(0, 0);
    if (argc < 2) {
        usage(stderr);
        return VKAT_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "devices"))
        return vkat_cmd_devices(argc - 1, argv + 1);
    if (!strcmp(cmd, "compile"))
        return vkat_cmd_compile(argc - 1, argv + 1);
    if (!strcmp(cmd, "init"))
        return vkat_cmd_init(argc - 1, argv + 1);
    if (!strcmp(cmd, "replay"))
        return vkat_cmd_replay(argc - 1, argv + 1);
    if (!strcmp(cmd, "export"))
        return vkat_cmd_export(argc - 1, argv + 1);
    if (!strcmp(cmd, "peaks"))
        return vkat_cmd_peaks(argc - 1, argv + 1);
    if (!strcmp(cmd, "compare"))
        return vkat_cmd_compare(argc - 1, argv + 1);
    if (!strcmp(cmd, "merge"))
        return vkat_cmd_merge(argc - 1, argv + 1);
    if (!strcmp(cmd, "report"))
        return vkat_cmd_report(argc - 1, argv + 1);
    if (!strcmp(cmd, "tune"))
        return vkat_cmd_tune(argc - 1, argv + 1);
    if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        usage(stdout);
        return VKAT_EXIT_OK;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        vkat_cli_print_version();
        return VKAT_EXIT_OK;
    }
    /* No command word: the main job, `vkautotune TEMPLATE --space SPACE` or `vkautotune --space SPACE`. */
    if (cmd[0] == '-' || strchr(cmd, '.') || strchr(cmd, '/'))
        return vkat_cmd_tune(argc, argv);
    fprintf(stderr, "vkautotune: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return VKAT_EXIT_USAGE;
}
