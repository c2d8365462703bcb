/* library_devices.c — libvkautotune from C (docs/library.md): lists the Vulkan devices, tunes a few configurations
 * of a search space on the first one into a results database, prints the winner and compiles it to SPIR-V (with no
 * device: compiles the first configuration for generic Vulkan 1.3).
 *   cc library_devices.c $(pkg-config --cflags --libs vkautotune) -o library_devices
 *   ./library_devices SPACE.ini [PROBLEM]        e.g. ./library_devices gemm.ini M=64,N=64,K=64
 * Exit status: 0 when the winner (or the first configuration) compiled, 1 otherwise. */
#include <vkautotune.h>

#include <stdio.h>

/* The library never prints: its diagnostics arrive here (from any of its threads). */
static void log_line(void *user, vkat_log_level level, const char *message)
{
    (void)user;
    if (level >= VKAT_LOG_WARN)
        fprintf(stderr, "vkautotune: %s\n", message);
}

/* Tunes `space_path` on device 0 (3 evaluations, short timings) into example.db; the winner's configuration into
 * `config`. Returns VKAT_OK with config[0] == 0 when nothing passed. */
static vkat_result tune(vkat_instance *inst, const char *space_path, const char *problem, char *config, size_t size,
                        vkat_error *err)
{
    uint32_t device = 0;
    vkat_tune_desc desc = vkat_tune_desc_defaults();
    desc.space_path = space_path;
    desc.problem = problem;
    desc.db_path = "example.db";
    desc.inst = inst;
    desc.devices = &device;
    desc.device_count = 1;
    desc.budget = 3;
    desc.warmup_s = 0.01;
    desc.repetitions = 3;
    desc.pipeline_cache_dir = "none";
    desc.logger.func = log_line;
    vkat_tune_run *run = NULL;
    vkat_result r = vkat_tune_run_create(&desc, &run, err);
    if (r == VKAT_OK)
        r = vkat_tune_run_execute(run, err);
    const vkat_tune_group *g = r == VKAT_OK ? vkat_tune_run_group(run, 0) : NULL;
    if (g && g->result != VKAT_OK) {
        *err = g->error;
        r = g->result;
    }
    config[0] = 0;
    if (r == VKAT_OK && !g->report.skipped) {
        vkat_row best;
        size_t n = 0;
        r = vkat_store_best(vkat_tune_run_store(run), &g->report.key, &best, 1, &n, err);
        printf("tuned %s at %s: %llu evaluated, strategy %s\n", g->report.key.kernel, g->report.key.problem,
               (unsigned long long)g->report.totals.evaluated, g->report.strategy);
        if (r == VKAT_OK && n == 1) {
            printf("best: %s, median %.4f ms\n", best.config, best.median_s * 1e3);
            snprintf(config, size, "%s", best.config);
        }
    }
    vkat_tune_run_destroy(run);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SPACE.ini [PROBLEM]\n", argv[0]);
        return 1;
    }
    const char *problem = argc > 2 ? argv[2] : NULL;
    vkat_set_log(log_line, NULL);
    printf("libvkautotune %s (header %s)\n", vkat_version_string(), VKAT_VERSION_STRING);

    vkat_error err = {0};
    char msg[2048], config[512] = "";
    vkat_instance *inst = NULL;
    vkat_space *space = NULL;
    vkat_compiled *compiled = NULL;
    const vkat_device_info *dev = NULL;
    int status = 1;
    if (vkat_instance_create(&inst, &err) == VKAT_OK) {
        for (uint32_t i = 0; i < vkat_instance_device_count(inst); i++) {
            const vkat_device_info *d = vkat_instance_device(inst, i);
            printf("device %u: %s (%s, Vulkan %s)\n", d->index, d->name, d->device_type, d->api_version_string);
        }
        dev = vkat_instance_device(inst, 0);
        if (tune(inst, argv[1], problem, config, sizeof config, &err) != VKAT_OK)
            goto fail;
    } else {
        printf("no device (%s): compiling for generic Vulkan 1.3\n", vkat_error_format(&err, msg, sizeof msg));
    }

    if (vkat_space_load(argv[1], &space, &err) != VKAT_OK)
        goto fail;
    vkat_space_problem_for_device(space, dev); /* [problem.cpu] on a CPU device such as lavapipe */
    if (problem && vkat_space_set_problem(space, problem, &err) != VKAT_OK)
        goto fail;
    if (vkat_space_compile(space, dev, config, &compiled, &err) != VKAT_OK)
        goto fail;
    size_t words = 0;
    vkat_compiled_words(compiled, &words);
    printf("compiled %s: %zu SPIR-V words\n", vkat_compiled_config(compiled), words);
    status = 0;
    goto done;
fail:
    fprintf(stderr, "%s\n", vkat_error_format(&err, msg, sizeof msg));
done:
    vkat_compiled_destroy(compiled);
    vkat_space_destroy(space);
    vkat_instance_destroy(inst);
    return status;
}
