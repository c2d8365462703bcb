/* test_gpu.h — the opening of the tests that run on one device through the workspace: an instance and a vkat_gpu
 * on lavapipe where present (so timings and limits the tests assume hold), any device otherwise. Include after
 * test.h: no instance skips the test (exit 77, saying why); a device that does not open is a failed CHECK. */
#ifndef VKAT_TEST_GPU_H
#define VKAT_TEST_GPU_H

#include "bench.h"

/* The device, or NULL after a failed CHECK; *inst is the caller's to destroy, with the device. */
static vkat_gpu *test_open_gpu(vkat_instance **inst)
{
    vkat_error err = {0};
    if (vkat_instance_create(inst, &err) != VKAT_OK)
        TEST_SKIP("no Vulkan device here (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    uint32_t idx = 0, count = 0;
    if (vkat_select_devices(*inst, "llvmpipe", &idx, 1, &count, &err) != VKAT_OK)
        idx = 0;
    vkat_gpu *gpu = NULL;
    CHECK_MSG(vkat_gpu_create(*inst, idx, &gpu, &err) == VKAT_OK, "%s", err.message);
    return gpu;
}

#endif
