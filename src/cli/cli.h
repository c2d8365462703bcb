/* cli.h — internal to the vkautotune program: one function per subcommand, plus shared helpers.
 * The CLI owns argument parsing, terminal output and exit codes; the library does the work. */
#ifndef VKAT_CLI_H
#define VKAT_CLI_H

#include "vkautotune.h"

/* Exit codes (docs/exit-codes.md). */
enum {
    VKAT_EXIT_OK = 0,
    VKAT_EXIT_FAILURE = 1,  /* internal error, out of memory, nothing valid to report */
    VKAT_EXIT_USAGE = 2,    /* bad command line */
    VKAT_EXIT_INPUT = 3,    /* bad space file, template or expression; file missing or unreadable */
    VKAT_EXIT_COMPILE = 4,  /* GLSL compile or SPIR-V validation error */
    VKAT_EXIT_NO_VULKAN = 5, /* no loader or no device */
    VKAT_EXIT_DEVICE = 6,   /* a device or a run failed: Vulkan error, device lost, unsupported */
    VKAT_EXIT_DB = 7,       /* results database error */
    VKAT_EXIT_INTERRUPTED = 130, /* Ctrl-C: stopped after the variant in flight; the best so far was printed */
};

/* Maps a library result to the documented exit code. */
int vkat_cli_exit_code(vkat_result r);
/* Prints "vkautotune: <formatted error>" to stderr and returns the exit code for it. */
int vkat_cli_report(const vkat_error *err);
/* Installs the stderr log callback; verbose also shows debug messages. */
void vkat_cli_setup_log(int verbose, int quiet);
/* The CLI's own messages, through the same filter as the library's ("vkautotune: warning: ..."). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void vkat_cli_log(vkat_log_level level, const char *fmt, ...);
/* A whole non-negative decimal number (no sign, nothing after it) into *out; 0 when `s` is not one. */
int vkat_cli_parse_u64(const char *s, uint64_t *out);
/* Commands that read a results database check it exists first: opening would create an empty one, so a typo in
 * the path must stop here. Prints "vkautotune: PATH: no such database" + hint and returns 0 when it does not. */
int vkat_cli_database_exists(const char *path, const char *hint);
/* `in` for a terminal: control characters (ESC, newline, ...), C1 controls and bytes that are not UTF-8 written as
 * \e, \n, \xNN; printable text (UTF-8 included) unchanged. Truncates to size - 1 bytes; returns out. */
const char *vkat_cli_printable(const char *in, char *out, size_t size);

int vkat_cmd_devices(int argc, char **argv);
int vkat_cmd_tune(int argc, char **argv);
int vkat_cmd_compile(int argc, char **argv);
int vkat_cmd_init(int argc, char **argv);
int vkat_cmd_replay(int argc, char **argv);
int vkat_cmd_export(int argc, char **argv);
/* Prints the --version text: vkautotune and the glslang, SPIRV-Tools and Vulkan header versions it was built with. */
void vkat_cli_print_version(void);
int vkat_cmd_peaks(int argc, char **argv);
int vkat_cmd_compare(int argc, char **argv);
int vkat_cmd_merge(int argc, char **argv);
int vkat_cmd_report(int argc, char **argv);

/* "%.4g", or "-" for NaN (not measured). */
void vkat_cli_format_figure(double v, char *buf, size_t size);

#endif
