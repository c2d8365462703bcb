/* sets_test.c — the runtime tuner on candidates of one descriptor layout: buffers in two descriptor sets with gaps in
 * the binding numbers (tests/data/unmodified/axpy_sets.ini: Y in set 1, X and Z at bindings 2 and 5 of set 0), or a
 * uniform block (affine_ubo.ini); built by sets_e2e.sh against the header `vkautotune export --candidates` wrote,
 * with EXPECT_IN_SET1 the bindings the export must put in set 1. Every candidate must run with its layout and agree
 * with the reference candidate, and one is chosen; with HALF_GRID_IS_WRONG, a candidate that dispatches half the
 * grid is added and must be found wrong.
 *   sets_test      exit 0: all passed, 1: a check failed, 77: no device */
#define _POSIX_C_SOURCE 200809L
#include "test_vulkan.h"

#include <string.h>

#include VKAT_KERNELS_HEADER

int main(void)
{
    vkat_rt_vulkan vk;
    PFN_vkDestroyDevice destroy_device;
    int opened = test_vulkan_open(&vk, &destroy_device);
    if (opened)
        return opened;
    const vkat_rt_table *table = &VKAT_KERNELS_TABLE;
    int failures = 0;
    uint32_t in_set1 = 0;
    for (uint32_t i = 0; i < table->variants[0].binding_count; i++)
        in_set1 += table->variants[0].bindings[i].set == 1;
    if (in_set1 != EXPECT_IN_SET1) {
        printf("FAIL: the export puts %u bindings in set 1; expected %d\n", in_set1, EXPECT_IN_SET1);
        failures++;
    }
#if HALF_GRID_IS_WRONG
    /* For a kernel of one invocation per output element: a candidate like the reference that dispatches half its
     * workgroups along x leaves outputs unwritten, so it must be checked wrong and never chosen. Were the inputs
     * not uploaded (or images not read), every candidate would agree on nothing and this one too. */
    static vkat_rt_variant variants[VKAT_RT_MAX_CANDIDATES + 1];
    static vkat_rt_check checks[VKAT_RT_MAX_CANDIDATES + 1];
    uint32_t n = table->count < VKAT_RT_MAX_CANDIDATES ? table->count : VKAT_RT_MAX_CANDIDATES;
    memcpy(variants, table->variants, n * sizeof *variants);
    memcpy(checks, table->checks, n * sizeof *checks);
    vkat_rt_variant *half = &variants[n];
    *half = table->variants[0];
    checks[n] = table->checks[0];
    half->groups[0].count = 0; /* the tuned count, halved */
    half->tuned_groups[0] = half->tuned_groups[0] > 1 ? half->tuned_groups[0] / 2 : 1;
    half->flags = VKAT_RT_CANDIDATE_ONLY;
    half->config = "HALF GRID";
    vkat_rt_table with_half = {VKAT_RT_TABLE_VERSION, "sets_test", variants, n + 1, checks};
    table = &with_half;
#endif
    vkat_rt_tune_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.kernel = table->variants[0].kernel;
    desc.problem = table->variants[0].problem;
    desc.problem_count = table->variants[0].problem_count;
    desc.enabled_features = test_vulkan_features;
    desc.time_limit_s = 10;
    desc.repetitions = 3;
    desc.warmup = 1;
    const vkat_rt_variant *pick = NULL;
    vkat_rt_tune_report rep;
    vkat_rt_result r = vkat_rt_tune(table, &vk, &desc, &pick, &rep);
    printf("tune: %s; %s; %s\n", vkat_rt_result_string(r), pick ? pick->config : "nothing chosen", rep.detail);
    if (r != VKAT_RT_OK || !pick || rep.count < 2) {
        printf("FAIL: %u candidates measured\n", rep.count);
        failures++;
    }
    for (uint32_t i = 0; i < rep.count; i++) {
        printf("  %-24s %s  %s\n", rep.candidates[i].variant->config, vkat_rt_result_string(rep.candidates[i].status),
               rep.candidates[i].detail);
        int half_grid = strcmp(rep.candidates[i].variant->config, "HALF GRID") == 0;
        if (half_grid ? rep.candidates[i].status != VKAT_RT_ERR_CHECK || pick == rep.candidates[i].variant
                      : rep.candidates[i].status != VKAT_RT_OK) {
            printf("FAIL: %s\n", half_grid ? "the half-grid candidate was not found wrong, or was chosen"
                                           : "a candidate did not run");
            failures++;
        }
    }
    destroy_device(vk.device, NULL);
    printf(failures ? "sets_test: %d failure(s)\n" : "sets_test: ok\n", failures);
    return failures ? 1 : 0;
}
