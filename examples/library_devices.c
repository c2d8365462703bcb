/* library_devices.c — libvkautotune from C (docs/library.md): lists the Vulkan devices, loads a search space and
 * compiles one of its configurations for the first device (or for generic Vulkan 1.3 when there is none).
 *   cc library_devices.c $(pkg-config --cflags --libs vkautotune) -o library_devices
 *   ./library_devices SPACE.ini [CONFIG]
 * Exit status: 0 when the configuration compiled, 1 otherwise. */
#include <vkautotune.h>

#include <stdio.h>
#include <stdlib.h>

/* The library never prints: its diagnostics arrive here (from any of its threads). */
static void log_line(void *user, vkat_log_level level, const char *message)
{
    (void)user;
    if (level >= VKAT_LOG_WARN)
        fprintf(stderr, "vkautotune: %s\n", message);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s SPACE.ini [CONFIG]\n", argv[0]);
        return 1;
    }
    vkat_set_log(log_line, NULL);
    printf("libvkautotune %s (header %s)\n", vkat_version_string(), VKAT_VERSION_STRING);

    vkat_error err = {0};
    char msg[2048];
    vkat_instance *inst = NULL;
    const vkat_device_info *dev = NULL;
    if (vkat_instance_create(&inst, &err) == VKAT_OK) {
        for (uint32_t i = 0; i < vkat_instance_device_count(inst); i++) {
            const vkat_device_info *d = vkat_instance_device(inst, i);
            printf("device %u: %s (%s, Vulkan %s)\n", d->index, d->name, d->device_type, d->api_version_string);
        }
        dev = vkat_instance_device(inst, 0);
    } else {
        printf("no device (%s): compiling for generic Vulkan 1.3\n", vkat_error_format(&err, msg, sizeof msg));
    }

    vkat_space *space = NULL;
    vkat_compiled *compiled = NULL;
    int status = 1;
    if (vkat_space_load(argv[1], &space, &err) != VKAT_OK)
        goto fail;
    vkat_space_problem_for_device(space, dev);
    char problem[256];
    vkat_space_format_problem(space, problem, sizeof problem);
    printf("space %s: kernel %s, %zu parameters, %llu raw configurations, problem %s\n", vkat_space_path(space),
           vkat_space_kernel_name(space), vkat_space_param_count(space),
           (unsigned long long)vkat_space_raw_count(space), problem);
    if (vkat_space_compile(space, dev, argc > 2 ? argv[2] : "", &compiled, &err) != VKAT_OK)
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
