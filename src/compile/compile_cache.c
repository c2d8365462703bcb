/* compile_cache.c — remembers what glslang + SPIRV-Tools made of an instantiated source, so that variants which
 * differ only in specialization constants are compiled and validated once. It must not change what a compile
 * returns: a hit hands back a copy of the very words (or the very error) the first compile produced. */
#include "compile.h"
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

typedef struct cache_entry {
    XXH128_hash_t key;
    uint32_t api;
    uint64_t last_use;
    vkat_result result;
    vkat_error error;
    vkat_spirv spirv;
    int used;
} cache_entry;

struct vkat_compile_cache {
    pthread_mutex_t lock;
    size_t capacity;
    uint64_t clock;
    cache_entry *entries;
};

vkat_compile_cache *vkat_compile_cache_create(size_t capacity)
{
    vkat_compile_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->capacity = capacity ? capacity : 1;
    c->entries = calloc(c->capacity, sizeof *c->entries);
    if (!c->entries || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c->entries);
        free(c);
        return NULL;
    }
    return c;
}

void vkat_compile_cache_destroy(vkat_compile_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->capacity; i++)
        vkat_spirv_free(&c->entries[i].spirv);
    pthread_mutex_destroy(&c->lock);
    free(c->entries);
    free(c);
}

static int copy_spirv(const vkat_spirv *from, vkat_spirv *to)
{
    to->count = 0;
    to->words = NULL;
    if (!from->count)
        return 1;
    to->words = malloc(from->count * sizeof *to->words);
    if (!to->words)
        return 0;
    memcpy(to->words, from->words, from->count * sizeof *to->words);
    to->count = from->count;
    return 1;
}

/* Returns the outcome of a hit, or -1 for a miss. Called with the lock held. */
static int lookup(vkat_compile_cache *c, XXH128_hash_t key, uint32_t api, vkat_spirv *out, vkat_error *err)
{
    for (size_t i = 0; i < c->capacity; i++) {
        cache_entry *e = &c->entries[i];
        if (!e->used || e->api != api || !XXH128_isEqual(e->key, key))
            continue;
        e->last_use = ++c->clock;
        if (e->result != VKAT_OK) {
            if (err)
                *err = e->error;
            return e->result;
        }
        if (!copy_spirv(&e->spirv, out))
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        return VKAT_OK;
    }
    return -1;
}

static void insert(vkat_compile_cache *c, XXH128_hash_t key, uint32_t api, vkat_result result, const vkat_error *error,
                   const vkat_spirv *spirv)
{
    /* An unused slot if there is one, else the least recently used. */
    cache_entry *victim = NULL;
    for (size_t i = 0; i < c->capacity; i++) {
        cache_entry *e = &c->entries[i];
        if (e->used && e->api == api && XXH128_isEqual(e->key, key))
            return; /* another thread compiled the same source meanwhile */
        if (!victim || (victim->used && (!e->used || e->last_use < victim->last_use)))
            victim = e;
    }
    vkat_spirv copy = {0};
    if (result == VKAT_OK && !copy_spirv(spirv, &copy))
        return; /* not caching is always correct */
    vkat_spirv_free(&victim->spirv);
    victim->used = 1;
    victim->key = key;
    victim->api = api;
    victim->last_use = ++c->clock;
    victim->result = result;
    victim->error = error ? *error : (vkat_error){0};
    victim->spirv = copy;
}

/* Replaces *m by its optimized module where the passes succeed and their module validates; otherwise *m stays
 * glslang's (a pass that cannot handle a module must not cost the variant). Counted as compile time. */
static void optimize_or_keep(vkat_spirv *m, uint32_t api, int scalar, vkat_spirv_opt set, const char *path)
{
    vkat_spirv o = {0};
    vkat_error e = {0};
    vkat_result r = vkat_spirv_optimize(m, api, set, &o, &e);
    if (r == VKAT_OK)
        r = vkat_validate_spirv_layout(&o, api, scalar, &e);
    if (r != VKAT_OK) {
        vkat_log(VKAT_LOG_WARN, "%s: kept glslang's module unoptimized: %s", path ? path : "", e.message);
        vkat_spirv_free(&o);
        return;
    }
    vkat_spirv_free(m);
    *m = o;
}

vkat_result vkat_compile_cached(vkat_compile_cache *c, const char *source, const char *path, uint32_t api,
                                const vkat_compile_opts *opts, vkat_spirv *out, int *hit, double *compile_s,
                                double *validate_s, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    if (hit)
        *hit = 0;
    if (compile_s)
        *compile_s = 0;
    if (validate_s)
        *validate_s = 0;
    /* The included files are part of what was compiled: their hash seeds the key. */
    vkat_spirv_opt set = opts ? opts->spirv_opt : VKAT_SPIRV_OPT_DEFAULT;
    int scalar = opts && opts->scalar_block_layout;
    uint64_t seed = (opts ? opts->sources_hash : 0) ^ ((uint64_t)set * 0x9e3779b97f4a7c15ull);
    seed ^= (uint64_t)scalar << 62; /* validated for a device with scalarBlockLayout or without */
    seed ^= (uint64_t)(opts ? opts->opengl_rules : 0) << 60; /* compiled by OpenGL's rules: other bindings */
    if (opts && opts->entry) /* an HLSL file's kernel: another function of the same text */
        seed = XXH3_64bits_withSeed(opts->entry, strlen(opts->entry), seed);
    for (size_t i = 0; opts && i < opts->include_text_count; i++) /* a variant's value in an included file */
        seed = XXH3_64bits_withSeed(opts->include_texts[i].text, strlen(opts->include_texts[i].text), seed);
    XXH128_hash_t key = XXH3_128bits_withSeed(source, strlen(source), seed);
    if (c) {
        pthread_mutex_lock(&c->lock);
        int r = lookup(c, key, api, out, err);
        pthread_mutex_unlock(&c->lock);
        if (r >= 0) {
            if (hit)
                *hit = 1;
            return (vkat_result)r;
        }
    }
    vkat_error local = {0};
    double t0 = vkat_now();
    vkat_result r = vkat_compile_glsl_opts(source, path, api, opts, out, &local);
    double t1 = vkat_now();
    if (r == VKAT_OK) {
        r = vkat_validate_spirv_layout(out, api, scalar, &local);
        if (validate_s)
            *validate_s = vkat_now() - t1;
        if (r != VKAT_OK)
            vkat_spirv_free(out);
    }
    double t2 = vkat_now();
    if (r == VKAT_OK && set != VKAT_SPIRV_OPT_NONE) /* after glslang's module validated: its errors are the user's */
        optimize_or_keep(out, api, scalar, set, path);
    if (compile_s)
        *compile_s = (t1 - t0) + (vkat_now() - t2);
    if (c && r != VKAT_ERR_NOMEM) {
        pthread_mutex_lock(&c->lock);
        insert(c, key, api, r, &local, out);
        pthread_mutex_unlock(&c->lock);
    }
    if (r != VKAT_OK && err)
        *err = local;
    return r;
}
