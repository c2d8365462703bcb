/* test_robust.c — hand-written faulty kernels through the whole tuning run (tests/data/robust): the reference gets
 * the variants' push constants; a reference that leaves outputs unwritten is an error in the space, so that a
 * variant writing nothing can never match it; an integer output whose right value is the poison's pattern is not
 * taken for unwritten; writes up to 64 KiB past the end of an output are caught. (A write just before the start
 * is dropped by lavapipe's bounds checks, so test_check_gpu.c plants it in the front guard directly.) */
#include "test.h"
#include "tune.h"

#include <unistd.h>

static vkat_space *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, VKAT_SOURCE_DIR "/tests/data/robust/%s", name);
    vkat_error err = {0};
    vkat_space *s = NULL;
    vkat_result r = vkat_space_load(path, &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    return s;
}

static vkat_store *open_store(const char *dir, const char *name)
{
    char db[512];
    snprintf(db, sizeof db, "%s/%s", dir, name);
    vkat_error err = {0};
    vkat_store *st = NULL;
    CHECK_MSG(vkat_store_open(db, &st, &err) == VKAT_OK, "%s", err.message);
    return st;
}

static vkat_tune_opts quick_opts(void)
{
    vkat_tune_opts o = {0};
    o.strategy = "exhaustive";
    o.budget = 100;
    o.timing.warmup_s = 0.001;
    o.timing.repetitions = 1;
    o.race.disabled = 1; /* the counts below are of variants measured in full, none raced out */
    return o;
}

int main(void)
{
    vkat_error err = {0};
    vkat_instance *inst;
    if (vkat_instance_create(&inst, &err) != VKAT_OK)
        TEST_SKIP("no Vulkan device (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    uint32_t dev, n;
    CHECK(vkat_select_devices(inst, NULL, &dev, 1, &n, &err) == VKAT_OK);
    char tmp[] = "/tmp/vkat-test-robust-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    vkat_tune_opts opts = quick_opts();

    /* Each fault gets its verdict, whether outputs are checked on the host or on the device (which reads back the
     * guards alone); the correct variant passes because its reference saw k = 3 too. */
    vkat_space *faults = load("faults.ini");
    for (int where = 0; where < 2 && faults; where++) {
        vkat_store *st = open_store(tmp, where ? "faults_gpu.db" : "faults.db");
        if (st) {
            vkat_tune_opts o = opts;
            o.check_on = where ? VKAT_CHECK_GPU : VKAT_CHECK_HOST;
            vkat_tune_report rep;
            vkat_result r = vkat_tune_device(faults, inst, dev, st, &o, &rep, &err);
            CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
            static const struct {
                const char *config;
                vkat_status status;
                const char *reason;
            } want[] = {
                {"FAULT=0", VKAT_STATUS_OK, ""},
                {"FAULT=1", VKAT_STATUS_WRONG, "all 1024 elements unwritten"},
                {"FAULT=2", VKAT_STATUS_CANARY, "past the end of buffer 'OUT'"},
                {"FAULT=3", VKAT_STATUS_CANARY, "past the end of buffer 'OUT'"},
                {"FAULT=5", VKAT_STATUS_WRONG, "1 unwritten elements (first at 1023)"},
                {"FAULT=6", VKAT_STATUS_CANARY, "past the end of buffer 'OUT'"},
            };
            for (size_t i = 0; r == VKAT_OK && i < sizeof want / sizeof want[0]; i++) {
                vkat_row key = rep.key, row;
                snprintf(key.config, sizeof key.config, "%s", want[i].config);
                CHECK_MSG(vkat_store_get(st, &key, &row, &err) == 1, "%s not stored", want[i].config);
                CHECK_MSG(row.status == want[i].status, "%s: status %s (%s), want %s", want[i].config,
                          vkat_status_name(row.status), row.reason, vkat_status_name(want[i].status));
                CHECK_CONTAINS(row.reason, want[i].reason);
            }
            if (where)
                printf("device check: %llu of %llu checked runs passed on the device\n",
                       (unsigned long long)rep.times.checked_gpu, (unsigned long long)rep.times.checked);
        }
        vkat_store_close(st);
    }
    vkat_space_destroy(faults);
    vkat_store *st = NULL;

    /* A reference that writes half of OUT stops the run before any variant is stored ok: run before the search
     * (serial) and on the measuring thread while workers prepare the first variants (--jobs 2, tune.c). */
    vkat_space *lazy = load("lazy_ref.ini");
    for (unsigned jobs = 1; jobs <= 2; jobs++) {
        st = open_store(tmp, jobs == 1 ? "lazy.db" : "lazy2.db");
        if (lazy && st) {
            vkat_tune_report rep;
            vkat_tune_opts o = opts;
            o.jobs = jobs;
            memset(&err, 0, sizeof err);
            vkat_result r = vkat_tune_device(lazy, inst, dev, st, &o, &rep, &err);
            CHECK_MSG(r == VKAT_ERR_SPACE, "jobs %u: result %d: %s", jobs, (int)r, err.message);
            CHECK_CONTAINS(err.message, "the reference left 512 of 1024 elements of 'OUT' unwritten (first at 512)");
            CHECK_CONTAINS(err.file, "lazy_ref.ini");
            CHECK(err.line > 0);
            uint64_t counts[VKAT_STATUS_COUNT] = {0};
            if (vkat_store_counts(st, &rep.key, counts, &err) == VKAT_OK)
                CHECK(counts[VKAT_STATUS_OK] == 0);
        }
        vkat_store_close(st);
    }
    vkat_space_destroy(lazy);

    /* The poison's bits as the right answer: the second reference run shows them written; both variants pass. */
    vkat_space *pv = load("poison_value.ini");
    st = open_store(tmp, "poison.db");
    if (pv && st) {
        vkat_tune_report rep;
        vkat_result r = vkat_tune_device(pv, inst, dev, st, &opts, &rep, &err);
        CHECK_MSG(r == VKAT_OK, "%s", err.message);
        uint64_t counts[VKAT_STATUS_COUNT] = {0};
        CHECK(vkat_store_counts(st, &rep.key, counts, &err) == VKAT_OK);
        CHECK_MSG(counts[VKAT_STATUS_OK] == 2, "%llu ok", (unsigned long long)counts[VKAT_STATUS_OK]);
    }
    vkat_store_close(st);
    vkat_space_destroy(pv);

    vkat_instance_destroy(inst);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0);
    TEST_END();
}
