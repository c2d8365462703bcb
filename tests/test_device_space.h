/* test_device_space.h — the opening and closing of tests that run whole searches: an instance, its default device
 * (lavapipe in CI) and a space from tests/data. Include after test.h (it records a space that fails to load as a
 * failure). */
#ifndef VKAT_TEST_DEVICE_SPACE_H
#define VKAT_TEST_DEVICE_SPACE_H

#include "tune.h"

/* 1 with *inst, *dev and *space ready for the caller to destroy. 0 without a Vulkan instance (says it skips `what`)
 * or when `space_path` does not load (a failed CHECK); nothing is left to destroy then. */
static int test_open_device_space(const char *space_path, const char *what, vkat_instance **inst, uint32_t *dev,
                                  vkat_space **space)
{
    vkat_error err = {0};
    if (vkat_instance_create(inst, &err) != VKAT_OK) {
        fprintf(stderr, "skipping %s: no Vulkan device (%s)\n", what, err.message);
        return 0;
    }
    uint32_t n;
    CHECK(vkat_select_devices(*inst, NULL, dev, 1, &n, &err) == VKAT_OK);
    vkat_result r = vkat_space_load(space_path, space, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    if (r != VKAT_OK) {
        vkat_instance_destroy(*inst);
        return 0;
    }
    return 1;
}

/* Undoes test_open_device_space and removes the test's scratch folder `tmp` (kept when a check failed, to look at). */
static void test_close_device_space(vkat_space *space, vkat_instance *inst, const char *tmp)
{
    vkat_space_destroy(space);
    vkat_instance_destroy(inst);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (!test_failed && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
}

#endif
