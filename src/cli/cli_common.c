/* cli_common.c — what every subcommand shares: exit codes for results, stderr logging, number arguments. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int vkat_cli_exit_code(vkat_result r)
{
    switch (r) {
    case VKAT_OK: return VKAT_EXIT_OK;
    case VKAT_ERR_USAGE: return VKAT_EXIT_USAGE;
    case VKAT_ERR_IO:
    case VKAT_ERR_SYNTAX:
    case VKAT_ERR_SPACE:
    case VKAT_ERR_EXPR:
    case VKAT_ERR_EMPTY_SPACE:
    case VKAT_ERR_TEMPLATE: return VKAT_EXIT_INPUT;
    case VKAT_ERR_COMPILE:
    case VKAT_ERR_VALIDATE: return VKAT_EXIT_COMPILE;
    case VKAT_ERR_NO_LOADER:
    case VKAT_ERR_NO_DEVICE: return VKAT_EXIT_NO_VULKAN;
    case VKAT_ERR_UNSUPPORTED:
    case VKAT_ERR_LIMITS:
    case VKAT_ERR_VULKAN:
    case VKAT_ERR_DEVICE_LOST:
    case VKAT_ERR_TIMEOUT:
    case VKAT_ERR_CHECK: return VKAT_EXIT_DEVICE;
    case VKAT_ERR_DB: return VKAT_EXIT_DB;
    default: return VKAT_EXIT_FAILURE;
    }
}

int vkat_cli_report(const vkat_error *err)
{
    char buf[2048];
    fprintf(stderr, "vkautotune: %s\n", vkat_error_format(err, buf, sizeof buf));
    return vkat_cli_exit_code(err->code);
}

static int log_verbose, log_quiet;

static void log_to_stderr(void *user, vkat_log_level level, const char *message)
{
    (void)user;
    if (level == VKAT_LOG_DEBUG && !log_verbose)
        return;
    if (level == VKAT_LOG_INFO && log_quiet)
        return;
    const char *tag = level == VKAT_LOG_WARN ? "warning: " : level == VKAT_LOG_ERROR ? "error: " : "";
    fprintf(stderr, "vkautotune: %s%s\n", tag, message);
}

void vkat_cli_log(vkat_log_level level, const char *fmt, ...)
{
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    log_to_stderr(NULL, level, msg);
}

void vkat_cli_setup_log(int verbose, int quiet)
{
    log_verbose = verbose;
    log_quiet = quiet;
    vkat_set_log(log_to_stderr, NULL);
}

/* The versions come from CMake (cmake/Dependencies.cmake reads them from the headers it builds against). */
#ifndef VKAT_GLSLANG_VERSION
#define VKAT_GLSLANG_VERSION "unknown"
#endif
#ifndef VKAT_SPIRV_TOOLS_VERSION
#define VKAT_SPIRV_TOOLS_VERSION "unknown"
#endif
#ifndef VKAT_VULKAN_HEADERS_VERSION
#define VKAT_VULKAN_HEADERS_VERSION "unknown"
#endif

void vkat_cli_print_version(void)
{
    printf("vkautotune %s\n", VKAT_VERSION_STRING);
    printf("built with glslang %s, SPIRV-Tools %s, Vulkan headers %s\n", VKAT_GLSLANG_VERSION,
           VKAT_SPIRV_TOOLS_VERSION, VKAT_VULKAN_HEADERS_VERSION);
}

int vkat_cli_parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !*s || *s == '-')
        return 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        return 0;
    *out = v;
    return 1;
}

int vkat_cli_database_exists(const char *path, const char *hint)
{
    struct stat sb;
    if (stat(path, &sb) == 0)
        return 1;
    fprintf(stderr, "vkautotune: %s: no such database%s\n", path, hint ? hint : "");
    return 0;
}
