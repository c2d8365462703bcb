/* test_sequence.c — variants that are sequences of dispatches ([pass.NAME]), references that are sequences
 * ([check.pass.NAME]), scratch buffers and compared slices ([check] compare.NAME), on the default device (lavapipe):
 * a multi-pass in-place reduction whose pass count depends on N and the block size, split-K GEMM with its reduce
 * pass, and the loader's messages for malformed pass sections. */
#include "sequence.h"
#include "test.h"
#include "tune.h"
#include "util.h"

#include <unistd.h>

#define DATA VKAT_SOURCE_DIR "/tests/data/sequence/"

static int count_status(vkat_store *st, const vkat_row *key, vkat_status s)
{
    uint64_t counts[VKAT_STATUS_COUNT] = {0};
    vkat_error err;
    if (vkat_store_counts(st, key, counts, &err) != VKAT_OK)
        return -1;
    return (int)counts[s];
}

/* The space file `name` with `from` replaced by `to` (to == NULL: the file as it is), loaded as if at its path. */
static vkat_space *load_edited(const char *name, const char *from, const char *to, vkat_error *err)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", name);
    char *text = vkat_read_file(path, NULL);
    if (!text)
        return NULL;
    char *edited = text;
    if (to) {
        char *at = strstr(text, from);
        CHECK_MSG(at != NULL, "'%s' is not in %s", from, name);
        if (!at) {
            free(text);
            return NULL;
        }
        size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
        edited = malloc(n);
        snprintf(edited, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
        free(text);
    }
    vkat_space *s = NULL;
    vkat_result r = vkat_space_load_string(edited, path, &s, err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err->file, err->line, err->message);
    free(edited);
    return s;
}

/* ---- Expanding passes, no device ------------------------------------------------------------------------------- */

static size_t steps_for(vkat_space *s, const char *config, int reference, vkat_step **steps)
{
    vkat_error err = {0};
    uint32_t choice[8] = {0};
    vkat_value *env = vkat_space_env_create(s, NULL);
    CHECK(vkat_space_parse_config(s, config, 0, choice, &err) == VKAT_OK);
    vkat_space_env_apply(s, choice, env);
    size_t n = 0;
    vkat_result r = vkat_space_steps(s, env, reference, steps, &n, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    free(env);
    return n;
}

static void test_steps(void)
{
    vkat_error err = {0};
    vkat_space *s = load_edited("reduce.ini", NULL, NULL, &err);
    if (!s)
        return;
    CHECK(s->pass_count == 1 && s->ref_pass_count == 2 && s->pass_slot >= 0);
    /* N = 1000: ceil(log_B(1000)) passes, the stride B^pass as specialization constant 1, B as constant 0. */
    static const struct {
        const char *config;
        size_t passes;
        uint32_t b;
    } cases[] = {{"B=2,BUG=0", 10, 2}, {"B=4,BUG=0", 5, 4}, {"B=16,BUG=0", 3, 16}, {"B=64,BUG=0", 2, 64}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vkat_step *st = NULL;
        size_t n = steps_for(s, cases[c].config, 0, &st);
        CHECK_MSG(n == cases[c].passes, "%s: %zu passes, want %zu", cases[c].config, n, cases[c].passes);
        uint64_t stride = 1, left = 1000;
        for (size_t i = 0; st && i < n; i++) {
            CHECK(st[i].index == i && st[i].spec_count == 2);
            CHECK(st[i].spec_id[0] == 0 && st[i].spec_value[0] == cases[c].b);
            CHECK_MSG(st[i].spec_id[1] == 1 && st[i].spec_value[1] == stride, "pass %zu: stride %u, want %llu", i,
                      st[i].spec_value[1], (unsigned long long)stride);
            left = (left + cases[c].b - 1) / cases[c].b;
            CHECK_MSG(st[i].groups[0] == left, "pass %zu: %u groups, want %llu", i, st[i].groups[0],
                      (unsigned long long)left);
            stride *= cases[c].b;
        }
        CHECK(left == 1); /* the last pass leaves one partial: the total */
        free(st);
    }
    /* The reference's sequence: two passes with their own templates and groups, no parameters. */
    vkat_step *st = NULL;
    size_t n = steps_for(s, "B=2,BUG=1", 1, &st);
    CHECK(n == 2);
    if (n == 2) {
        CHECK(st[0].groups[0] == 16 && st[1].groups[0] == 1 && st[0].spec_count == 0);
        CHECK_CONTAINS(st[0].template_path, "reduce_ref_blocks.comp");
        CHECK_CONTAINS(st[1].template_path, "reduce_ref_total.comp");
    }
    free(st);
    vkat_space_destroy(s);

    /* repeat counts; 0 drops a pass; push.NAME overrides per pass. */
    s = load_edited("splitk.ini", "[pass.reduce]",
                    "[pass.twice]\nrepeat = SPLIT - 1\npush.k = 100 + pass\n"
                    "[pass.reduce]",
                    &err);
    if (s) {
        n = steps_for(s, "SPLIT=4,TILE=4", 0, &st);
        CHECK(n == 5);
        for (size_t i = 1; st && i < 4; i++) {
            uint32_t k;
            memcpy(&k, st[i].push + 8, 4);
            CHECK(k == 100 + i - 1 && st[i].index == i - 1 && st[i].groups[2] == 4);
        }
        /* The reduce pass's groups replace [dispatch]'s all three: 12 x 1 x 1, not 12 x 8 x 4. */
        CHECK(st && st[4].groups[0] == 12 && st[4].groups[1] == 1 && st[4].groups[2] == 1);
        CHECK(st && st[0].groups[0] == 6 && st[0].groups[1] == 8 && st[0].groups[2] == 4);
        free(st);
        n = steps_for(s, "SPLIT=1,TILE=4", 0, &st);
        CHECK(n == 2);
        free(st);
        vkat_space_destroy(s);
    }

    /* [push] and [dispatch], the defaults of every pass, may use `pass` too. */
    s = load_edited("reduce.ini", "n = uint32, N", "n = uint32, N + 10 * pass", &err);
    if (s) {
        n = steps_for(s, "B=16,BUG=0", 0, &st);
        for (size_t i = 0; st && i < n; i++) {
            uint32_t v;
            memcpy(&v, st[i].push, 4);
            CHECK(v == 1000 + 10 * i);
        }
        free(st);
        vkat_space_destroy(s);
    }

    /* bind.N: pass 0 reads X (buffer 0) into P (1); then P -> Q, Q -> P, ...; the last pass writes Y (3). */
    s = load_edited("pingpong.ini", NULL, NULL, &err);
    if (s) {
        n = steps_for(s, "B=4", 0, &st);
        static const uint32_t want[5][2] = {{0, 1}, {1, 2}, {2, 1}, {1, 2}, {2, 3}};
        CHECK(n == 5);
        for (size_t i = 0; st && i < n && i < 5; i++) {
            CHECK_MSG(st[i].binding_buffer[0] == want[i][0] && st[i].binding_buffer[1] == want[i][1],
                      "pass %zu binds %u, %u", i, st[i].binding_buffer[0], st[i].binding_buffer[1]);
            CHECK(st[i].remapped == (i != 0) && st[i].binding_buffer[2] == 2 && st[i].binding_buffer[3] == 3);
        }
        free(st);
        n = steps_for(s, "B=64", 0, &st);
        CHECK(n == 2 && st && st[1].binding_buffer[0] == 1 && st[1].binding_buffer[1] == 3);
        free(st);
        vkat_space_destroy(s);
    }
    s = load_edited("pingpong.ini", "bind.1 = P, Q, Y @ select(pass == passes - 1, 2, pass % 2)",
                    "bind.1 = P, Q, Y @ pass", &err);
    if (s) {
        uint32_t choice[1] = {0};
        vkat_value *env = vkat_space_env_create(s, NULL);
        vkat_space_env_apply(s, choice, env);
        vkat_step *none = NULL;
        CHECK(vkat_space_steps(s, env, 0, &none, &n, &err) == VKAT_ERR_EXPR);
        CHECK(err.line == 28);
        CHECK_STR(err.message, "bind.1 picks buffer 3 of 3 from 'pass'; it must be 0 to 2");
        free(env);
        vkat_space_destroy(s);
    }

    /* A while that never ends stops at VKAT_MAX_STEPS with the pass's line. */
    s = load_edited("reduce.ini", "while = pow(B, pass) < N\nspec.1 = pow(B, pass)\ngroups = cdiv(N, pow(B, pass + 1))",
                    "while = 1\nspec.1 = pass\ngroups = 1", &err);
    if (s) {
        uint32_t choice[2] = {0};
        vkat_value *env = vkat_space_env_create(s, NULL);
        vkat_space_env_apply(s, choice, env);
        vkat_step *none = NULL;
        CHECK(vkat_space_steps(s, env, 0, &none, &n, &err) == VKAT_ERR_EXPR);
        CHECK(err.line == 23);
        CHECK_CONTAINS(err.message, "more than 256 dispatches at [pass.reduce], pass 256 (does its while ever");
        CHECK(none == NULL);
        free(env);
        vkat_space_destroy(s);
    }
}

/* ---- Loader messages ------------------------------------------------------------------------------------------- */

static void expect_load_error(const char *name, const char *from, const char *to, int line, const char *message)
{
    char path[512];
    snprintf(path, sizeof path, DATA "%s", name);
    char *text = vkat_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    char *at = strstr(text, from);
    CHECK_MSG(at != NULL, "'%s' is not in %s", from, name);
    size_t size = strlen(text) + strlen(to) + 1;
    char *edited = malloc(size);
    snprintf(edited, size, "%.*s%s%s", (int)(at ? at - text : 0), text, to, at ? at + strlen(from) : "");
    vkat_space *s = NULL;
    vkat_error err = {0};
    vkat_result r = vkat_space_load_string(edited, path, &s, &err);
    CHECK_MSG(r != VKAT_OK, "%s loaded with '%s'", name, to);
    CHECK_MSG(err.line == line, "line %d, want %d (%s)", err.line, line, err.message);
    size_t n = strlen(message);
    if (n > 3 && !strcmp(message + n - 3, "...")) /* a prefix: the rest lists what other sections exist */
        CHECK_MSG(!strncmp(err.message, message, n - 3), "got '%s', want '%s'", err.message, message);
    else
        CHECK_STR(err.message, message);
    vkat_space_destroy(s);
    free(edited);
    free(text);
}

static void test_load_errors(void)
{
    expect_load_error("reduce.ini", "spec.1 =", "spec.x =", 25, "'spec.x': expected spec.N with a constant_id N >= 0");
    expect_load_error("reduce.ini", "spec.1 = pow(B, pass)", "push.m = 1", 25,
                      "'push.m': no push constant 'm' in [push]");
    expect_load_error("reduce.ini", "groups = cdiv(N, pow(B, pass + 1))", "grups = 1", 26,
                      "unknown key 'grups' in [pass.reduce] (known: template, repeat, while, local_size, groups, "
                      "spec.N, push.NAME, bind.N)");
    expect_load_error("reduce.ini", "spec.1 = pow(B, pass)", "repeat = 2", 25,
                      "[pass.reduce] has both while (line 24) and repeat; give one");
    expect_load_error("reduce.ini", "[check.pass.total]", "[check.pass.blocks]", 40,
                      "duplicate section [check.pass.blocks] (first at line 37)");
    expect_load_error("reduce.ini", "[check.pass.total]", "[pass.to-tal]", 40,
                      "bad pass name 'to-tal' in [pass.to-tal] (letters, digits and '_')");
    expect_load_error("reduce.ini", "groups = cdiv(N, 64)", "groups = cdiv(N, B)", 38,
                      "reference pass groups uses parameter 'B'; only problem sizes, device names and 'pass' are "
                      "allowed");
    expect_load_error("reduce.ini", "template = reduce_ref_total.comp", "template = nope.comp", 41,
                      "cannot open template '" DATA "nope.comp': No such file or directory");
    expect_load_error("reduce.ini", "spec.1 = pow(B, pass)", "spec.1 = pow(B, pases)", 25, "unknown name 'pases'");
    expect_load_error("reduce.ini", "compare.X = 0, 1", "compare.Y = 0, 1", 33,
                      "[check] compare.Y: no buffer 'Y' in [buffers]");
    expect_load_error("reduce.ini", "compare.X = 0, 1", "compare.S = 0, 1", 33,
                      "[check] compare.S: buffer 'S' is not an output (out or inout)");
    expect_load_error("reduce.ini", "reference = reduce_ref_blocks.comp", "max_abs = 1", 33,
                      "[check] compare.X without a reference: nothing to compare with");
    expect_load_error("reduce.ini", "compare.X = 0, 1", "compare.X = 0", 33,
                      "[check] compare.X needs 'offset, count' (elements), e.g. '0, 1', or 'unordered'");
    expect_load_error("reduce.ini", "[params]", "[problem.x]\n[params]", 12,
                      "unknown section [problem.x] (known: kernel, problem, ...");
    expect_load_error("reduce.ini", "N = 1000", "N = 1000\npass = 3", 11, "'pass' is a reserved name");
    expect_load_error("pingpong.ini", "bind.0 = X, P, Q", "bind.4 = X, P, Q", 27,
                      "'bind.4': expected bind.N with a binding N of the [buffers] (0..3)");
    expect_load_error("pingpong.ini", "bind.0 = X, P, Q", "bind.0 = X, R, Q", 27,
                      "'bind.0': no buffer 'R' in [buffers]");
    expect_load_error("pingpong.ini", "while = pow(B, pass) < N", "while = pass < passes", 24,
                      "[pass.reduce] while cannot use 'passes' (it decides them)");
    expect_load_error("reduce.ini", "bytes = 4 * N", "bytes = 4 * N * pass", 29,
                      "[metrics] uses 'pass' or 'passes', which have values only in [pass.*] sections and the "
                      "[dispatch] and [push] they default to");
    expect_load_error("reduce.ini", "BUG = 0, 1\n", "BUG = 0, 1\n[constraints]\nc = pass < 2\n", 16,
                      "a constraint uses 'pass' or 'passes', which have values only in [pass.*] sections and the "
                      "[dispatch] and [push] they default to");
}

/* ---- Tuning on the device -------------------------------------------------------------------------------------- */

static vkat_tune_report tune(vkat_space *s, vkat_instance *inst, uint32_t dev, vkat_store **store, const char *db)
{
    vkat_error err = {0};
    vkat_tune_report rep = {0};
    unlink(db);
    CHECK(vkat_store_open(db, store, &err) == VKAT_OK);
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 100;
    opts.race.disabled = 1; /* the counts below are of correct variants measured in full */
    opts.timing.warmup_s = 0.005;
    opts.timing.repetitions = 3;
    vkat_result r = vkat_tune_device(s, inst, dev, *store, &opts, &rep, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    return rep;
}

static void test_tune(vkat_instance *inst, uint32_t dev, const char *tmp)
{
    char db[300];
    snprintf(db, sizeof db, "%s/seq.db", tmp);
    vkat_error err = {0};
    vkat_store *store = NULL;

    /* The multi-pass reduction: every block size gives the right total; the planted bug never does. */
    vkat_space *s = load_edited("reduce.ini", NULL, NULL, &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK_MSG(rep.totals.evaluated == 8, "%llu evaluated", (unsigned long long)rep.totals.evaluated);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_OK) == 4);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_WRONG) == 4);
        vkat_row key = rep.key, row;
        snprintf(key.config, sizeof key.config, "B=4,BUG=1");
        CHECK(vkat_store_get(store, &key, &row, &err) == 1);
        CHECK_CONTAINS(row.reason, "buffer 'X'");
        CHECK_CONTAINS(row.reason, "element 0:");
        snprintf(key.config, sizeof key.config, "B=2,BUG=0");
        CHECK(vkat_store_get(store, &key, &row, &err) == 1);
        CHECK(row.status == VKAT_STATUS_OK && row.median_s > 0 && row.samples >= 1);
        vkat_store_close(store);
        vkat_space_destroy(s);
    }

    /* Without the slice, the partial sums left in X[1..] (their places depend on B) fail every variant. */
    s = load_edited("reduce.ini", "compare.X = 0, 1", "", &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_OK) == 0);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_WRONG) == 8);
        vkat_store_close(store);
        vkat_space_destroy(s);
    }

    /* A slice that depends on the configuration is evaluated for each variant: here it leaves the buffer. */
    s = load_edited("reduce.ini", "compare.X = 0, 1", "compare.X = 0, 1000 * (B == 64) + 1", &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        vkat_row key = rep.key, row;
        snprintf(key.config, sizeof key.config, "B=64,BUG=0");
        CHECK(vkat_store_get(store, &key, &row, &err) == 1);
        CHECK(row.status == VKAT_STATUS_ERROR);
        CHECK_CONTAINS(row.reason, "compare.X is elements 0..1000; buffer 'X' has 1000 elements");
        CHECK(count_status(store, &rep.key, VKAT_STATUS_OK) == 3);
        vkat_store_close(store);
        vkat_space_destroy(s);
    }

    /* A shader that reads binding 0 and writes binding 1 in every pass, its buffers swapped between passes. */
    s = load_edited("pingpong.ini", NULL, NULL, &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK_MSG(count_status(store, &rep.key, VKAT_STATUS_OK) == 4, "%d ok",
                  count_status(store, &rep.key, VKAT_STATUS_OK));
        vkat_store_close(store);
        vkat_space_destroy(s);
    }
    /* Without its bindings, every pass writes P and Y stays unwritten. */
    s = load_edited("pingpong.ini", "bind.1 = P, Q, Y @ select(pass == passes - 1, 2, pass % 2)", "", &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_WRONG) == 4);
        vkat_store_close(store);
        vkat_space_destroy(s);
    }

    /* Split-K with its reduce pass: every split is correct. */
    s = load_edited("splitk.ini", NULL, NULL, &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK_MSG(count_status(store, &rep.key, VKAT_STATUS_OK) == 6, "%d ok",
                  count_status(store, &rep.key, VKAT_STATUS_OK));
        vkat_row best[1];
        size_t nb = 0;
        CHECK(vkat_store_best(store, &rep.key, best, 1, &nb, &err) == VKAT_OK && nb == 1);
        CHECK(nb && best[0].tflops > 0);
        vkat_store_close(store);
        vkat_space_destroy(s);
    }

    /* Checked on the final outputs: without the reduce pass nothing writes C. */
    s = load_edited("splitk.ini",
                    "[pass.reduce]\ntemplate = splitk_reduce.comp\nlocal_size = 64\ngroups = cdiv(M*N, 64)\n", "",
                    &err);
    if (s) {
        vkat_tune_report rep = tune(s, inst, dev, &store, db);
        CHECK(count_status(store, &rep.key, VKAT_STATUS_WRONG) == 6);
        vkat_row key = rep.key, row;
        snprintf(key.config, sizeof key.config, "SPLIT=2,TILE=4");
        CHECK(vkat_store_get(store, &key, &row, &err) == 1);
        CHECK_CONTAINS(row.reason, "buffer 'C'");
        vkat_store_close(store);
        vkat_space_destroy(s);
    }
}

/* A pass's own template is part of the variant: after it changes, nothing stored is taken as still holding. */
static void test_pass_template_identity(vkat_instance *inst, uint32_t dev, const char *tmp)
{
    static const char *const files[] = {"splitk.ini", "splitk_partial.comp", "splitk_reduce.comp", "gemm_ref.comp"};
    char path[400];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char from[400];
        snprintf(from, sizeof from, DATA "%s", files[i]);
        snprintf(path, sizeof path, "%s/%s", tmp, files[i]);
        size_t size = 0;
        char *text = vkat_read_file(from, &size);
        FILE *f = fopen(path, "wb");
        CHECK(text && f && fwrite(text, 1, size, f) == size);
        if (f)
            fclose(f);
        free(text);
    }
    char space_path[400], db[400];
    snprintf(space_path, sizeof space_path, "%s/splitk.ini", tmp);
    snprintf(db, sizeof db, "%s/identity.db", tmp);
    unlink(db);
    vkat_error err = {0};
    vkat_store *store = NULL;
    CHECK(vkat_store_open(db, &store, &err) == VKAT_OK);
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.race.disabled = 1;
    opts.timing.warmup_s = 0.005;
    opts.timing.repetitions = 2;
    uint64_t resumed[3];
    for (int run = 0; run < 3; run++) {
        if (run == 2) { /* the reduce pass's shader changes (a comment is enough) */
            snprintf(path, sizeof path, "%s/splitk_reduce.comp", tmp);
            FILE *f = fopen(path, "ab");
            CHECK(f && fputs("// changed\n", f) >= 0);
            if (f)
                fclose(f);
        }
        vkat_space *s = NULL;
        CHECK(vkat_space_load(space_path, &s, &err) == VKAT_OK);
        vkat_tune_report rep = {0};
        CHECK(s && vkat_tune_device(s, inst, dev, store, &opts, &rep, &err) == VKAT_OK);
        resumed[run] = rep.totals.resumed;
        vkat_space_destroy(s);
    }
    CHECK_MSG(resumed[0] == 0 && resumed[1] == 6 && resumed[2] == 0, "resumed %llu, %llu, %llu",
              (unsigned long long)resumed[0], (unsigned long long)resumed[1], (unsigned long long)resumed[2]);
    vkat_store_close(store);
}

int main(void)
{
    test_steps();
    test_load_errors();

    vkat_error err = {0};
    vkat_instance *inst;
    if (vkat_instance_create(&inst, &err) != VKAT_OK)
        TEST_SKIP("no Vulkan device (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    uint32_t dev, n;
    CHECK(vkat_select_devices(inst, NULL, &dev, 1, &n, &err) == VKAT_OK);
    char tmp[] = "/tmp/vkat-test-sequence-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    test_tune(inst, dev, tmp);
    test_pass_template_identity(inst, dev, tmp);
    vkat_instance_destroy(inst);
    TEST_END();
}
