/* test_replay_files.c — recorded tables that replay has not been tuned on (tests/data/replay/, written for these
 * tests in Kernel Tuner's own layout): values as Python writes them (floats, booleans, None, strings with commas),
 * entries that failed or carry no time, a cache a stopped run left unclosed or cut short, Kernel Tuner's cache
 * schema 1.0.0 and a newer one, T4 results, and an objective other than time. Each is read correctly or refused
 * with the file and line. */
#include "replay.h"
#include "test.h"

#define DATA VKAT_SOURCE_DIR "/tests/data/replay/"

static vkat_replay_table *load(const char *name, vkat_result want, vkat_error *err)
{
    vkat_replay_table *t = NULL;
    memset(err, 0, sizeof *err);
    vkat_result r = vkat_replay_load(name, NULL, &t, err);
    CHECK_MSG(r == want, "%s: result %d, want %d (%s)", name, (int)r, (int)want, err->message);
    return t;
}

/* Keys are Python's str() of each value: "0.1" and "1e-05" (not %.17g), "1.0" beside the int 1, "True", "None",
 * and a string holding a comma ("a,b") or empty. The values read back as those texts. */
static void python_values(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "python_values.json", VKAT_OK, &err);
    if (!t)
        return;
    static const char *const want[5][3] = {
        {"0.1", "1e-05", "1.0"}, {"True", "False"}, {"1", "2.0", "auto"}, {"None", "4"}, {"a,b", ""}};
    CHECK(t->param_count == 5 && t->raw_count == 72 && t->valid == 64 && t->failed == 0);
    for (size_t p = 0; p < 5 && p < t->param_count; p++)
        for (size_t j = 0; j < t->value_counts[p]; j++)
            CHECK_STR(t->values[p][j], want[p][j]);
    CHECK(!t->categorical[0] && t->categorical[1] && t->categorical[2] && t->categorical[3] && t->categorical[4]);
    CHECK(fabs(t->best_s - 0.5e-3) < 1e-12);
    uint32_t best[5] = {1, 1, 1, 0, 0}, absent[5] = {2, 0, 2, 0, 0};
    double s;
    CHECK(vkat_replay_lookup(t, best, &s) == 1 && s == t->best_s);
    CHECK(vkat_replay_lookup(t, absent, &s) == 0);
    char buf[256];
    vkat_replay_format(t, best, buf, sizeof buf);
    CHECK_STR(buf, "alpha=1e-05,flag=False,mix=2.0,opt=None,s=a,b");
    vkat_replay_free(t);
}

/* A list (a Python tuple) has no str() a key can be split by: refused, naming the parameter and its line. */
static void list_values(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "list_value.json", VKAT_ERR_SYNTAX, &err);
    CHECK_MSG(err.line == 5, "line %d", err.line);
    CHECK_CONTAINS(err.message, "tune_params 'B': value 1 is a list");
    vkat_replay_free(t);
}

/* A value listed twice is one key for two raw configurations (Kernel Tuner measured it once): kept once, so that
 * the copy's half of the space does not count as missing (raw 2, not 3). */
static void duplicate_values(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "duplicate_value.json", VKAT_OK, &err);
    if (!t)
        return;
    CHECK_MSG(t->raw_count == 2 && t->value_counts[0] == 2 && t->valid == 2, "raw %llu",
              (unsigned long long)t->raw_count);
    vkat_replay_free(t);
}

/* Times: a number scores; the error strings, 1e20, NaN and 0 fail (one evaluation each); InvalidConfig and an
 * entry without a time are missing. An entry that is no object is refused at its line. */
static void times(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "times.json", VKAT_OK, &err);
    if (t) {
        CHECK_MSG(t->raw_count == 10 && t->valid == 2 && t->failed == 5, "%llu valid, %llu failed",
                  (unsigned long long)t->valid, (unsigned long long)t->failed);
        CHECK(t->best_s == 2e-3);
        for (uint32_t a = 0; a < 10; a++) {
            double s;
            int in = vkat_replay_lookup(t, &a, &s);
            CHECK_MSG(in == (a != 2 && a != 6 && a != 9), "A=%u in the table: %d", a + 1, in);
        }
        vkat_replay_free(t);
    }
    t = load(DATA "entry_not_object.json", VKAT_ERR_SYNTAX, &err);
    CHECK(err.line == 24);
    CHECK_CONTAINS(err.message, "cache entry '2' is not an object");
    vkat_replay_free(t);
}

/* A cache a stopped Kernel Tuner run left (entries, each with its comma, and no closing braces) is closed as
 * Kernel Tuner closes it; one cut inside an entry is refused at its last line; a key that matches no value names
 * its line. */
static void unclosed_and_cut(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "unclosed.json", VKAT_OK, &err);
    if (t) {
        CHECK(t->raw_count == 4 && t->valid == 3 && t->best_s == 1e-3);
        vkat_replay_free(t);
    }
    t = load(DATA "cut.json", VKAT_ERR_SYNTAX, &err);
    CHECK_MSG(err.line == 22, "line %d", err.line);
    CHECK_CONTAINS(err.message, "ends inside an entry");
    vkat_replay_free(t);
    t = load(DATA "bad_key.json", VKAT_ERR_SYNTAX, &err);
    CHECK_MSG(err.line == 22, "line %d", err.line);
    CHECK_CONTAINS(err.message, "cache key '2,3' does not match");
    vkat_replay_free(t);
}

/* Kernel Tuner's cache schema 1.0.0 (entries carry the parameters, times and timings) reads as the old one; a
 * schema_version it does not know is refused; T4 results ({"results": [...]}) read, their values from the records
 * (B's 0.5 and 1.0 as Python writes them), "constraints" missing, "compile" and "runtime" failed. */
static void schemas(void)
{
    vkat_error err;
    vkat_replay_table *t = load(DATA "schema1.json", VKAT_OK, &err);
    if (t) {
        CHECK(t->raw_count == 4 && t->valid == 3 && t->failed == 1 && t->best_s == 1.25e-3);
        vkat_replay_free(t);
    }
    t = load(DATA "schema2.json", VKAT_ERR_SYNTAX, &err);
    CHECK_CONTAINS(err.message, "schema_version '2.0.0'");
    vkat_replay_free(t);
    t = load(DATA "t4.json", VKAT_OK, &err);
    if (t) {
        CHECK(t->param_count == 2 && t->raw_count == 6 && t->valid == 3 && t->failed == 2);
        CHECK(t->best_s == 1.25e-3);
        CHECK(t->value_counts[1] == 2 && !strcmp(t->values[1][0], "0.5") && !strcmp(t->values[1][1], "1.0"));
        uint32_t constraints[2] = {2, 0};
        double s;
        CHECK(vkat_replay_lookup(t, constraints, &s) == 0);
        vkat_replay_free(t);
    }
}

/* ---- beyond vkat_replay_load: objectives and what was read as missing ---------------------------------------- */

/* The file's objective (GFLOP/s, higher is better) is scored: the optimum is the most GFLOP/s, not the least time,
 * and the fraction found / best. Without a direction it is refused unless the caller gives one; --objective time
 * scores time instead. The counts of entries read as missing are kept. */
static void objectives(void)
{
    vkat_error err = {0};
    vkat_replay_table *t = NULL;
    CHECK(vkat_replay_open(DATA "gflops.json", NULL, &t, &err) == VKAT_OK);
    if (t) {
        CHECK_STR(t->objective, "GFLOP/s");
        CHECK(t->higher_is_better && !t->time && t->valid == 3 && t->failed == 1);
        CHECK(vkat_replay_value(t, t->best_s) == 300);
        CHECK_STR(vkat_replay_unit(t), "GFLOP/s");
        uint32_t a1 = 0;
        double s;
        CHECK(vkat_replay_lookup(t, &a1, &s) == 1 && fabs(t->best_s / s - 100.0 / 300.0) < 1e-12);
        vkat_replay_opts o = {"exhaustive", 0, 0, 1};
        uint64_t m[] = {1};
        double at[1];
        CHECK(vkat_replay_run(t, &o, m, 1, at, NULL, &err) == VKAT_OK);
        CHECK(fabs(t->best_s / at[0] - 1.0 / 3.0) < 1e-12); /* A=1 first: 100 of 300 GFLOP/s */
        vkat_replay_free(t);
    }
    CHECK(vkat_replay_open(DATA "gflops_nodir.json", NULL, &t, &err) == VKAT_ERR_USAGE);
    CHECK_CONTAINS(err.message, "--higher-is-better");
    vkat_replay_load_desc d = {NULL, NULL, 1};
    CHECK(vkat_replay_open(DATA "gflops_nodir.json", &d, &t, &err) == VKAT_OK);
    if (t) {
        CHECK(vkat_replay_value(t, t->best_s) == 300);
        vkat_replay_free(t);
    }
    vkat_replay_load_desc tm = {NULL, "time", 0};
    CHECK(vkat_replay_open(DATA "gflops.json", &tm, &t, &err) == VKAT_OK);
    if (t) {
        CHECK(t->time && !t->higher_is_better && t->best_s == 1e-3 && vkat_replay_value(t, t->best_s) == 1);
        vkat_replay_free(t);
    }
    CHECK(vkat_replay_open(DATA "times.json", NULL, &t, &err) == VKAT_OK);
    if (t) {
        CHECK(t->marked_invalid == 1 && t->no_objective == 1 && !t->repaired);
        vkat_replay_free(t);
    }
    CHECK(vkat_replay_open(DATA "unclosed.json", NULL, &t, &err) == VKAT_OK);
    if (t) {
        CHECK(t->repaired);
        vkat_replay_free(t);
    }
}

int main(void)
{
    python_values();
    list_values();
    duplicate_values();
    times();
    unclosed_and_cut();
    schemas();
    objectives();
    TEST_END();
}
