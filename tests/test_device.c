/* test_device.c — device enumeration on the machine's Vulkan devices (lavapipe in CI): llvmpipe is found,
 * limits are sane, --device selection works, logical devices with every feature or exactly the named ones. */
#include "device.h"
#include "test.h"
#include "util.h"

int main(void)
{
    vkat_instance *inst;
    vkat_error err = {0};
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r == VKAT_ERR_NO_LOADER || r == VKAT_ERR_NO_DEVICE)
        TEST_SKIP("no Vulkan device here (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    CHECK(r == VKAT_OK);
    uint32_t n = vkat_instance_device_count(inst);
    CHECK(n >= 1);
    int found_llvmpipe = 0;
    for (uint32_t i = 0; i < n; i++) {
        const vkat_device_info *d = vkat_instance_device(inst, i);
        CHECK(d->index == i);
        CHECK(d->name[0] != 0);
        CHECK(d->api_version >= VK_API_VERSION_1_1);
        CHECK(d->max_workgroup_invocations >= 128);   /* Vulkan's required minimum */
        CHECK(d->max_workgroup_size[0] >= 128);
        CHECK(d->max_shared_memory >= 16384);
        CHECK(d->max_push_constants_size >= 128);
        CHECK(d->subgroup_size >= 1 && d->min_subgroup_size <= d->subgroup_size &&
              d->subgroup_size <= d->max_subgroup_size);
        CHECK(d->timestamp_period > 0.0f);
        CHECK(d->heap_count >= 1);
        CHECK(d->compute_queue_family != UINT32_MAX);
        if (vkat_contains_nocase(d->name, "llvmpipe")) {
            found_llvmpipe = 1;
            CHECK_STR(d->vendor, "Mesa");
            CHECK_STR(d->device_type, "cpu");
            CHECK(d->timestamp_valid_bits > 0);
        }
    }
    CHECK_MSG(found_llvmpipe, "llvmpipe (lavapipe) not among %u device(s)", n);

    uint32_t picked[8], count = 0;
    CHECK(vkat_select_devices(inst, NULL, picked, 8, &count, &err) == VKAT_OK && count == 1);
    CHECK(vkat_select_devices(inst, "all", picked, 8, &count, &err) == VKAT_OK && count == (n < 8 ? n : 8));
    CHECK(vkat_select_devices(inst, "0", picked, 8, &count, &err) == VKAT_OK && count == 1 && picked[0] == 0);
    CHECK(vkat_select_devices(inst, "99", picked, 8, &count, &err) == VKAT_ERR_USAGE);
    CHECK(vkat_select_devices(inst, "no-such-gpu-name", picked, 8, &count, &err) == VKAT_ERR_USAGE);
    if (found_llvmpipe)
        CHECK(vkat_select_devices(inst, "LLVMPIPE", picked, 8, &count, &err) == VKAT_OK && count >= 1);

    /* A logical device with its queue. */
    vkat_gpu *gpu;
    r = vkat_gpu_create(inst, 0, &gpu, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    if (r == VKAT_OK) {
        CHECK(gpu->device != VK_NULL_HANDLE && gpu->queue != VK_NULL_HANDLE);
        CHECK(vkat_gpu_memory_type(gpu, ~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) >= 0);
        vkat_gpu_destroy(gpu);
    }
    /* Exactly the named features: what a device offers is enabled, what it lacks or nobody knows is refused. */
    const vkat_device_info *d0 = vkat_instance_device(inst, 0);
    const char none_ext[1][128] = {""};
    const char f16[2][64] = {"shaderFloat16", "storageBuffer16BitAccess"}, bogus[1][64] = {"shaderTeleport"};
    const char coop[1][64] = {"cooperativeMatrix"};
    if (d0->feature[VKAT_FEATURE_SHADER_FLOAT16] && d0->feature[VKAT_FEATURE_STORAGE_BUFFER_16BIT]) {
        r = vkat_gpu_create_exact(inst, 0, none_ext, 0, f16, 2, &gpu, &err);
        CHECK_MSG(r == VKAT_OK && gpu->device != VK_NULL_HANDLE && gpu->queue != VK_NULL_HANDLE, "%s", err.message);
        vkat_gpu_destroy(r == VKAT_OK ? gpu : NULL);
    }
    CHECK(vkat_gpu_create_exact(inst, 0, none_ext, 0, bogus, 1, &gpu, &err) == VKAT_ERR_USAGE && !gpu);
    CHECK_CONTAINS(err.message, "shaderTeleport");
    if (!d0->feature[VKAT_FEATURE_COOPMAT])
        CHECK(vkat_gpu_create_exact(inst, 0, none_ext, 0, coop, 1, &gpu, &err) == VKAT_ERR_UNSUPPORTED && !gpu);
    const char no_ext[1][128] = {"VK_KHR_no_such_extension"};
    CHECK(vkat_gpu_create_exact(inst, 0, no_ext, 1, NULL, 0, &gpu, &err) == VKAT_ERR_UNSUPPORTED && !gpu);

    char missing[64];
    const char *ext[] = {"VK_KHR_no_such_extension"};
    CHECK(!vkat_device_meets(vkat_instance_device(inst, 0), ext, 1, NULL, 0, missing, sizeof missing));
    CHECK_STR(missing, "VK_KHR_no_such_extension");
    vkat_instance_destroy(inst);
    TEST_END();
}
