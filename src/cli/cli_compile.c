/* cli_compile.c — `vkautotune compile TEMPLATE --space SPACE --config 'TM=4,TN=4' -o out.spv [--disassemble]`:
 * instantiates one configuration, compiles and validates it, and writes the SPIR-V. Needs no GPU: the target
 * Vulkan version and device limits come from --device-profile (a device described in a file), else --device when a
 * device exists, else Vulkan 1.3 and its minimums. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune compile [TEMPLATE] --space SPACE [--config K=V,...] [--problem K=V,...]\n"
               "                          [--device SPEC] [--device-profile FILE] [-o OUT.spv] [--disassemble]\n"
               "Compiles and validates one configuration. Parameters not named take the values of the first\n"
               "valid configuration that keeps the named ones (their first values where none is valid).\n"
               "--device-profile: for a device described by `vkautotune devices --json` output (--device picks one\n"
               "of the file's) instead of one present.\n");
}

typedef struct compile_args {
    const char *tpl, *space_path, *config, *problem, *device, *out_path, *profile;
    int disassemble, verbose;
} compile_args;

/* Returns -1 to go on, else the exit code (help, usage error). */
static int parse_args(int argc, char **argv, compile_args *a)
{
    *a = (compile_args){0};
    a->config = "";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(o, "--space")     ? &a->space_path
                            : !strcmp(o, "--config")  ? &a->config
                            : !strcmp(o, "--problem") ? &a->problem
                            : !strcmp(o, "--device")  ? &a->device
                            : !strcmp(o, "--device-profile") ? &a->profile
                            : !strcmp(o, "-o")        ? &a->out_path
                                                      : NULL;
        if (slot) {
            if (!v) {
                fprintf(stderr, "vkautotune compile: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            *slot = v;
            i++;
        } else if (!strcmp(o, "--disassemble")) {
            a->disassemble = 1;
        } else if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
            a->verbose = 1;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (o[0] != '-' && !a->tpl) {
            a->tpl = o;
        } else {
            fprintf(stderr, "vkautotune compile: unexpected argument '%s'\n", o);
            usage(stderr);
            return VKAT_EXIT_USAGE;
        }
    }
    if (!a->space_path) {
        usage(stderr);
        return VKAT_EXIT_USAGE;
    }
    if (!a->out_path && !a->disassemble) {
        fprintf(stderr, "vkautotune compile: give -o OUT.spv, --disassemble, or both\n");
        return VKAT_EXIT_USAGE;
    }
    return -1;
}

/* The device to compile for: described by --device-profile, else --device when Vulkan is here, else none (NULL:
 * generic Vulkan 1.3). Returns an exit code, VKAT_EXIT_OK when *dev is set. */
static int pick_device(const compile_args *a, vkat_instance **inst, vkat_device_info *described,
                       const vkat_device_info **dev)
{
    vkat_error err = {0};
    *dev = NULL;
    if (a->profile) {
        if (vkat_device_profile_load(a->profile, a->device, described, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        *dev = described;
    } else if (vkat_instance_create(inst, NULL) == VKAT_OK) {
        uint32_t idx, n;
        if (vkat_select_devices(*inst, a->device, &idx, 1, &n, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        *dev = vkat_instance_device(*inst, idx);
    }
    return VKAT_EXIT_OK;
}

/* Writes -o and --disassemble's text. Returns an exit code. */
static int write_outputs(const compile_args *a, const vkat_compiled *c)
{
    vkat_error err = {0};
    size_t count = 0;
    const uint32_t *words = vkat_compiled_words(c, &count);
    if (a->out_path && vkat_write_file(a->out_path, words, count * sizeof(uint32_t), &err) != VKAT_OK)
        return vkat_cli_report(&err);
    if (a->disassemble) {
        char *text = NULL;
        if (vkat_compiled_disassemble(c, &text, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        fputs(text, stdout);
        free(text);
    }
    return VKAT_EXIT_OK;
}

int vkat_cmd_compile(int argc, char **argv)
{
    compile_args a;
    int code = parse_args(argc, argv, &a);
    if (code >= 0)
        return code;
    vkat_cli_setup_log(a.verbose, 0);

    vkat_error err = {0};
    vkat_space *space = NULL;
    vkat_instance *inst = NULL;
    vkat_compiled *c = NULL;
    vkat_device_info described;
    const vkat_device_info *dev = NULL;
    if (vkat_space_load_with_template(a.space_path, a.tpl, &space, &err) != VKAT_OK ||
        (a.problem && vkat_space_set_problem(space, a.problem, &err) != VKAT_OK)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    /* A device (present or described) sharpens the target version and limits but is not required. */
    code = pick_device(&a, &inst, &described, &dev);
    if (code != VKAT_EXIT_OK)
        goto done;
    vkat_space_problem_for_device(space, dev);
    if (a.problem)
        vkat_space_set_problem(space, a.problem, NULL); /* checked above */
    long failed = -1;
    if (vkat_space_check_config(space, dev, a.config, &failed, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (failed >= 0) {
        int line = 0;
        const char *name = vkat_space_constraint(space, (size_t)failed, &line);
        fprintf(stderr, "vkautotune compile: warning: %s:%d: this configuration fails constraint '%s'\n",
                vkat_space_path(space), line, name);
    }
    if (vkat_space_compile(space, dev, a.config, &c, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (vkat_space_pass_count(space))
        fprintf(stderr,
                "vkautotune compile: warning: %s: the variant is a sequence of %zu pass section(s), whose %zu "
                "module(s) are all valid; this writes the [kernel] template's module with [dispatch] only (export "
                "writes every pass)\n",
                vkat_space_path(space), vkat_space_pass_count(space), vkat_compiled_pass_modules(c));
    code = write_outputs(&a, c);
    if (code != VKAT_EXIT_OK)
        goto done;
    size_t words = 0;
    vkat_compiled_words(c, &words);
    fprintf(stderr, "vkautotune compile: %s: %zu words, valid for %s (%s)%s%s\n", vkat_compiled_config(c), words,
            dev ? dev->name : "generic Vulkan 1.3",
            dev && dev->api_version_string[0] ? dev->api_version_string : "1.3", a.out_path ? " -> " : "",
            a.out_path ? a.out_path : "");
done:
    vkat_compiled_destroy(c);
    vkat_instance_destroy(inst);
    vkat_space_destroy(space);
    return code;
}
