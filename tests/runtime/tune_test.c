/* tune_test.c — the runtime tuner (vkautotune_runtime_tune.h) on the exported GEMM's candidates, on whatever device
 * the loader offers (lavapipe in CI); built by tune_e2e.sh against the header `vkautotune export --candidates`
 * wrote. Checks that:
 *   - a candidate made wrong on purpose (the reference's configuration summing half of K: faster, and wrong) is never
 *     chosen,
 *   - a second call takes the pick from the cache file and measures nothing,
 *   - a cached pick of another driver version, or of another table, is not used (and is replaced),
 *   - a corrupted or truncated cache file is ignored and rewritten.
 *   tune_test CACHE_PATH      exit 0: all passed, 1: a check failed, 77: no device */
#define _POSIX_C_SOURCE 200809L
#define VK_NO_PROTOTYPES
#include "test_vulkan.h"
#include "vkautotune_runtime_tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include VKAT_KERNELS_HEADER

static int failures;
#define EXPECT(cond, ...)                                                                                         \
    do {                                                                                                         \
        if (!(cond)) {                                                                                           \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                          \
            printf(__VA_ARGS__);                                                                                 \
            printf("\n");                                                                                        \
            failures++;                                                                                          \
        }                                                                                                        \
    } while (0)

static void print_report(const char *what, vkat_rt_result r, const vkat_rt_tune_report *rep)
{
    printf("%s: %s; %s%s in %.3f s%s%s\n", what, vkat_rt_result_string(r),
           rep->chosen ? rep->chosen->config : "nothing chosen", rep->from_cache ? " from the cache" : "",
           rep->seconds, rep->detail[0] ? "; " : "", rep->detail);
    for (uint32_t i = 0; i < rep->count; i++)
        printf("  %-40s %-12s %8.4f ms  %s\n", rep->candidates[i].variant->config,
               rep->candidates[i].status ? "skipped" : "ok", rep->candidates[i].median_ms, rep->candidates[i].detail);
}

static int write_file(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static size_t read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tune_test CACHE_PATH\n");
        return 2;
    }
    const char *cache = argv[1];
    vkat_rt_vulkan vk;
    PFN_vkDestroyDevice destroy_device;
    int opened = test_vulkan_open(&vk, &destroy_device);
    if (opened)
        return opened;

    /* The exported table, and a copy with one more candidate: the reference's configuration made wrong. */
    const vkat_rt_table *table = &VKAT_KERNELS_TABLE;
    enum { MAX = 64 };
    static vkat_rt_variant variants[MAX];
    static vkat_rt_check checks[MAX];
    static vkat_rt_op half_ops[VKAT_RT_MAX_STACK];
    if (table->count + 1 > MAX || !table->checks) {
        printf("FAIL: the table has %u variants and %s checks\n", table->count, table->checks ? "" : "no");
        return 1;
    }
    uint32_t nonly = 0;
    for (uint32_t i = 0; i < table->count; i++)
        nonly += (table->variants[i].flags & VKAT_RT_CANDIDATE_ONLY) != 0;
    EXPECT(nonly >= 2, "the export has %u candidate-only variants; expected at least 2 (--candidates 4)", nonly);
    memcpy(variants, table->variants, table->count * sizeof *variants);
    memcpy(checks, table->checks, table->count * sizeof *checks);
    const int64_t *problem = table->variants[0].problem;
    uint32_t problem_count = table->variants[0].problem_count;
    vkat_rt_variant *broken = &variants[table->count];
    *broken = table->variants[0];
    checks[table->count] = table->checks[0];
    /* The last push constant (gemm.ini's k) halved: the product sums half of K, in half the time. */
    static vkat_rt_push_constant half_push[VKAT_RT_MAX_PUSH_BYTES / 4];
    uint32_t np = broken->push_constant_count;
    const vkat_rt_formula *pk = np ? &broken->push_constants[np - 1].value : NULL;
    if (!pk || pk->count == 0 || pk->count + 2 > VKAT_RT_MAX_STACK || np > VKAT_RT_MAX_PUSH_BYTES / 4) {
        printf("FAIL: the first variant's last push constant has no formula\n");
        return 1;
    }
    memcpy(half_push, broken->push_constants, np * sizeof *half_push);
    memcpy(half_ops, pk->ops, pk->count * sizeof *half_ops);
    half_ops[pk->count] = (vkat_rt_op){VKAT_RT_CONST, 2};
    half_ops[pk->count + 1] = (vkat_rt_op){VKAT_RT_DIV, 0};
    half_push[np - 1].value = (vkat_rt_formula){half_ops, pk->count + 2, "half of it"};
    broken->push_constants = half_push;
    broken->flags = VKAT_RT_CANDIDATE_ONLY;
    broken->config = "BROKEN: half of K";
    vkat_rt_table with_broken = {VKAT_RT_TABLE_VERSION, "tune_test", variants, table->count + 1, checks};
    vkat_rt_launch ok_launch, half_launch;
    uint32_t kk = 0, half_k = 0;
    EXPECT(vkat_rt_launch_eval(&table->variants[0], problem, problem_count, &ok_launch) == VKAT_RT_OK &&
               vkat_rt_launch_eval(broken, problem, problem_count, &half_launch) == VKAT_RT_OK,
           "the broken candidate does not evaluate");
    memcpy(&kk, ok_launch.push + 4 * (np - 1), 4);
    memcpy(&half_k, half_launch.push + 4 * (np - 1), 4);
    EXPECT(half_k * 2 == kk, "the broken candidate does not push half of K (%u of %u)", half_k, kk);

    vkat_rt_tune_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.kernel = table->variants[0].kernel;
    desc.problem = problem;
    desc.problem_count = problem_count;
    desc.cache_path = cache;
    desc.enabled_features = test_vulkan_features;
    desc.time_limit_s = 10;
    desc.repetitions = 3;
    desc.warmup = 1;
    const vkat_rt_variant *pick = NULL, *again = NULL;
    vkat_rt_tune_report rep;
    remove(cache);

    /* 1. The broken candidate is checked, skipped and never chosen. */
    vkat_rt_result r = vkat_rt_tune(&with_broken, &vk, &desc, &pick, &rep);
    print_report("first launch", r, &rep);
    EXPECT(r == VKAT_RT_OK && pick && !rep.from_cache, "the first launch did not measure and choose");
    EXPECT(pick != broken, "the broken candidate was chosen");
    EXPECT(rep.count >= 3, "only %u candidates were measured", rep.count);
    int seen_broken = 0;
    for (uint32_t i = 0; i < rep.count; i++)
        if (rep.candidates[i].variant == broken) {
            seen_broken = 1;
            EXPECT(rep.candidates[i].status == VKAT_RT_ERR_CHECK, "the broken candidate's status is '%s'",
                   vkat_rt_result_string(rep.candidates[i].status));
        } else {
            EXPECT(rep.candidates[i].status == VKAT_RT_OK, "candidate %s: %s", rep.candidates[i].variant->config,
                   rep.candidates[i].detail);
        }
    EXPECT(seen_broken, "the broken candidate was not among the candidates");
    EXPECT(rep.fallback == &variants[0] && rep.reference == &variants[0], "the reference is not the fallback");

    /* 2. The cache: the same pick, nothing measured. */
    r = vkat_rt_tune(&with_broken, &vk, &desc, &again, &rep);
    print_report("second launch", r, &rep);
    EXPECT(r == VKAT_RT_OK && rep.from_cache && again == pick && rep.count == 0,
           "the second launch did not use the cache");

    /* 3. A pick stored for another driver version is not used; tuning replaces it. */
    vkat_rt_device_identity id;
    EXPECT(vkat_rt_device_identity_get(&vk, &id) == VKAT_RT_OK, "no identity");
    vkat_rt_device_identity other = id;
    other.driver_version ^= 1;
    EXPECT(vkat_rt_cache_store(cache, &other, &with_broken, desc.kernel, problem, problem_count, broken, NULL, 0) ==
               VKAT_RT_OK, "cannot store");
    r = vkat_rt_tune(&with_broken, &vk, &desc, &again, &rep);
    print_report("another driver version in the cache", r, &rep);
    EXPECT(r == VKAT_RT_OK && !rep.from_cache && again != broken, "a pick of another driver version was used");
    const vkat_rt_variant *cached = NULL;
    EXPECT(vkat_rt_cache_lookup(cache, &id, &with_broken, desc.kernel, problem, problem_count, &cached) ==
               VKAT_RT_OK && cached == again, "the cache was not rewritten for this driver");

    /* 4. Another table (the export without the broken candidate: another hash) does not use that pick. */
    EXPECT(vkat_rt_table_hash(table) != vkat_rt_table_hash(&with_broken), "two tables with one hash");
    r = vkat_rt_tune(table, &vk, &desc, &again, &rep);
    print_report("another table", r, &rep);
    EXPECT(r == VKAT_RT_OK && !rep.from_cache, "a pick of another table was used");
    r = vkat_rt_tune(table, &vk, &desc, &again, &rep);
    EXPECT(r == VKAT_RT_OK && rep.from_cache, "the new table's pick was not cached");

    /* 5. A corrupted cache (one byte changed, then a truncated file, then garbage) is ignored and rewritten. */
    char buf[8192];
    size_t n = read_file(cache, buf, sizeof buf);
    EXPECT(n > 40, "the cache file has %zu bytes", n);
    const char *damage[3] = {"flip", "truncate", "garbage"};
    for (int d = 0; d < 3 && n > 40; d++) {
        char bad[8192];
        size_t bn = n;
        memcpy(bad, buf, n);
        if (d == 0)
            bad[n / 2] ^= 0x01;
        else if (d == 1)
            bn = n - 20;
        else
            bn = (size_t)snprintf(bad, sizeof bad, "\x7f\x45garbage\n\n\n");
        EXPECT(write_file(cache, bad, bn), "cannot write %s", cache);
        r = vkat_rt_tune(table, &vk, &desc, &again, &rep);
        printf("cache damaged (%s): %s, %s\n", damage[d], vkat_rt_result_string(r),
               rep.from_cache ? "from the cache" : "measured again");
        EXPECT(r == VKAT_RT_OK && !rep.from_cache && again, "a damaged cache (%s) was used", damage[d]);
        EXPECT(vkat_rt_cache_lookup(cache, &id, table, desc.kernel, problem, problem_count, &cached) == VKAT_RT_OK &&
                   cached == again, "the damaged cache (%s) was not rewritten", damage[d]);
    }

    /* 6. The broken one as the fallback (first in the table, with the winner's flags): the reference itself is
     * wrong. The other candidates agree with each other, outvote it, and it is still not chosen. */
    static vkat_rt_variant first_broken[MAX];
    static vkat_rt_check first_checks[MAX];
    first_broken[0] = *broken;
    first_broken[0].flags = table->variants[0].flags;
    first_checks[0] = table->checks[0];
    memcpy(first_broken + 1, table->variants, table->count * sizeof *first_broken);
    memcpy(first_checks + 1, table->checks, table->count * sizeof *first_checks);
    vkat_rt_table broken_first = {VKAT_RT_TABLE_VERSION, "tune_test", first_broken, table->count + 1, first_checks};
    desc.cache_path = NULL;
    r = vkat_rt_tune(&broken_first, &vk, &desc, &again, &rep);
    print_report("the broken candidate as the fallback", r, &rep);
    EXPECT(rep.fallback == &first_broken[0], "the broken candidate is not the fallback");
    EXPECT(r == VKAT_RT_OK && again && again != &first_broken[0], "the broken fallback was chosen");
    EXPECT(rep.reference && rep.reference != &first_broken[0], "the broken fallback stayed the reference");
    EXPECT(rep.count >= 1 && rep.candidates[0].variant == &first_broken[0] &&
               rep.candidates[0].status == VKAT_RT_ERR_CHECK && strstr(rep.candidates[0].detail, "outvoted"),
           "the broken fallback was not outvoted: %s", rep.count ? rep.candidates[0].detail : "");
    desc.cache_path = cache;

    /* 7. The application's own inputs: used when big enough (every candidate still agrees), refused with the
     * binding's name when too small; a candidate needing an extension that is not enabled is skipped. */
    desc.cache_path = NULL;
    vkat_rt_launch l0;
    vkat_rt_input inputs[VKAT_RT_MAX_BINDINGS];
    memset(inputs, 0, sizeof inputs);
    static float app_data[2][1 << 16];
    EXPECT(vkat_rt_launch_eval(&table->variants[0], problem, problem_count, &l0) == VKAT_RT_OK &&
               table->variants[0].binding_count >= 2 && l0.buffer_bytes[0] <= sizeof app_data[0] &&
               l0.buffer_bytes[1] <= sizeof app_data[1],
           "the GEMM's inputs do not fit the test's arrays");
    for (int b = 0; b < 2; b++) {
        for (size_t i = 0; i < sizeof app_data[b] / sizeof app_data[b][0]; i++)
            app_data[b][i] = (float)((i * 7 + (size_t)b) % 13) / 13.0f - 0.5f;
        inputs[b] = (vkat_rt_input){app_data[b], (size_t)l0.buffer_bytes[b]};
    }
    desc.inputs = inputs;
    desc.input_count = 2;
    r = vkat_rt_tune(&with_broken, &vk, &desc, &again, &rep);
    print_report("the application's inputs", r, &rep);
    EXPECT(r == VKAT_RT_OK && again && again != broken, "with the application's inputs: %s", rep.detail);
    inputs[1].bytes = 8;
    r = vkat_rt_tune(table, &vk, &desc, &again, &rep);
    printf("too small an input: %s: %s\n", vkat_rt_result_string(r), rep.detail);
    EXPECT(r == VKAT_RT_ERR_ARGUMENT && strstr(rep.detail, table->variants[0].bindings[1].name) &&
               strstr(rep.detail, "8 bytes"),
           "too small an input was not refused clearly");
    desc.inputs = NULL;
    desc.input_count = 0;
    static const char *const fake_ext[] = {"VK_KHR_not_enabled_here", NULL};
    static vkat_rt_variant needs_ext[MAX];
    memcpy(needs_ext, table->variants, table->count * sizeof *needs_ext);
    needs_ext[1].extensions = fake_ext;
    vkat_rt_table ext_table = {VKAT_RT_TABLE_VERSION, "tune_test", needs_ext, table->count, table->checks};
    r = vkat_rt_tune(&ext_table, &vk, &desc, &again, &rep);
    EXPECT(r == VKAT_RT_OK && again != &needs_ext[1], "a candidate needing an extension that is not enabled ran");
    int skipped_ext = 0;
    for (uint32_t i = 0; i < rep.count; i++)
        skipped_ext |= rep.candidates[i].variant == &needs_ext[1] &&
                       rep.candidates[i].status == VKAT_RT_ERR_UNSUPPORTED &&
                       strstr(rep.candidates[i].detail, "VK_KHR_not_enabled_here") != NULL;
    EXPECT(skipped_ext, "the candidate needing an extension was not skipped with its name");
    /* A candidate binding a texel buffer where the reference has a plain buffer is skipped: one run has one layout. */
    static vkat_rt_binding texel_bindings[VKAT_RT_MAX_BINDINGS];
    memcpy(needs_ext, table->variants, table->count * sizeof *needs_ext);
    memcpy(texel_bindings, needs_ext[1].bindings, needs_ext[1].binding_count * sizeof *texel_bindings);
    texel_bindings[0].image_format = "r32f";
    texel_bindings[0].texel_buffer = 1;
    needs_ext[1].bindings = texel_bindings;
    r = vkat_rt_tune(&ext_table, &vk, &desc, &again, &rep);
    print_report("a texel buffer in one candidate", r, &rep);
    EXPECT(r == VKAT_RT_OK && again != &needs_ext[1], "a candidate binding a texel buffer ran");
    int skipped_texel = 0;
    for (uint32_t i = 0; i < rep.count; i++)
        skipped_texel |= rep.candidates[i].variant == &needs_ext[1] &&
                         rep.candidates[i].status == VKAT_RT_ERR_ARGUMENT &&
                         strstr(rep.candidates[i].detail, "bindings differ") != NULL;
    EXPECT(skipped_texel, "the candidate binding a texel buffer was not skipped for its other bindings");

    /* 8. A time limit that the reference uses up: the others are skipped as such and the reference is chosen. */
    desc.time_limit_s = 1e-9;
    r = vkat_rt_tune(table, &vk, &desc, &again, &rep);
    print_report("a time limit of 1 ns", r, &rep);
    EXPECT(r == VKAT_RT_OK && again == &table->variants[0] && rep.count >= 2, "the reference was not chosen");
    for (uint32_t i = 1; i < rep.count; i++)
        EXPECT(rep.candidates[i].status == VKAT_RT_ERR_TIME_LIMIT, "candidate %u: %s", i, rep.candidates[i].detail);
    desc.time_limit_s = 10;
    desc.cache_path = cache;

    /* 9. Errors are clear: no checks in the table. */
    vkat_rt_table old = {VKAT_RT_TABLE_VERSION, "old", table->variants, table->count, NULL};
    r = vkat_rt_tune(&old, &vk, &desc, &again, &rep);
    EXPECT(r == VKAT_RT_ERR_NO_TUNE_DATA, "a table without checks: %s", vkat_rt_result_string(r));

    destroy_device(vk.device, NULL);
    printf(failures ? "tune_test: %d failure(s)\n" : "tune_test: ok\n", failures);
    return failures ? 1 : 0;
}
