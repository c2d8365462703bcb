/* test_export_db.c — export writes what was measured: the tuner keeps each "ok" row's module in the database and
 * export writes those bytes (no compile), with the manifest's hash the row's; a row from before modules were kept
 * is compiled again and exported only when it gives the measured hash; the results key covers the reference's
 * bytes; the sizes compiled into a module are read from the space and the shader's text; a sequence comes back
 * from the store as it was compiled. Tunes tiny spaces on the default device (lavapipe in CI). */
#include "compiled_problem.h"
#include "measured_spirv.h"
#include "sequence.h"
#include "test.h"
#include "tune.h"
#include "util.h"

#include <json-c/json.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

static char tmp[64];

static void write_text(const char *name, const char *text)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void copy_data(const char *name)
{
    char from[600];
    snprintf(from, sizeof from, "%s/tests/data/tune/%s", VKAT_SOURCE_DIR, name);
    char *text = vkat_read_file(from, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", from);
    if (text)
        write_text(name, text);
    free(text);
}

static vkat_space *load(const char *name)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    vkat_space *s = NULL;
    vkat_error err = {0};
    vkat_result r = vkat_space_load(path, &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    return s;
}

/* A reference without #includes is part of the results key: editing it starts a new series. */
static void test_key_covers_reference(void)
{
    vkat_space *s = load("scale.ini");
    static const vkat_device_info dev;
    vkat_row a, b;
    vkat_error err = {0};
    CHECK(s && vkat_tune_key(s, &dev, &a, &err) == VKAT_OK);
    char path[300];
    snprintf(path, sizeof path, "%s/scale_ref.comp", tmp);
    FILE *f = fopen(path, "ab");
    CHECK(f != NULL);
    if (f) {
        fputs("// an edited reference decides differently what is correct\n", f);
        fclose(f);
    }
    CHECK(s && vkat_tune_key(s, &dev, &b, &err) == VKAT_OK);
    CHECK_MSG(strcmp(a.template_hash, b.template_hash) != 0, "the key ignores the reference's bytes (%s)",
              a.template_hash);
    copy_data("scale_ref.comp"); /* as it was, for the tests below */
    vkat_space_destroy(s);
}

/* Which sizes the module holds: a @define size the shader names (not one it names only in a comment), and a
 * size the local-size expression reads where the shader names VKAT_LOCAL_SIZE_X; never a @spec or @push one. */
static void test_compiled_problem(void)
{
    write_text("cp.comp.in", "#version 450\n"
                             "// M is only mentioned here, and in /* M */ this comment\n"
                             "layout(local_size_x = VKAT_LOCAL_SIZE_X) in;\n"
                             "layout(constant_id = 0) const uint S = 1;\n"
                             "layout(std430, binding = 0) buffer B { float v[]; };\n"
                             "layout(push_constant) uniform P { uint K; } p;\n"
                             "void main() { if (gl_GlobalInvocationID.x < N * S + p.K) v[0] = 1.0; }\n");
    write_text("cp.ini", "[kernel]\nname = cp\ntemplate = cp.comp.in\n"
                         "[problem]\nM = 4\nN = 8\nS = 2 @spec(0)\nK = 16 @push\nW = 32 @none\n"
                         "[params]\nX = 1, 2\n"
                         "[buffers]\nV = float32, 64, zero, out\n"
                         "[push]\nK = uint32, K\n"
                         "[dispatch]\nlocal_size = W / X, 1, 1\ngroups = 1, 1, 1\n");
    vkat_space *s = load("cp.ini");
    uint64_t mask = 0;
    vkat_error err = {0};
    CHECK_MSG(s && vkat_compiled_problem(s, &mask, &err) == VKAT_OK, "%s", err.message);
    /* M 0, N 1, S 2, K 3, W 4: N (named) and W (local size, named); not M (comments), S (@spec), K (@push) */
    CHECK_MSG(mask == ((1u << 1) | (1u << 4)), "compiled in: 0x%llx, want 0x12", (unsigned long long)mask);
    vkat_space_destroy(s);
}

static int sql(const char *db, const char *text)
{
    sqlite3 *h = NULL;
    int rc = sqlite3_open(db, &h);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(h, text, NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

/* Exports every series of scale.ini from the database (winners only) and returns the winner's manifest entry's
 * spirv_hash and its .spv file's bytes; VKAT_OK or the export's error. */
static vkat_result export_winner(vkat_space *s, const char *db, char hash[17], char **bytes, size_t *size,
                                 vkat_error *err)
{
    vkat_store *st = NULL;
    *bytes = NULL;
    hash[0] = 0;
    vkat_result r = vkat_store_open_readonly(db, &st, err);
    if (r)
        return r;
    char dir[300];
    snprintf(dir, sizeof dir, "%s/out", tmp);
    vkat_space *spaces[1] = {s};
    vkat_export_request req = {0};
    req.spaces = spaces;
    req.space_count = 1;
    req.all_in_db = 1;
    req.dir = dir;
    req.candidates = -1;
    r = vkat_tune_export_db(&req, st, NULL, err);
    vkat_store_close(st);
    if (r)
        return r;
    char path[600];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    json_object *m = json_object_from_file(path), *kernels, *k, *h, *file;
    if (m && json_object_object_get_ex(m, "kernels", &kernels) && (k = json_object_array_get_idx(kernels, 0)) &&
        json_object_object_get_ex(k, "spirv_hash", &h) && json_object_object_get_ex(k, "spirv", &file)) {
        snprintf(hash, 17, "%s", json_object_get_string(h));
        snprintf(path, sizeof path, "%s/%s", dir, json_object_get_string(file));
        *bytes = vkat_read_file(path, size);
    }
    json_object_put(m);
    CHECK_MSG(*bytes != NULL, "no manifest entry or .spv in %s", dir);
    return VKAT_OK;
}

static void test_export_measured(vkat_instance *inst, uint32_t dev)
{
    vkat_space *s = load("scale.ini");
    char db[300];
    snprintf(db, sizeof db, "%s/t.db", tmp);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(s && vkat_store_open(db, &st, &err) == VKAT_OK);
    if (!s || !st)
        return;
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.timing.warmup_s = 0.01;
    opts.timing.repetitions = 2;
    opts.race.disabled = 1;
    vkat_tune_report rep;
    CHECK_MSG(vkat_tune_device(s, inst, dev, st, &opts, &rep, &err) == VKAT_OK, "%s", err.message);

    /* Every ok row's module is in the database under its hash. */
    vkat_row best[16];
    size_t n = 0;
    CHECK(vkat_store_best(st, &rep.key, best, 16, &n, &err) == VKAT_OK && n == 9);
    for (size_t i = 0; i < n; i++) {
        vkat_spirv m;
        CHECK_MSG(vkat_measured_get_module(st, best[i].spirv_hash, &m, &err) == 1, "%s: no stored module",
                  best[i].config);
        vkat_spirv_free(&m);
    }
    /* A module of another configuration (another WG: other words) to plant under the winner's row. */
    size_t other = 0;
    while (other < n && !strcmp(best[other].spirv_hash, best[0].spirv_hash))
        other++;
    CHECK(other < n);
    vkat_spirv planted = {0};
    CHECK(other < n && vkat_measured_get_module(st, best[other].spirv_hash, &planted, &err) == 1);
    vkat_store_close(st);

    /* Export writes the stored bytes, and the manifest's hash is the row's. */
    char hash[17];
    char *bytes = NULL;
    size_t size = 0;
    CHECK_MSG(export_winner(s, db, hash, &bytes, &size, &err) == VKAT_OK, "%s", err.message);
    CHECK_STR(hash, best[0].spirv_hash);
    free(bytes);

    /* The winner's row names the other module: export writes that one's bytes, so it writes what the row says
     * was measured, not what compiling the winner's configuration would give. */
    char update[600];
    snprintf(update, sizeof update, "UPDATE results SET spirv_hash = '%s' WHERE config = '%s';",
             best[other].spirv_hash, best[0].config);
    CHECK(sql(db, update) == SQLITE_OK);
    CHECK_MSG(export_winner(s, db, hash, &bytes, &size, &err) == VKAT_OK, "%s", err.message);
    CHECK_STR(hash, best[other].spirv_hash);
    CHECK_MSG(bytes && size == planted.count * 4 && !memcmp(bytes, planted.words, size),
              "the exported .spv is not the stored module (export compiled instead?)");
    free(bytes);

    /* A database from before modules were kept: compiled again, refused when that is not the measured hash ... */
    CHECK(sql(db, "DELETE FROM spirv;") == SQLITE_OK);
    CHECK(export_winner(s, db, hash, &bytes, &size, &err) == VKAT_ERR_DB);
    CHECK_CONTAINS(err.message, "tune it again into a new database");
    free(bytes);
    /* ... and exported when it is, with the measured hash. */
    snprintf(update, sizeof update, "UPDATE results SET spirv_hash = '%s' WHERE config = '%s';",
             best[0].spirv_hash, best[0].config);
    CHECK(sql(db, update) == SQLITE_OK);
    CHECK_MSG(export_winner(s, db, hash, &bytes, &size, &err) == VKAT_OK, "%s", err.message);
    CHECK_STR(hash, best[0].spirv_hash);
    free(bytes);

    /* Stored bytes that do not hash to their key: a damaged database, said so. */
    CHECK(vkat_store_open(db, &st, &err) == VKAT_OK);
    if (st) {
        CHECK(vkat_store_put_spirv(st, best[0].spirv_hash, planted.words, planted.count * 4, &err) == VKAT_OK);
        vkat_store_close(st);
    }
    CHECK(export_winner(s, db, hash, &bytes, &size, &err) == VKAT_ERR_DB);
    CHECK_CONTAINS(err.message, "damaged");
    free(bytes);
    vkat_spirv_free(&planted);
    vkat_space_destroy(s);
}

/* A sequence of dispatches: the tuner keeps its modules and its steps' module list, from which the same
 * sequence comes back without a compiler (same modules, steps and workgroup sizes as compiling it). */
static void test_sequence_kept(vkat_instance *inst, uint32_t dev)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    vkat_result r = vkat_space_load(VKAT_SOURCE_DIR "/tests/data/sequence/reduce.ini", &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    char db[300];
    snprintf(db, sizeof db, "%s/seq.db", tmp);
    vkat_store *st = NULL;
    CHECK(s && vkat_store_open(db, &st, &err) == VKAT_OK);
    if (!s || !st) {
        vkat_space_destroy(s);
        return;
    }
    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.timing.warmup_s = 0.01;
    opts.timing.repetitions = 2;
    opts.race.disabled = 1;
    vkat_tune_report rep;
    CHECK_MSG(vkat_tune_device(s, inst, dev, st, &opts, &rep, &err) == VKAT_OK, "%s", err.message);
    vkat_row best[8];
    size_t n = 0;
    CHECK(vkat_store_best(st, &rep.key, best, 8, &n, &err) == VKAT_OK && n >= 2);
    for (size_t i = 0; i < n; i++) {
        uint32_t *choice = calloc(s->param_count, sizeof *choice);
        vkat_value *env = NULL;
        CHECK(choice && vkat_space_set_problem(s, best[i].problem, &err) == VKAT_OK &&
              vkat_space_parse_config(s, best[i].config, 0, choice, &err) == VKAT_OK);
        env = vkat_space_env_create(s, vkat_instance_device(inst, dev));
        CHECK(env != NULL);
        if (!choice || !env) {
            free(choice);
            free(env);
            break;
        }
        vkat_space_env_apply(s, choice, env);
        vkat_sequence kept, built;
        CHECK_MSG(vkat_measured_get_sequence(st, best[i].spirv_hash, s, env, &kept, &err) == 1, "%s: %s",
                  best[i].config, err.message);
        CHECK(vkat_sequence_compile(s, vkat_instance_device(inst, dev), NULL, env, 0, &built, &err) == VKAT_OK);
        CHECK(kept.step_count == built.step_count && kept.step_count > 1 && kept.hash == built.hash);
        CHECK(vkat_sequence_same_modules(&kept, &built));
        for (size_t k = 0; k < kept.step_count && k < built.step_count; k++) {
            CHECK(kept.module_of[k] == built.module_of[k]);
            CHECK(!memcmp(kept.workgroup_size[k], built.workgroup_size[k], sizeof kept.workgroup_size[k]));
        }
        vkat_sequence_free(&kept);
        vkat_sequence_free(&built);
        free(choice);
        free(env);
    }
    vkat_store_close(st);
    vkat_space_destroy(s);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/vkat-test-export-db-XXXXXX");
    if (!mkdtemp(tmp))
        TEST_SKIP("mkdtemp failed");
    copy_data("scale.ini");
    copy_data("scale.comp.in");
    copy_data("scale_ref.comp");
    test_key_covers_reference();
    test_compiled_problem();

    vkat_error err = {0};
    vkat_instance *inst = NULL;
    int have_device = vkat_instance_create(&inst, &err) == VKAT_OK;
    if (have_device) {
        uint32_t dev = 0, count = 0;
        CHECK(vkat_select_devices(inst, NULL, &dev, 1, &count, &err) == VKAT_OK);
        test_export_measured(inst, dev);
        test_sequence_kept(inst, dev);
        vkat_instance_destroy(inst);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0);
    if (!have_device && !test_failed) /* the tests without a device passed; the export run could not happen */
        TEST_SKIP("no Vulkan device (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    TEST_END();
}
