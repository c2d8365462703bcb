/* test_tune.c — the tuning run end to end on the default device (lavapipe in CI), through the library:
 * valid variants are found and ranked; a parameter that plants a bug is rejected by the checker; an
 * out-of-bounds write trips the canary; a second run resumes and measures nothing twice; the exported SPIR-V
 * validates and its manifest matches the database's best row; a variant's rel L2 is that of its worst output. */
#include "compile.h"
#include "test.h"
#include "tune.h"
#include "util.h"

#include <json-c/json.h>
#include <unistd.h>

static int count_status(vkat_store *st, const vkat_row *key, vkat_status s)
{
    uint64_t counts[VKAT_STATUS_COUNT] = {0};
    vkat_error err;
    if (vkat_store_counts(st, key, counts, &err) != VKAT_OK)
        return -1;
    return (int)counts[s];
}

int main(void)
{
    vkat_error err = {0};
    vkat_instance *inst;
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r != VKAT_OK)
        TEST_SKIP("no Vulkan device (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    uint32_t dev, n;
    CHECK(vkat_select_devices(inst, NULL, &dev, 1, &n, &err) == VKAT_OK);

    vkat_space *space;
    r = vkat_space_load(VKAT_SOURCE_DIR "/tests/data/tune/scale.ini", &space, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    if (r != VKAT_OK)
        TEST_END();

    char tmp[] = "/tmp/vkat-test-tune-XXXXXX";
    CHECK(mkdtemp(tmp) != NULL);
    char db[256], out_dir[256];
    snprintf(db, sizeof db, "%s/results.db", tmp);
    snprintf(out_dir, sizeof out_dir, "%s/export", tmp);
    vkat_store *store;
    CHECK(vkat_store_open(db, &store, &err) == VKAT_OK);

    vkat_tune_opts opts = {0};
    opts.strategy = "exhaustive";
    opts.budget = 1000;
    opts.timing.warmup_s = 0.01;
    opts.timing.repetitions = 3;
    /* Every correct variant measured in full: this test counts and compares rows (test_race.c tests racing). */
    opts.race.disabled = 1;
    vkat_tune_report rep;
    r = vkat_tune_device(space, inst, dev, store, &opts, &rep, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    CHECK(!rep.skipped);
    CHECK_MSG(rep.totals.evaluated == 36 && rep.totals.resumed == 0 && rep.totals.invalid == 0,
              "evaluated %llu resumed %llu", (unsigned long long)rep.totals.evaluated,
              (unsigned long long)rep.totals.resumed);
    CHECK(count_status(store, &rep.key, VKAT_STATUS_OK) == 9);     /* BUG=0, OOB=0: 3 WG x 3 UNROLL */
    CHECK(count_status(store, &rep.key, VKAT_STATUS_WRONG) == 9);  /* BUG=1, OOB=0 */
    CHECK(count_status(store, &rep.key, VKAT_STATUS_CANARY) == 18); /* OOB=1 */

    vkat_row best[20];
    size_t nbest = 0;
    CHECK(vkat_store_best(store, &rep.key, best, 20, &nbest, &err) == VKAT_OK);
    CHECK(nbest == 9);
    for (size_t i = 0; i < nbest; i++) {
        CHECK(best[i].status == VKAT_STATUS_OK);
        CHECK(strstr(best[i].config, "BUG=0") && strstr(best[i].config, "OOB=0"));
        CHECK(best[i].median_s > 0 && best[i].min_s <= best[i].median_s && best[i].samples >= 1);
        CHECK(best[i].gbps > 0);
        if (i)
            CHECK(best[i - 1].median_s <= best[i].median_s);
    }
    /* The planted bug's row says why it failed. */
    vkat_row key = rep.key, found;
    snprintf(key.config, sizeof key.config, "WG=64,UNROLL=2,BUG=1,OOB=0");
    CHECK(vkat_store_get(store, &key, &found, &err) == 1);
    CHECK(found.status == VKAT_STATUS_WRONG);
    CHECK_CONTAINS(found.reason, "OUT");

    /* Resume: the same run again measures nothing. */
    char created[32];
    snprintf(created, sizeof created, "%s", best[0].created);
    vkat_tune_report rep2;
    CHECK(vkat_tune_device(space, inst, dev, store, &opts, &rep2, &err) == VKAT_OK);
    CHECK(rep2.totals.evaluated == 36 && rep2.totals.resumed == 36);
    vkat_row again[1];
    size_t nagain = 0;
    CHECK(vkat_store_best(store, &rep.key, again, 1, &nagain, &err) == VKAT_OK && nagain == 1);
    CHECK_STR(again[0].config, best[0].config);
    CHECK_STR(again[0].created, created);

    /* Export: SPIR-V that validates and a manifest naming the best row. */
    r = vkat_tune_export(space, inst, &dev, NULL, 1, store, out_dir, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    char manifest[300];
    snprintf(manifest, sizeof manifest, "%s/manifest.json", out_dir);
    json_object *m = json_object_from_file(manifest);
    CHECK(m != NULL);
    json_object *kernels = NULL, *k0 = NULL, *file = NULL, *hash = NULL;
    /* The winner first, then the candidates for runtime tuning (export's default). */
    if (m && json_object_object_get_ex(m, "kernels", &kernels) && json_object_array_length(kernels) >= 1) {
        k0 = json_object_array_get_idx(kernels, 0);
        for (size_t i = 0; i < json_object_array_length(kernels); i++) {
            json_object *role = NULL;
            CHECK(json_object_object_get_ex(json_object_array_get_idx(kernels, i), "role", &role));
            if (role)
                CHECK_STR(json_object_get_string(role), i ? "candidate" : "winner");
        }
        CHECK(json_object_object_get_ex(k0, "spirv", &file) || json_object_object_get_ex(k0, "spirv_file", &file));
        CHECK(json_object_object_get_ex(k0, "spirv_hash", &hash));
        if (hash)
            CHECK_STR(json_object_get_string(hash), best[0].spirv_hash);
        json_object *params = NULL, *wg = NULL;
        CHECK(json_object_object_get_ex(k0, "parameters", &params));
        char want_wg[16];
        const char *w = strstr(best[0].config, "WG=");
        snprintf(want_wg, sizeof want_wg, "%d", w ? atoi(w + 3) : -1);
        if (params && json_object_object_get_ex(params, "WG", &wg)) {
            json_object *val = NULL;
            if (json_object_is_type(wg, json_type_object))
                json_object_object_get_ex(wg, "value", &val);
            else
                val = wg;
            CHECK_STR(json_object_get_string(val), want_wg);
        } else {
            CHECK_MSG(0, "manifest has no parameter WG");
        }
    } else {
        CHECK_MSG(0, "manifest has no kernel entry");
    }
    if (file) {
        char spv_path[600];
        snprintf(spv_path, sizeof spv_path, "%s/%s", out_dir, json_object_get_string(file));
        size_t size = 0;
        char *bytes = vkat_read_file(spv_path, &size);
        CHECK(bytes != NULL && size % 4 == 0 && size > 20);
        if (bytes) {
            vkat_spirv mod = {(uint32_t *)(void *)bytes, size / 4};
            CHECK(vkat_validate_spirv(&mod, vkat_instance_device(inst, dev)->api_version, &err) == VKAT_OK);
            free(bytes);
        }
    }
    json_object_put(m);

    vkat_store_close(store);

    /* Specialization constants: UNROLL is one, so its three values share one compile (36 variants, 12 sources). */
    CHECK_MSG(rep.times.compile_hits == 24, "compile cache hits %llu", (unsigned long long)rep.times.compile_hits);

    /* Any --jobs measures the same set, in the same order of proposals; the pipeline cache is saved and reused. */
    char sets[2][40][512];
    for (int run = 0; run < 2; run++) {
        char db2[300], cache[300];
        snprintf(db2, sizeof db2, "%s/jobs%d.db", tmp, run);
        snprintf(cache, sizeof cache, "%s/pipeline.bin", tmp);
        vkat_store *st2;
        CHECK(vkat_store_open(db2, &st2, &err) == VKAT_OK);
        vkat_tune_opts o2 = opts;
        o2.strategy = "random";
        o2.seed = 11;
        o2.budget = 20;
        o2.jobs = run == 0 ? 1 : 3;
        o2.pipeline_cache_path = cache;
        vkat_tune_report r2;
        CHECK(vkat_tune_device(space, inst, dev, st2, &o2, &r2, &err) == VKAT_OK);
        CHECK(r2.totals.evaluated == 20 && r2.times.jobs == o2.jobs);
        vkat_row *all = NULL;
        size_t nall = 0;
        CHECK(vkat_store_rows(st2, &r2.key, 1, &all, &nall, &err) == VKAT_OK && nall == 20);
        for (size_t i = 0; i < 40; i++)
            snprintf(sets[run][i], sizeof sets[run][i], "%s", i < nall ? all[i].config : "");
        free(all);
        qsort(sets[run], 20, sizeof sets[run][0], (int (*)(const void *, const void *))strcmp);
        size_t cache_size = 0;
        char *bytes = vkat_read_file(cache, &cache_size);
        CHECK_MSG(bytes && cache_size >= 32, "pipeline cache file %s: %zu bytes", cache, cache_size);
        free(bytes);
        vkat_store_close(st2);
    }
    int same = 1;
    for (int i = 0; i < 20; i++)
        same &= strcmp(sets[0][i], sets[1][i]) == 0;
    CHECK_MSG(same, "--jobs 1 and --jobs 3 measured different configurations");

    /* One search shared by two lanes (two logical devices on the one GPU here, as identical GPUs would be): the
     * same 36 configurations with the same verdicts, each measured once, in one series. */
    {
        char db3[300];
        snprintf(db3, sizeof db3, "%s/lanes.db", tmp);
        vkat_store *st3;
        CHECK(vkat_store_open(db3, &st3, &err) == VKAT_OK);
        uint32_t two[2] = {dev, dev};
        vkat_tune_report r3;
        r = vkat_tune_devices(space, inst, two, 2, st3, &opts, &r3, &err);
        CHECK_MSG(r == VKAT_OK, "%s", err.message);
        CHECK(r3.totals.evaluated == 36 && r3.totals.resumed == 0);
        CHECK(count_status(st3, &r3.key, VKAT_STATUS_OK) == 9);
        CHECK(count_status(st3, &r3.key, VKAT_STATUS_WRONG) == 9);
        CHECK(count_status(st3, &r3.key, VKAT_STATUS_CANARY) == 18);
        CHECK(vkat_tune_devices(space, inst, two, 2, st3, &opts, &r3, &err) == VKAT_OK && r3.totals.resumed == 36);
        vkat_store_close(st3);
    }

    /* The device check (forced: the output is small) gives every variant the status, reason and rel L2 that the
     * host check gave in the first run: it passes the 9 correct ones itself; the planted bug falls back to the
     * host, which explains it; the overrun is caught by the canary alone. Auto keeps this small output on the
     * host. */
    {
        char db4[300];
        snprintf(db4, sizeof db4, "%s/gpu-check.db", tmp);
        vkat_store *st4, *st1;
        CHECK(vkat_store_open(db4, &st4, &err) == VKAT_OK);
        CHECK(vkat_store_open(db, &st1, &err) == VKAT_OK);
        vkat_tune_opts o4 = opts;
        o4.check_on = VKAT_CHECK_GPU;
        vkat_tune_report r4;
        r = vkat_tune_device(space, inst, dev, st4, &o4, &r4, &err);
        CHECK_MSG(r == VKAT_OK, "%s", err.message);
        CHECK(r4.totals.evaluated == 36 && r4.times.checked == 36);
        int float64 = vkat_instance_device(inst, dev)->feature[VKAT_FEATURE_SHADER_FLOAT64];
        CHECK_MSG(r4.times.checked_gpu == (float64 ? 9u : 0u), "%llu variants passed on the device",
                  (unsigned long long)r4.times.checked_gpu);
        CHECK(rep.times.checked == 36 && rep.times.checked_gpu == 0); /* the first run: auto, small output */
        vkat_row *gpu_rows = NULL, *host_rows = NULL;
        size_t ngpu = 0, nhost = 0;
        CHECK(vkat_store_rows(st4, &r4.key, 1, &gpu_rows, &ngpu, &err) == VKAT_OK && ngpu == 36);
        CHECK(vkat_store_rows(st1, &rep.key, 1, &host_rows, &nhost, &err) == VKAT_OK && nhost == 36);
        for (size_t i = 0; i < ngpu; i++) {
            const vkat_row *h = NULL;
            for (size_t k = 0; k < nhost; k++)
                if (!strcmp(host_rows[k].config, gpu_rows[i].config))
                    h = &host_rows[k];
            CHECK_MSG(h != NULL, "%s not in the host run", gpu_rows[i].config);
            if (!h)
                continue;
            CHECK_MSG(h->status == gpu_rows[i].status && !strcmp(h->reason, gpu_rows[i].reason),
                      "%s: device run %d '%s', host run %d '%s'", h->config, gpu_rows[i].status, gpu_rows[i].reason,
                      h->status, h->reason);
            CHECK_MSG(fabs(h->rel_l2 - gpu_rows[i].rel_l2) <= 1e-12 * fmax(h->rel_l2, 1e-300) &&
                          h->max_abs == gpu_rows[i].max_abs,
                      "%s: rel L2 %.17g / %.17g, max abs %.17g / %.17g", h->config, gpu_rows[i].rel_l2, h->rel_l2,
                      gpu_rows[i].max_abs, h->max_abs);
        }
        free(gpu_rows);
        free(host_rows);
        CHECK(count_status(st4, &r4.key, VKAT_STATUS_CANARY) == 18);
        vkat_store_close(st1);
        vkat_store_close(st4);
    }

    /* Integer outputs (int32, and uint8 packed four to a word) are compared exactly on the device when asked, on
     * any device: the two correct variants pass there, and each planted bug, in either output, is still caught,
     * falling back to the host for the same status and reason as a run checked on the host alone. */
    {
        vkat_space *ispace;
        r = vkat_space_load(VKAT_SOURCE_DIR "/tests/data/tune/iscale.ini", &ispace, &err);
        CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
        char dbg[300], dbh[300];
        snprintf(dbg, sizeof dbg, "%s/int-gpu.db", tmp);
        snprintf(dbh, sizeof dbh, "%s/int-host.db", tmp);
        vkat_store *sg = NULL, *sh = NULL;
        CHECK(vkat_store_open(dbg, &sg, &err) == VKAT_OK && vkat_store_open(dbh, &sh, &err) == VKAT_OK);
        vkat_tune_opts og = opts, oh = opts;
        og.check_on = VKAT_CHECK_GPU;
        oh.check_on = VKAT_CHECK_HOST;
        vkat_tune_report rg, rh;
        if (r == VKAT_OK && sg && sh && vkat_tune_device(ispace, inst, dev, sg, &og, &rg, &err) == VKAT_OK &&
            vkat_tune_device(ispace, inst, dev, sh, &oh, &rh, &err) == VKAT_OK) {
            CHECK(rg.totals.evaluated == 6 && rg.times.checked == 6 && rh.times.checked_gpu == 0);
            CHECK_MSG(rg.times.checked_gpu == 2, "%llu integer variants passed on the device (want the 2 correct)",
                      (unsigned long long)rg.times.checked_gpu);
            CHECK(count_status(sg, &rg.key, VKAT_STATUS_OK) == 2 && count_status(sg, &rg.key, VKAT_STATUS_WRONG) == 4);
            vkat_row *gr = NULL, *hr = NULL;
            size_t ng = 0, nh = 0;
            CHECK(vkat_store_rows(sg, &rg.key, 1, &gr, &ng, &err) == VKAT_OK && ng == 6);
            CHECK(vkat_store_rows(sh, &rh.key, 1, &hr, &nh, &err) == VKAT_OK && nh == 6);
            for (size_t i = 0; i < ng; i++) {
                const vkat_row *h = NULL;
                for (size_t k = 0; k < nh; k++)
                    if (!strcmp(hr[k].config, gr[i].config))
                        h = &hr[k];
                CHECK_MSG(h && h->status == gr[i].status && !strcmp(h->reason, gr[i].reason),
                          "%s: device run %d '%s', host run %d '%s'", gr[i].config, gr[i].status, gr[i].reason,
                          h ? (int)h->status : -1, h ? h->reason : "(missing)");
                if (strstr(gr[i].config, "BUG=1"))
                    CHECK_CONTAINS(gr[i].reason, "buffer 'OUT': 1 elements differ");
                if (strstr(gr[i].config, "BUG=2"))
                    CHECK_CONTAINS(gr[i].reason, "buffer 'BYTES': 1 elements differ");
            }
            free(gr);
            free(hr);
        } else {
            CHECK_MSG(0, "tuning iscale.ini: %s", err.message);
        }
        vkat_store_close(sg);
        vkat_store_close(sh);
        vkat_space_destroy(ispace);
    }

    /* A variant's rel L2 and max abs are those of its worst output, not of the last one compared. */
    {
        vkat_space *two;
        r = vkat_space_load(VKAT_SOURCE_DIR "/tests/data/tune/two_outputs.ini", &two, &err);
        CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
        char db5[300];
        snprintf(db5, sizeof db5, "%s/two.db", tmp);
        vkat_store *st5;
        vkat_tune_report r5;
        CHECK(vkat_store_open(db5, &st5, &err) == VKAT_OK);
        if (r == VKAT_OK && vkat_tune_device(two, inst, dev, st5, &opts, &r5, &err) == VKAT_OK) {
            vkat_row rows[2];
            size_t nrows = 0;
            CHECK(vkat_store_best(st5, &r5.key, rows, 2, &nrows, &err) == VKAT_OK && nrows == 2);
            for (size_t i = 0; i < nrows; i++)
                CHECK_MSG(rows[i].rel_l2 > 5e-6 && rows[i].rel_l2 < 2e-5 && rows[i].max_abs > 0,
                          "%s: rel L2 %g, max abs %g (want those of NEAR, about 1e-5)", rows[i].config,
                          rows[i].rel_l2, rows[i].max_abs);
        } else {
            CHECK_MSG(0, "tuning two_outputs.ini: %s", err.message);
        }
        vkat_store_close(st5);
        vkat_space_destroy(two);
    }

    vkat_space_destroy(space);
    vkat_instance_destroy(inst);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    CHECK(system(cmd) == 0);
    TEST_END();
}
