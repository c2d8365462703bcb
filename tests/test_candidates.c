/* test_candidates.c — which configurations export adds for runtime tuning (src/export/candidates.c): ranked by
 * their mean portability fraction over the exported series, a series where they failed or were not measured
 * counting 0; the winners' configurations never twice; the row taken from the series where the configuration does
 * best; nothing when the winners already fill the set. A store on disk, two devices tuned at different problems. */
#include "candidates.h"
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

static void put(vkat_store *st, const char *device, const char *problem, const char *config, vkat_status status,
                double median_ms)
{
    vkat_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.device.name, sizeof r.device.name, "%s", device);
    snprintf(r.device.vendor, sizeof r.device.vendor, "Mesa");
    r.device.vendor_id = 0x10005;
    r.device.device_id = device[0];
    snprintf(r.device.driver_uuid, sizeof r.device.driver_uuid, "6c6c766d-7069-7065-5555-494400000000");
    snprintf(r.kernel, sizeof r.kernel, "gemm");
    snprintf(r.template_hash, sizeof r.template_hash, "0123456789abcdef");
    snprintf(r.space_hash, sizeof r.space_hash, "fedcba9876543210");
    snprintf(r.problem, sizeof r.problem, "%s", problem);
    snprintf(r.config, sizeof r.config, "%s", config);
    r.status = status;
    r.median_s = r.min_s = median_ms * 1e-3;
    r.samples = 5;
    vkat_error err = {0};
    CHECK_MSG(vkat_store_put(st, &r, &err) == VKAT_OK, "%s", err.message);
}

int main(void)
{
    char dir[] = "/tmp/vkat-test-candidates-XXXXXX", path[128];
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed\n");
        return 1;
    }
    snprintf(path, sizeof path, "%s/c.db", dir);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_store_open(path, &st, &err) == VKAT_OK, "%s", err.message);
    if (!st)
        TEST_END();
    /* A's winner is c1, B's c2. Mean fractions of the others: c3 (1/2 + 1/1.05) / 2 = 0.726, c5 (1/1.2 + 0) / 2 =
     * 0.417 (B never measured it), c4 (1/1.5 + 0) / 2 = 0.333 (it failed its check on B), c6 (1/4 + 1/4) / 2. */
    put(st, "A", "M=64", "c1", VKAT_STATUS_OK, 1.0);
    put(st, "A", "M=64", "c2", VKAT_STATUS_OK, 1.1);
    put(st, "A", "M=64", "c3", VKAT_STATUS_OK, 2.0);
    put(st, "A", "M=64", "c4", VKAT_STATUS_OK, 1.5);
    put(st, "A", "M=64", "c5", VKAT_STATUS_OK, 1.2);
    put(st, "A", "M=64", "c6", VKAT_STATUS_OK, 4.0);
    put(st, "B", "M=128", "c2", VKAT_STATUS_OK, 1.0);
    put(st, "B", "M=128", "c1", VKAT_STATUS_OK, 3.0);
    put(st, "B", "M=128", "c3", VKAT_STATUS_OK, 1.05);
    put(st, "B", "M=128", "c4", VKAT_STATUS_WRONG, 0.5);
    put(st, "B", "M=128", "c6", VKAT_STATUS_OK, 4.0);
    /* Another problem on B, not exported: its rows must not count. */
    put(st, "B", "M=999", "c6", VKAT_STATUS_OK, 0.1);

    vkat_row key, *winners = NULL;
    size_t nw = 0;
    memset(&key, 0, sizeof key);
    snprintf(key.kernel, sizeof key.kernel, "gemm");
    snprintf(key.template_hash, sizeof key.template_hash, "0123456789abcdef");
    snprintf(key.space_hash, sizeof key.space_hash, "fedcba9876543210");
    CHECK(vkat_store_winners(st, &key, &winners, &nw, &err) == VKAT_OK);
    /* Export only the two series A M=64 and B M=128. */
    vkat_row two[2];
    size_t n = 0;
    for (size_t i = 0; i < nw && n < 2; i++)
        if (strcmp(winners[i].problem, "M=999") != 0)
            two[n++] = winners[i];
    CHECK(n == 2 && !strcmp(two[0].config, "c1") && !strcmp(two[1].config, "c2"));

    vkat_candidate *c = NULL;
    size_t count = 0;
    CHECK(vkat_export_candidates(st, two, 2, 5, &c, &count, &err) == VKAT_OK);
    CHECK_MSG(count == 3, "%zu candidates", count);
    if (count == 3) {
        CHECK_STR(c[0].row.config, "c3");
        CHECK_STR(c[0].row.device.name, "B"); /* where it does best */
        CHECK(c[0].series == 1);
        CHECK(fabs(c[0].mean_fraction - (0.5 + 1 / 1.05) / 2) < 1e-9);
        CHECK_STR(c[1].row.config, "c5");
        CHECK(c[1].series == 0);
        CHECK(fabs(c[1].mean_fraction - (1 / 1.2) / 2) < 1e-9);
        CHECK_STR(c[2].row.config, "c4"); /* failed on B: counts 0 there */
        CHECK(fabs(c[2].mean_fraction - (1 / 1.5) / 2) < 1e-9);
    }
    free(c);
    /* The two winners already make 2: nothing more; 3: the best one. */
    CHECK(vkat_export_candidates(st, two, 2, 2, &c, &count, &err) == VKAT_OK && count == 0 && !c);
    CHECK(vkat_export_candidates(st, two, 2, 3, &c, &count, &err) == VKAT_OK && count == 1);
    if (count == 1)
        CHECK_STR(c[0].row.config, "c3");
    free(c);
    /* One series: its own ranking (fraction of its winner), the winner not repeated. */
    CHECK(vkat_export_candidates(st, two, 1, 3, &c, &count, &err) == VKAT_OK && count == 2);
    if (count == 2) {
        CHECK_STR(c[0].row.config, "c2");
        CHECK_STR(c[1].row.config, "c5");
    }
    free(c);
    free(winners);
    vkat_store_close(st);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    TEST_END();
}
