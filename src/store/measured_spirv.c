/* measured_spirv.c — keeps the modules that were measured and reads them back for export (see the header). It
 * stores and reads bytes, reflects what a sequence's steps need; it never compiles. */
#include "measured_spirv.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static vkat_result put_module(vkat_store *st, const vkat_spirv *m, vkat_error *err)
{
    char h[17];
    vkat_hash_hex(vkat_spirv_hash(m), h);
    return vkat_store_put_spirv(st, h, m->words, m->count * sizeof *m->words, err);
}

vkat_result vkat_measured_put(vkat_store *st, const char *hash, const vkat_spirv *module,
                              const vkat_sequence *sequence, vkat_error *err)
{
    if (module)
        return vkat_store_put_spirv(st, hash, module->words, module->count * sizeof *module->words, err);
    vkat_result r = VKAT_OK;
    for (size_t i = 0; !r && i < sequence->module_count; i++)
        r = put_module(st, &sequence->modules[i], err);
    unsigned char *list = malloc(sequence->step_count ? 8 * sequence->step_count : 1);
    if (!r && !list)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; !r && i < sequence->step_count; i++) {
        uint64_t mh = vkat_spirv_hash(&sequence->modules[sequence->module_of[i]]);
        for (int b = 0; b < 8; b++)
            list[8 * i + (size_t)b] = (unsigned char)(mh >> (8 * b));
    }
    if (!r)
        r = vkat_store_put_spirv(st, hash, list, 8 * sequence->step_count, err);
    free(list);
    return r;
}

int vkat_measured_get_module(vkat_store *st, const char *hash, vkat_spirv *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    void *bytes = NULL;
    size_t size = 0;
    int found = vkat_store_get_spirv(st, hash, &bytes, &size, err);
    if (found != 1)
        return found;
    out->words = bytes;
    out->count = size / sizeof *out->words;
    char h[17];
    vkat_hash_hex(vkat_spirv_hash(out), h);
    if (size % sizeof *out->words || strcmp(h, hash) != 0) {
        vkat_spirv_free(out);
        vkat_fail(err, VKAT_ERR_DB, vkat_store_path(st), 0,
                  "the SPIR-V stored under %s hashes to %s (%zu bytes): the database is damaged", hash, h, size);
        return -1;
    }
    return 1;
}

/* Step i's module: the one already read when an earlier step names the same hash, else read now. */
static int step_module(vkat_store *st, vkat_sequence *q, size_t i, uint64_t mh, const uint64_t *hashes,
                       vkat_error *err)
{
    for (size_t k = 0; k < i; k++)
        if (hashes[k] == mh) {
            q->module_of[i] = q->module_of[k];
            return 1;
        }
    char h[17];
    vkat_hash_hex(mh, h);
    int found = vkat_measured_get_module(st, h, &q->modules[q->module_count], err);
    if (found == 0) {
        vkat_fail(err, VKAT_ERR_DB, vkat_store_path(st), 0, "a module of a stored sequence (%s) is missing", h);
        return -1;
    }
    if (found == 1) {
        q->module_of[i] = (uint32_t)q->module_count;
        q->module_paths[q->module_count++] = (char *)q->steps[i].template_path;
    }
    return found;
}

int vkat_measured_get_sequence(vkat_store *st, const char *hash, const vkat_space *s, const vkat_value *env,
                               vkat_sequence *q, vkat_error *err)
{
    memset(q, 0, sizeof *q);
    unsigned char *list = NULL;
    size_t size = 0;
    int found = vkat_store_get_spirv(st, hash, (void **)&list, &size, err);
    if (found != 1)
        return found;
    uint64_t *hashes = NULL;
    int r = vkat_space_steps(s, env, 0, &q->steps, &q->step_count, err) == VKAT_OK ? 1 : -1;
    if (r == 1 && size != 8 * q->step_count) {
        vkat_fail(err, VKAT_ERR_DB, vkat_store_path(st), 0,
                  "the sequence stored under %s has %zu steps, the space gives %zu for this configuration", hash,
                  size / 8, q->step_count);
        r = -1;
    }
    size_t n = q->step_count ? q->step_count : 1;
    if (r == 1) {
        q->module_of = calloc(n, sizeof *q->module_of);
        q->modules = calloc(n, sizeof *q->modules);
        q->module_paths = calloc(n, sizeof *q->module_paths);
        q->workgroup_size = calloc(n, sizeof *q->workgroup_size);
        hashes = calloc(n, sizeof *hashes);
        if (!q->module_of || !q->modules || !q->module_paths || !q->workgroup_size || !hashes) {
            vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            r = -1;
        }
    }
    XXH64_hash_t chain = 0; /* as vkat_sequence_compile makes the sequence's hash */
    for (size_t i = 0; r == 1 && i < q->step_count; i++) {
        for (int b = 0; b < 8; b++)
            hashes[i] |= (uint64_t)list[8 * i + (size_t)b] << (8 * b);
        chain = XXH64(&hashes[i], sizeof hashes[i], chain);
        if ((r = step_module(st, q, i, hashes[i], hashes, err)) != 1)
            break;
        vkat_spec_value spec[VKAT_MAX_STEP_SPEC];
        size_t ns = vkat_sequence_spec(q, i, spec);
        vkat_spirv_info si;
        if (vkat_spirv_reflect(&q->modules[q->module_of[i]], spec, ns, &si, err) != VKAT_OK)
            r = -1;
        else
            memcpy(q->workgroup_size[i], si.local_size, sizeof si.local_size);
    }
    char h[17];
    vkat_hash_hex(chain, h);
    if (r == 1 && strcmp(h, hash) != 0) {
        vkat_fail(err, VKAT_ERR_DB, vkat_store_path(st), 0,
                  "the sequence stored under %s hashes to %s: the database is damaged", hash, h);
        r = -1;
    }
    q->hash = chain;
    free(hashes);
    free(list);
    return r;
}
