/* test_api.c — the public header as a program sees it (include/vkautotune.h only, no internal header): versions,
 * the tuning description's defaults, a space through its accessors, checking and compiling one configuration for
 * no device, counting (exact, with shards, with visits), a sequence's description, strategy names, the tuning run's
 * checks and device grouping (nothing is measured), and vkat_write_file. */
#include "test.h"
#include "vkautotune.h"

#include <unistd.h>

#define DATA VKAT_SOURCE_DIR "/tests/data"

static void test_version_and_defaults(void)
{
    CHECK(vkat_version() == VKAT_VERSION);
    CHECK_STR(vkat_version_string(), VKAT_VERSION_STRING);
    vkat_tune_desc d = vkat_tune_desc_defaults();
    CHECK(d.budget == 100);
    CHECK(d.warmup_s == 0.2);
    CHECK(d.warmup_min_s == 0.02);
    CHECK(d.min_sample_s == 1e-4);
    CHECK(d.repetitions == 10);
    CHECK(d.kernel_timeout_s == 10);
    CHECK(d.race_tolerance == 0.01);
    CHECK(!d.no_race);
    CHECK_STR(d.db_path, "vkautotune.db");
    CHECK(d.space_path == NULL && d.inst == NULL && d.logger.func == NULL);
}

static void test_space(vkat_space *s)
{
    CHECK_STR(vkat_space_kernel_name(s), "scale");
    CHECK_CONTAINS(vkat_space_path(s), "tests/data/tune/scale.ini");
    CHECK(vkat_space_param_count(s) == 4);
    CHECK(vkat_space_raw_count(s) == 36);
    CHECK(vkat_space_pass_count(s) == 0);
    CHECK(vkat_space_constraint_count(s) == 1);
    int line = 0;
    const char *name = vkat_space_constraint(s, 0, &line);
    CHECK(name && !strcmp(name, "divides") && line == 16);
    CHECK(vkat_space_constraint(s, 1, NULL) == NULL);
    char buf[96];
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "N=4096");
    CHECK_STR(vkat_space_format_raw(s, buf, sizeof buf), "36");
    double in = 0, out = 0;
    vkat_error err = {0};
    CHECK(vkat_space_transfer_bytes(s, NULL, &in, &out, &err) == VKAT_OK);
    CHECK(in == 4096 * 4 && out == 4096 * 4);
}

static void test_check_and_compile(vkat_space *s)
{
    vkat_error err = {0};
    long failed = 7;
    CHECK(vkat_space_check_config(s, NULL, "WG=128,UNROLL=4", &failed, &err) == VKAT_OK && failed == -1);
    CHECK(vkat_space_set_problem(s, "N=96", &err) == VKAT_OK);
    CHECK(vkat_space_check_config(s, NULL, "WG=128", &failed, &err) == VKAT_OK && failed == 0);
    CHECK(vkat_space_check_config(s, NULL, "WG=5", &failed, &err) != VKAT_OK);
    CHECK_CONTAINS(err.message, "WG");

    vkat_space_count c;
    vkat_count_desc cd = {0};
    cd.exact = 1;
    CHECK(vkat_space_count_configs(s, NULL, &cd, &c, &err) == VKAT_OK);
    /* N = 96: only WG=32, UNROLL=1 divides it, times BUG and OOB. */
    CHECK(c.exact && c.raw == 36 && c.valid == 4 && c.valid_in_shard == 4 && c.removed[0] == 32);
    vkat_space_count_free(&c);
    CHECK(c.removed == NULL);
    uint64_t in_shards = 0;
    for (uint32_t k = 0; k < 2; k++) {
        cd.shard_index = k;
        cd.shard_count = 2;
        CHECK(vkat_space_count_configs(s, NULL, &cd, &c, &err) == VKAT_OK && c.valid == 4);
        in_shards += c.valid_in_shard;
        vkat_space_count_free(&c);
    }
    CHECK(in_shards == 4);
    CHECK(vkat_space_set_problem(s, "N=4096", &err) == VKAT_OK);
    vkat_count_desc census = {0}; /* the dry run's census: exact here, the space is small */
    CHECK(vkat_space_count_configs(s, NULL, &census, &c, &err) == VKAT_OK);
    CHECK(c.exact && c.valid == 36 && c.fraction == 1.0 && c.removed[0] == 0);
    vkat_space_count_free(&c);

    vkat_compiled *compiled = NULL;
    CHECK(vkat_space_compile(s, NULL, "UNROLL=2", &compiled, &err) == VKAT_OK);
    if (!compiled)
        return;
    size_t n = 0;
    const uint32_t *words = vkat_compiled_words(compiled, &n);
    CHECK(n > 5 && words[0] == 0x07230203u); /* the SPIR-V magic number */
    CHECK_STR(vkat_compiled_config(compiled), "WG=32,UNROLL=2,BUG=0,OOB=0");
    CHECK(vkat_compiled_failed_constraint(compiled) == -1);
    char *text = NULL;
    CHECK(vkat_compiled_disassemble(compiled, &text, &err) == VKAT_OK && text && strstr(text, "OpEntryPoint"));
    free(text);
    vkat_compiled_destroy(compiled);
    vkat_compiled_destroy(NULL);
}

static void test_sequence(void)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK(vkat_space_load(DATA "/sequence/reduce.ini", &s, &err) == VKAT_OK);
    if (!s)
        return;
    CHECK(vkat_space_pass_count(s) == 1);
    char text[256];
    size_t n = 0;
    /* N = 1000, B = 16: passes while 16^pass < 1000, each cdiv(1000, 16^(pass + 1)) groups. */
    CHECK(vkat_space_describe_sequence(s, NULL, "B=16,BUG=0", &n, text, sizeof text, &err) == VKAT_OK);
    CHECK(n == 3);
    CHECK_STR(text, " reduce[0] 63x1x1, reduce[1] 4x1x1, reduce[2] 1x1x1");
    vkat_space_destroy(s);
}

static void test_strategies(void)
{
    size_t n = 0;
    while (vkat_strategy_name(n))
        n++;
    CHECK(n >= 2);
    CHECK(vkat_strategy_exists("exhaustive") && vkat_strategy_exists("random"));
    CHECK(!vkat_strategy_exists("nope") && !vkat_strategy_exists(NULL));
}

/* The run's checks and its grouping; nothing is executed. */
static void test_tune_run(void)
{
    vkat_tune_desc d = vkat_tune_desc_defaults();
    vkat_tune_run *run = NULL;
    vkat_error err = {0};
    d.space_path = DATA "/tune/scale.ini";
    CHECK(vkat_tune_run_create(&d, &run, &err) == VKAT_ERR_USAGE && run == NULL); /* no device */
    vkat_instance *inst = NULL;
    if (vkat_instance_create(&inst, &err) != VKAT_OK) {
        printf("no Vulkan device (%s): the tuning run's grouping is not checked\n", err.message);
        return;
    }
    char db[] = "/tmp/vkat-api-XXXXXX";
    int fd = mkstemp(db);
    if (fd >= 0)
        close(fd);
    uint32_t twice[2] = {0, 0};
    d.inst = inst;
    d.devices = twice;
    d.device_count = 2;
    d.db_path = db;
    d.strategy = "nope";
    CHECK(vkat_tune_run_create(&d, &run, &err) == VKAT_ERR_USAGE);
    d.strategy = NULL;
    d.problem = "Q=1";
    CHECK(vkat_tune_run_create(&d, &run, &err) == VKAT_ERR_USAGE);
    CHECK_CONTAINS(err.message, "unknown problem size 'Q'");
    d.problem = "N=1024";
    CHECK(vkat_tune_run_create(&d, &run, &err) == VKAT_OK);
    if (run) {
        /* The same device twice is two identical devices: one group sharing one search. */
        CHECK(vkat_tune_run_group_count(run) == 1);
        const vkat_tune_group *g = vkat_tune_run_group(run, 0);
        CHECK(g && g->device_count == 2 && g->devices[0] == 0 && g->devices[1] == 0);
        CHECK(vkat_tune_run_group(run, 1) == NULL);
        CHECK(vkat_tune_run_store(run) != NULL);
    }
    vkat_tune_run_destroy(run);
    vkat_tune_run_destroy(NULL);
    vkat_instance_destroy(inst);
    unlink(db);
    char wal[64];
    snprintf(wal, sizeof wal, "%s-wal", db);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", db);
    unlink(wal);
}

static void test_write_file(void)
{
    char dir[] = "/tmp/vkat-api-dir-XXXXXX";
    if (!mkdtemp(dir))
        return;
    char path[128];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    vkat_error err = {0};
    CHECK(vkat_write_file(path, "abc", 3, &err) == VKAT_OK);
    FILE *f = fopen(path, "rb");
    char buf[8] = {0};
    CHECK(f && fread(buf, 1, sizeof buf, f) == 3 && !memcmp(buf, "abc", 3));
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/missing/out.bin", dir);
    CHECK(vkat_write_file(path, "abc", 3, &err) == VKAT_ERR_IO);
    CHECK_CONTAINS(err.file[0] ? err.file : err.message, "missing");
    snprintf(path, sizeof path, "%s/out.bin", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_version_and_defaults();
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK(vkat_space_load(DATA "/tune/scale.ini", &s, &err) == VKAT_OK);
    if (s) {
        test_space(s);
        test_check_and_compile(s);
    }
    vkat_space_destroy(s);
    test_sequence();
    test_strategies();
    test_tune_run();
    test_write_file();
    TEST_END();
}
