/* test_workspace_texel.c — texel-buffer entries of a workspace on the machine's Vulkan device (lavapipe here): a
 * uniform texel buffer and a storage one read and written through views of their formats, the size a kernel takes
 * (imageSize) the data's texels, a store past the end caught in the guard the output's view covers, and views
 * beyond the device's maxTexelBufferElements refused before anything is allocated. */
#include "bench.h"
#include "check.h"
#include "test.h"
#include "test_gpu.h"
#include "util.h"

#define N 300u

/* dst[i] = src[i].x + src[i].w; size[0] = the texels dst's view holds. */
static const char *sum_src = "#version 450\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(binding = 0) uniform samplerBuffer src;\n"
                             "layout(binding = 1, r32f) uniform writeonly imageBuffer dst;\n"
                             "layout(binding = 2, r32ui) uniform writeonly uimageBuffer size;\n"
                             "void main() { int i = int(gl_GlobalInvocationID.x);\n"
                             "  if (i == 0) imageStore(size, 0, uvec4(imageSize(dst)));\n"
                             "  if (i >= imageSize(dst)) return;\n"
                             "  vec4 t = texelFetch(src, i); imageStore(dst, i, vec4(t.x + t.w)); }\n";

/* One store one texel past dst's data, sized by a constant rather than by the view. */
static const char *over_src = "#version 450\n"
                              "layout(local_size_x = 1) in;\n"
                              "layout(binding = 1, r32f) uniform writeonly imageBuffer dst;\n"
                              "void main() { imageStore(dst, 300, vec4(1.0)); }\n";

static vkat_buffer_spec texel_spec(const char *name, const char *format, uint64_t texels, vkat_init_kind init,
                                   vkat_direction dir, int uniform)
{
    const vkat_image_format *f = vkat_image_format_find(format);
    vkat_buffer_spec s = {name, f->component, texels * f->channels, init, -1, 1, dir, uniform};
    s.texel = f;
    return s;
}

static vkat_kernel *kernel(vkat_workspace *ws, const char *src)
{
    vkat_spirv m = {0};
    vkat_error err = {0};
    vkat_kernel *k = NULL;
    CHECK_MSG(vkat_compile_glsl(src, "texel.comp", VK_API_VERSION_1_3, &m, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(vkat_kernel_create(ws, &m, "main", NULL, 0, 0, &k, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    return k;
}

static void test_views(vkat_gpu *gpu)
{
    const vkat_buffer_spec specs[3] = {texel_spec("src", "rgba32f", N, VKAT_INIT_RANDOM, VKAT_DIR_IN, 1),
                                       texel_spec("dst", "r32f", N, VKAT_INIT_ZERO, VKAT_DIR_OUT, 0),
                                       texel_spec("size", "r32ui", 1, VKAT_INIT_ZERO, VKAT_DIR_OUT, 0)};
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    CHECK_MSG(vkat_workspace_create(gpu, specs, 3, 5, &ws, &err) == VKAT_OK, "%s", err.message);
    if (!ws)
        return;
    vkat_kernel *k = kernel(ws, sum_src);
    const uint32_t groups[3] = {(N + 63) / 64, 1, 1};
    float *src = NULL, *dst = NULL;
    uint32_t *size = NULL;
    int ok_src = 0, ok_dst = 0, ok_size = 0;
    if (k && vkat_kernel_run(k, groups, NULL, 10000000000ull, &err) == VKAT_OK &&
        vkat_workspace_read(ws, 0, (void **)&src, &ok_src, &err) == VKAT_OK &&
        vkat_workspace_read(ws, 1, (void **)&dst, &ok_dst, &err) == VKAT_OK &&
        vkat_workspace_read(ws, 2, (void **)&size, &ok_size, &err) == VKAT_OK) {
        /* imageSize counts the data's texels: the kernel got the views without the guard */
        CHECK_MSG(size[0] == N, "imageSize(dst) = %u", size[0]);
        CHECK(ok_dst && ok_size);
        float ref[N], poison;
        for (uint32_t i = 0; i < N; i++)
            ref[i] = src[4 * i] + src[4 * i + 3];
        vkat_poison_element(VKAT_FLOAT32, &poison);
        vkat_check_opts tol = {1e-6, 1e-6};
        vkat_check_report rep;
        vkat_check_compare(VKAT_FLOAT32, dst, ref, N, &poison, &tol, &rep);
        CHECK_MSG(rep.ok, "%s", rep.reason);
    } else {
        CHECK_MSG(0, "%s", err.message);
    }
    free(src), free(dst), free(size);
    vkat_kernel_destroy(k);

    /* Without imageSize the output's view covers its guard: a store past the data lands there and is seen. */
    CHECK_MSG(vkat_workspace_reset(ws, &err) == VKAT_OK, "%s", err.message);
    k = kernel(ws, over_src);
    const uint32_t one[3] = {1, 1, 1};
    int canary_ok = 1;
    if (k && vkat_kernel_run(k, one, NULL, 10000000000ull, &err) == VKAT_OK &&
        vkat_workspace_read_canary(ws, 1, &canary_ok, &err) == VKAT_OK) {
        char where[200];
        CHECK(!canary_ok);
        CHECK_CONTAINS(vkat_workspace_guard_hit(ws, 1, where, sizeof where),
                       "wrote past the end of buffer 'dst' (from the first byte after it)");
    } else {
        CHECK_MSG(0, "%s", err.message);
    }
    vkat_kernel_destroy(k);
    vkat_workspace_destroy(ws);
}

/* Views beyond maxTexelBufferElements are refused by name before anything is made; an output's guard counts. */
static void test_limits(vkat_gpu *gpu)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(gpu->physical, &props);
    uint64_t max = props.limits.maxTexelBufferElements;
    vkat_buffer_spec big = texel_spec("big", "r8", max + 1, VKAT_INIT_ZERO, VKAT_DIR_IN, 1);
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    vkat_result r = vkat_workspace_create(gpu, &big, 1, 1, &ws, &err);
    CHECK_MSG(r == VKAT_ERR_LIMITS && strstr(err.message, "texel buffer 'big' needs a view of") &&
                  strstr(err.message, "beyond the device's maxTexelBufferElements"),
              "%d: %s", r, err.message);
    vkat_workspace_destroy(ws);
    big = texel_spec("big", "r8", max, VKAT_INIT_ZERO, VKAT_DIR_OUT, 0);
    r = vkat_workspace_create(gpu, &big, 1, 1, &ws, &err);
    CHECK_MSG(r == VKAT_ERR_LIMITS && strstr(err.message, "(a guard after its data included)"), "%d: %s", r,
              err.message);
    vkat_workspace_destroy(ws);
}

int main(void)
{
    vkat_instance *inst;
    vkat_gpu *gpu = test_open_gpu(&inst);
    if (gpu) {
        test_views(gpu);
        test_limits(gpu);
    }
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    TEST_END();
}
