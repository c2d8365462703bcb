/* test_spills.c — vkat_stats_spills on driver statistics as vkat_pipeline_stats_text writes them: NVIDIA's, as the
 * H200 reported them for sgemm_wt variants with and without local memory (records/h200/s22-lead-call1), Mesa-style
 * spill counters, and texts that say nothing about it (lavapipe has no statistics at all). */
#include "test.h"
#include "vkautotune.h"

static const char nv_clean[] = "Register Count=128; Binary Size=23552; Stack Size=0; Local Memory Size=68719476736; "
                               "Shared Memory Size=16384";
static const char nv_spill[] = "Register Count=215; Binary Size=34432; Stack Size=0; Local Memory Size=68719477248; "
                               "Shared Memory Size=33792";

int main(void)
{
    char what[96] = "";
    CHECK(vkat_stats_spills(nv_clean, what, sizeof what) == 0);
    CHECK(vkat_stats_spills(nv_spill, what, sizeof what) == 1);
    CHECK_STR(what, "Local Memory Size 512 bytes");
    CHECK(vkat_stats_spills(nv_spill, NULL, 0) == 1);
    /* a driver that reports local memory without NVIDIA's offset */
    CHECK(vkat_stats_spills("Local Memory Size=48", what, sizeof what) == 1);
    CHECK_STR(what, "Local Memory Size 48 bytes");
    CHECK(vkat_stats_spills("Local Memory Size=0", what, sizeof what) == 0);

    /* counters named so by Mesa's drivers: any "spill" or "scratch" statistic, in any case */
    CHECK(vkat_stats_spills("SGPRs=32; VGPRs=40; Spilled SGPRs=0; Spilled VGPRs=0; Code size=1000", what,
                            sizeof what) == 0);
    CHECK(vkat_stats_spills("SGPRs=32; VGPRs=128; Spilled SGPRs=0; Spilled VGPRs=12; Code size=1000", what,
                            sizeof what) == 1);
    CHECK_STR(what, "Spilled VGPRs 12");
    CHECK(vkat_stats_spills("Instruction Count=90; Scratch Memory Size=1024", what, sizeof what) == 1);
    CHECK_STR(what, "Scratch Memory Size 1024");
    CHECK(vkat_stats_spills("Instruction Count=90; Spill count=0; Fill count=0", what, sizeof what) == 0);

    /* nothing that tells: no statistics, other names, values that are not numbers, broken text */
    CHECK(vkat_stats_spills("", what, sizeof what) == VKAT_SPILLS_UNKNOWN);
    CHECK(vkat_stats_spills(NULL, what, sizeof what) == VKAT_SPILLS_UNKNOWN);
    CHECK(vkat_stats_spills("Register Count=40; Binary Size=1000", what, sizeof what) == VKAT_SPILLS_UNKNOWN);
    CHECK(vkat_stats_spills("Local Memory Size=true; Spilled VGPRs=", what, sizeof what) == VKAT_SPILLS_UNKNOWN);
    CHECK(vkat_stats_spills(";;=; =5;Spill", what, sizeof what) == VKAT_SPILLS_UNKNOWN);
    /* the last statistic, with no "; " after it */
    CHECK(vkat_stats_spills("Register Count=40; Local Memory Size=68719476740", what, sizeof what) == 1);
    CHECK_STR(what, "Local Memory Size 4 bytes");
    TEST_END();
}
