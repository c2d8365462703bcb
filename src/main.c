/* main.c — the vkautotune program: dispatches to one subcommand per file (cli_*.c). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "vkautotune " VKAT_VERSION_STRING " — a Vulkan compute-shader autotuner\n"
            "\n"
            "usage: vkautotune <command> [options]\n"
            "\n"
            "commands:\n"
            "  devices [--json]       list Vulkan devices, their limits and cooperative-matrix shapes\n"
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
    if (!strcmp(cmd, "help") || !strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
        usage(stdout);
        return VKAT_EXIT_OK;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("vkautotune %s\n", VKAT_VERSION_STRING);
        return VKAT_EXIT_OK;
    }
    fprintf(stderr, "vkautotune: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return VKAT_EXIT_USAGE;
}
