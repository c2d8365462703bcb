/* test_workspace_image.c — image entries of a workspace on the machine's Vulkan device (lavapipe here): seeded
 * texels (8-bit UNORM rounded from random(0, 1)), poison in an output image, a kernel that reads a storage image and
 * a sampled one and writes a third, an upload that reaches the image, and extents beyond the device's limits refused
 * before anything is allocated. */
#include "bench.h"
#include "check.h"
#include "test.h"
#include "test_gpu.h"
#include "util.h"

#define W 5u
#define H 3u

/* out.x = a storage image's red plus a sampled image's green, texel for texel. */
static const char *sum_src = "#version 450\n"
                             "layout(local_size_x = 4, local_size_y = 4) in;\n"
                             "layout(binding = 0, rgba8) uniform readonly image2D img;\n"
                             "layout(binding = 1) uniform sampler2D tex;\n"
                             "layout(binding = 2, r32f) uniform writeonly image2D dst;\n"
                             "void main() { ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
                             "  if (p.x >= imageSize(dst).x || p.y >= imageSize(dst).y) return;\n"
                             "  imageStore(dst, p, vec4(imageLoad(img, p).r + texelFetch(tex, p, 0).g)); }\n";

static vkat_buffer_spec image_spec(const char *name, const char *format, vkat_init_kind init, vkat_direction dir,
                                   int sampled)
{
    const vkat_image_format *f = vkat_image_format_find(format);
    vkat_buffer_spec s = {name, f->component, (uint64_t)W * H * f->channels, init, 0, 1, dir};
    s.image = f;
    s.extent[0] = W, s.extent[1] = H, s.extent[2] = 1;
    s.dims = 2;
    s.sampled = sampled;
    return s;
}

static void *read(vkat_workspace *ws, size_t index)
{
    void *data = NULL;
    int canary_ok = 0;
    vkat_error err = {0};
    CHECK_MSG(vkat_workspace_read(ws, index, &data, &canary_ok, &err) == VKAT_OK, "%s", err.message);
    CHECK(canary_ok);
    return data;
}

static void test_images(vkat_gpu *gpu)
{
    const vkat_buffer_spec specs[3] = {image_spec("img", "rgba8", VKAT_INIT_RANDOM, VKAT_DIR_IN, 0),
                                       image_spec("tex", "rgba8", VKAT_INIT_RANDOM, VKAT_DIR_IN, 1),
                                       image_spec("dst", "r32f", VKAT_INIT_ZERO, VKAT_DIR_OUT, 0)};
    vkat_error err = {0};
    vkat_workspace *ws = NULL, *again = NULL;
    CHECK_MSG(vkat_workspace_create(gpu, specs, 3, 9, &ws, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(vkat_workspace_create(gpu, specs, 3, 9, &again, &err) == VKAT_OK, "%s", err.message);
    if (!ws || !again)
        goto done;
    /* The texels are the seeded values rounded to bytes: spread over 0..255, the same for the same seed. */
    uint8_t *img = read(ws, 0), *tex = read(ws, 1), *img2 = read(again, 0);
    int lo = 255, hi = 0;
    for (uint32_t i = 0; i < W * H * 4; i++) {
        lo = img[i] < lo ? img[i] : lo;
        hi = img[i] > hi ? img[i] : hi;
    }
    CHECK_MSG(lo < 64 && hi > 192, "rgba8 texels span %d..%d", lo, hi);
    CHECK(memcmp(img, img2, W * H * 4) == 0 && memcmp(img, tex, W * H * 4) != 0);
    /* An output image starts as poison, read back through its image. */
    float *dst = read(ws, 2), poison;
    vkat_poison_element(VKAT_FLOAT32, &poison);
    CHECK(memcmp(&dst[0], &poison, 4) == 0 && memcmp(&dst[W * H - 1], &poison, 4) == 0);
    free(dst);

    vkat_spirv m = {0};
    CHECK_MSG(vkat_compile_glsl(sum_src, "sum.comp", VK_API_VERSION_1_3, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_kernel *k = NULL;
    CHECK_MSG(vkat_kernel_create(ws, &m, "main", NULL, 0, 0, &k, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    const uint32_t groups[3] = {(W + 3) / 4, (H + 3) / 4, 1};
    if (k && vkat_kernel_run(k, groups, NULL, 10000000000ull, &err) == VKAT_OK) {
        float ref[W * H];
        for (uint32_t i = 0; i < W * H; i++)
            ref[i] = img[4 * i] / 255.0f + tex[4 * i + 1] / 255.0f;
        dst = read(ws, 2);
        vkat_check_opts tol = {1e-6, 1e-6};
        vkat_check_report rep;
        vkat_check_compare(VKAT_FLOAT32, dst, ref, W * H, &poison, &tol, &rep);
        CHECK_MSG(rep.ok, "%s", rep.reason);
        free(dst);
    } else {
        CHECK_MSG(0, "%s", err.message);
    }
    vkat_kernel_destroy(k);

    /* Data uploaded into an image entry is what the image holds; a reset poisons the output image again. */
    float mine[W * H];
    for (uint32_t i = 0; i < W * H; i++)
        mine[i] = 0.5f * (float)i;
    CHECK_MSG(vkat_workspace_upload_data(ws, 2, mine, &err) == VKAT_OK, "%s", err.message);
    dst = read(ws, 2);
    CHECK(memcmp(dst, mine, sizeof mine) == 0);
    free(dst);
    CHECK_MSG(vkat_workspace_reset(ws, &err) == VKAT_OK, "%s", err.message);
    dst = read(ws, 2);
    CHECK(memcmp(&dst[W * H - 1], &poison, 4) == 0);
    free(dst);
    free(img);
    free(tex);
    free(img2);
done:
    vkat_workspace_destroy(ws);
    vkat_workspace_destroy(again);
}

/* An image wider than the device allows is refused before anything is made. */
static void test_limits(vkat_gpu *gpu)
{
    vkat_buffer_spec wide = image_spec("wide", "r32f", VKAT_INIT_ZERO, VKAT_DIR_OUT, 0);
    wide.extent[0] = 65535;
    wide.extent[1] = 1;
    wide.count = 65535;
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    vkat_result r = vkat_workspace_create(gpu, &wide, 1, 1, &ws, &err);
    CHECK_MSG(r == VKAT_ERR_LIMITS && strstr(err.message, "'wide' has width 65535"), "%d: %s", r, err.message);
    vkat_workspace_destroy(ws);
}

int main(void)
{
    vkat_instance *inst;
    vkat_gpu *gpu = test_open_gpu(&inst);
    if (gpu) {
        test_images(gpu);
        test_limits(gpu);
    }
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    TEST_END();
}
