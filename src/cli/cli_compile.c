/* cli_compile.c — `vkautotune compile TEMPLATE --space SPACE --config 'TM=4,TN=4' -o out.spv [--disassemble]`:
 * instantiates one configuration, compiles and validates it, and writes the SPIR-V. Needs no GPU: the target
 * Vulkan version and device limits come from --device-profile (a device described in a file), else --device when a
 * device exists, else Vulkan 1.3 and its minimums. */
#include "atomic_file.h"
#include "cli.h"
#include "device_profile.h"
#include "tune.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune compile [TEMPLATE] --space SPACE [--config K=V,...] [--problem K=V,...]\n"
               "                          [--device SPEC] [--device-profile FILE] [-o OUT.spv] [--disassemble]\n"
               "Compiles and validates one configuration (parameters not named take their first value).\n"
               "--device-profile: for a device described by `vkautotune devices --json` output (--device picks one\n"
               "of the file's) instead of one present.\n");
}

int vkat_cmd_compile(int argc, char **argv)
{
    const char *tpl = NULL, *space_path = NULL, *config = "", *problem = NULL, *device = NULL, *out_path = NULL,
               *profile = NULL;
    int disassemble = 0, verbose = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(o, "--space")     ? &space_path
                            : !strcmp(o, "--config")  ? &config
                            : !strcmp(o, "--problem") ? &problem
                            : !strcmp(o, "--device")  ? &device
                            : !strcmp(o, "--device-profile") ? &profile
                            : !strcmp(o, "-o")        ? &out_path
                                                      : NULL;
        if (slot) {
            if (!v) {
                fprintf(stderr, "vkautotune compile: %s needs a value\n", o);
                return VKAT_EXIT_USAGE;
            }
            *slot = v;
            i++;
        } else if (!strcmp(o, "--disassemble")) {
            disassemble = 1;
        } else if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
            verbose = 1;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (o[0] != '-' && !tpl) {
            tpl = o;
        } else {
            fprintf(stderr, "vkautotune compile: unexpected argument '%s'\n", o);
            usage(stderr);
            return VKAT_EXIT_USAGE;
        }
    }
    if (!space_path) {
        usage(stderr);
        return VKAT_EXIT_USAGE;
    }
    if (!out_path && !disassemble) {
        fprintf(stderr, "vkautotune compile: give -o OUT.spv, --disassemble, or both\n");
        return VKAT_EXIT_USAGE;
    }
    vkat_cli_setup_log(verbose, 0);

    vkat_error err = {0};
    vkat_space *space = NULL;
    vkat_instance *inst = NULL;
    vkat_value *env = NULL;
    uint32_t *choice = NULL;
    vkat_spirv spirv = {0};
    vkat_launch launch = {0};
    char *text = NULL;
    int code = VKAT_EXIT_OK;
    if (vkat_space_load_with_template(space_path, tpl, &space, &err) != VKAT_OK ||
        (problem && vkat_space_set_problem(space, problem, &err) != VKAT_OK)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    /* A device (present or described) sharpens the target version and limits but is not required. */
    vkat_device_info fallback = {0}, described;
    const vkat_device_info *dev = &fallback;
    fallback.api_version = VK_MAKE_API_VERSION(0, 1, 3, 0);
    snprintf(fallback.name, sizeof fallback.name, "generic Vulkan 1.3");
    if (profile) {
        if (vkat_device_profile_load(profile, device, &described, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        dev = &described;
    } else if (vkat_instance_create(&inst, NULL) == VKAT_OK) {
        uint32_t idx, n;
        if (vkat_select_devices(inst, device, &idx, 1, &n, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        dev = vkat_instance_device(inst, idx);
    }
    vkat_space_problem_for_device(space, dev == &fallback ? NULL : dev);
    if (problem)
        vkat_space_set_problem(space, problem, NULL); /* checked above */
    env = vkat_space_env_create(space, dev == &fallback ? NULL : dev);
    choice = calloc(space->param_count ? space->param_count : 1, sizeof *choice);
    if (!env || !choice) {
        code = VKAT_EXIT_FAILURE;
        goto done;
    }
    if (vkat_space_parse_config(space, config, 1, choice, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    vkat_space_env_apply(space, choice, env);
    size_t failed = 0;
    int ok = vkat_space_check(space, env, &failed, &err);
    if (ok < 0) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (!ok)
        fprintf(stderr, "vkautotune compile: warning: %s:%d: this configuration fails constraint '%s'\n", space->path,
                space->constraints[failed].line, space->constraints[failed].name);
    if (space->pass_count)
        fprintf(stderr,
                "vkautotune compile: warning: %s: the variant is a sequence of %zu pass section(s); this "
                "writes the [kernel] template's module with [dispatch] only (export writes every pass)\n",
                space->path, space->pass_count);
    if (vkat_tune_build(space, dev, choice, env, &launch, &spirv, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    if (out_path) {
        if (vkat_write_file_atomic(out_path, spirv.words, spirv.count * sizeof(uint32_t), &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
    }
    if (disassemble) {
        if (vkat_disassemble_spirv(&spirv, &text, &err) != VKAT_OK) {
            code = vkat_cli_report(&err);
            goto done;
        }
        fputs(text, stdout);
    }
    char cfg[512];
    vkat_space_format_config(space, choice, cfg, sizeof cfg);
    fprintf(stderr, "vkautotune compile: %s: %zu words, valid for %s (%s)%s%s\n", cfg, spirv.count, dev->name,
            dev->api_version_string[0] ? dev->api_version_string : "1.3", out_path ? " -> " : "",
            out_path ? out_path : "");
done:
    free(text);
    vkat_launch_free(&launch);
    vkat_spirv_free(&spirv);
    free(choice);
    free(env);
    vkat_instance_destroy(inst);
    vkat_space_destroy(space);
    return code;
}
