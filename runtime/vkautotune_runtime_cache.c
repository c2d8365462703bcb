/* vkautotune_runtime_cache.c — the runtime tuner's cache file (vkautotune_runtime_tune.h, docs/runtime.md): which
 * candidate won for a (kernel, problem) on a device identity and table, so a later launch measures nothing.
 *
 *   vkautotune-runtime-cache 1
 *   device <vendor id> <device id> <driver version> <device UUID>      (hex)
 *   table <table hash>
 *   pick <kernel hash> <problem sizes, comma-separated> <variant index> <SPIR-V hash> <configuration hash>
 *   ...
 *   checksum <FNV-1a of every byte before this line>
 *
 * Anything else (a bad checksum, a truncated or edited file, another identity or table) reads as no cache; the next
 * store rewrites the file. Writes go to a temporary file of the writer's own in the same directory (create_temporary)
 * and are renamed over the old one.
 * C99 and libc only (POSIX fsync and getpid where present); it must not call Vulkan. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <unistd.h>
#define VKAT_RT_HAVE_POSIX 1
#endif
#include "vkautotune_runtime_tune.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CACHE_MAGIC "vkautotune-runtime-cache 1\n"
#define CACHE_MAX_BYTES (1u << 20)
#define CACHE_MAX_PICKS 256

/* ---- Hashing ------------------------------------------------------------------------------------------------ */

#define FNV_BASIS 0xcbf29ce484222325ull

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
    return fnv(h, s ? s : "", (s ? strlen(s) : 0) + 1); /* the terminator separates fields */
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return fnv(h, b, 8);
}

uint64_t vkat_rt_table_hash(const vkat_rt_table *t)
{
    uint64_t h = FNV_BASIS;
    if (!t)
        return h;
    h = fnv_u64(h, t->version);
    h = fnv_u64(h, t->count);
    for (uint32_t i = 0; i < t->count; i++) {
        const vkat_rt_variant *v = &t->variants[i];
        h = fnv_str(h, v->kernel);
        h = fnv_str(h, v->config);
        h = fnv_str(h, v->spirv_hash);
        h = fnv_u64(h, v->flags);
        h = fnv_u64(h, ((uint64_t)v->vendor_id << 32) | v->device_id);
        h = fnv_u64(h, ((uint64_t)v->driver_version_min << 32) | v->driver_version_max);
        for (uint32_t p = 0; p < v->problem_count; p++)
            h = fnv_u64(h, (uint64_t)v->problem[p]);
    }
    return h;
}

/* ---- Lines -------------------------------------------------------------------------------------------------- */

typedef struct pick {
    unsigned long long kernel_hash, spirv_hash, config_hash;
    unsigned long index;
    char problem[256];
} pick;

static void identity_line(const vkat_rt_device_identity *id, char *buf, size_t size)
{
    int n = snprintf(buf, size, "device %x %x %x ", id->vendor_id, id->device_id, id->driver_version);
    for (unsigned i = 0; i < VK_UUID_SIZE && n > 0 && (size_t)n + 3 < size; i++)
        n += snprintf(buf + n, size - (size_t)n, "%02x", id->device_uuid[i]);
    if (n > 0 && (size_t)n + 2 < size)
        snprintf(buf + n, size - (size_t)n, "\n");
}

static int problem_text(const int64_t *problem, uint32_t count, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    if (count == 0)
        return snprintf(buf, size, "-") < (int)size;
    for (uint32_t i = 0; i < count; i++) {
        int w = snprintf(buf + n, size - n, "%s%lld", i ? "," : "", (long long)problem[i]);
        if (w < 0 || (size_t)w >= size - n)
            return 0;
        n += (size_t)w;
    }
    return 1;
}

static unsigned long long hash_text(const char *s)
{
    return (unsigned long long)fnv(FNV_BASIS, s ? s : "", s ? strlen(s) : 0);
}

static unsigned long long spirv_hash_value(const vkat_rt_variant *v)
{
    return v->spirv_hash ? strtoull(v->spirv_hash, NULL, 16) : 0;
}

/* Reads the file and returns its picks when it is intact and of this identity and table; 0 otherwise (missing,
 * corrupted, stale). */
static int read_cache(const char *path, const vkat_rt_device_identity *id, uint64_t table_hash, pick *picks,
                      size_t *npicks)
{
    *npicks = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char *buf = malloc(CACHE_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, CACHE_MAX_BYTES + 1, f) : 0;
    fclose(f);
    int ok = 0;
    if (!buf || n == 0 || n > CACHE_MAX_BYTES)
        goto done;
    buf[n] = 0;
    if (memchr(buf, 0, n)) /* binary garbage */
        goto done;
    /* The checksum line is the last one and covers everything before it. */
    if (buf[n - 1] != '\n')
        goto done;
    buf[n - 1] = 0;
    char *last = strrchr(buf, '\n');
    buf[n - 1] = '\n';
    unsigned long long sum;
    char tail;
    if (!last || sscanf(last + 1, "checksum %16llx%c", &sum, &tail) != 2 || tail != '\n' ||
        sum != fnv(FNV_BASIS, buf, (size_t)(last + 1 - buf)))
        goto done;
    *last = 0;
    char want[160];
    identity_line(id, want, sizeof want);
    size_t magic = strlen(CACHE_MAGIC), idlen = strlen(want);
    if (strncmp(buf, CACHE_MAGIC, magic) != 0 || strncmp(buf + magic, want, idlen) != 0)
        goto done;
    char *line = buf + magic + idlen;
    unsigned long long th;
    int used = 0;
    if (sscanf(line, "table %16llx\n%n", &th, &used) != 1 || used == 0 || th != table_hash)
        goto done;
    line += used;
    while (*line) {
        pick p;
        char *end = strchr(line, '\n');
        if (end)
            *end = 0;
        if (*npicks == CACHE_MAX_PICKS ||
            sscanf(line, "pick %16llx %255s %lu %16llx %16llx", &p.kernel_hash, p.problem, &p.index,
                   &p.spirv_hash, &p.config_hash) != 5) {
            *npicks = 0;
            goto done;
        }
        picks[(*npicks)++] = p;
        if (!end)
            break;
        line = end + 1;
    }
    ok = 1;
done:
    free(buf);
    return ok;
}

vkat_rt_result vkat_rt_cache_lookup(const char *path, const vkat_rt_device_identity *id, const vkat_rt_table *table,
                                    const char *kernel, const int64_t *problem, uint32_t problem_count,
                                    const vkat_rt_variant **out)
{
    if (!path || !id || !table || !kernel || !out || (problem_count && !problem))
        return VKAT_RT_ERR_ARGUMENT;
    *out = NULL;
    char ptext[256];
    pick *picks = malloc(CACHE_MAX_PICKS * sizeof *picks);
    size_t np = 0;
    vkat_rt_result r = VKAT_RT_ERR_NOT_FOUND;
    if (!picks)
        return VKAT_RT_ERR_NO_MEMORY;
    if (!problem_text(problem, problem_count, ptext, sizeof ptext) ||
        !read_cache(path, id, vkat_rt_table_hash(table), picks, &np))
        goto done;
    for (size_t i = 0; i < np; i++) {
        const pick *p = &picks[i];
        if (p->kernel_hash != hash_text(kernel) || strcmp(p->problem, ptext) != 0 || p->index >= table->count)
            continue;
        const vkat_rt_variant *v = &table->variants[p->index];
        /* The table hash already matched; these guard against a pick of another kernel. */
        if (strcmp(v->kernel, kernel) == 0 && spirv_hash_value(v) == p->spirv_hash &&
            hash_text(v->config) == p->config_hash) {
            *out = v;
            r = VKAT_RT_OK;
        }
        break;
    }
done:
    free(picks);
    return r;
}

/* ---- Writing ------------------------------------------------------------------------------------------------ */

static vkat_rt_result fail(char *detail, size_t size, const char *what, const char *path)
{
    if (detail && size)
        snprintf(detail, size, "%s %s", what, path);
    return VKAT_RT_ERR_CACHE;
}

/* A new file beside `path` that no other writer has: its name holds this process (POSIX), this call (the address
 * of a local: another thread's stack is elsewhere), the clock and an attempt count, and it is created exclusively
 * (O_EXCL, which also refuses a planted symlink; C11's "x" without POSIX; before C11 an exists-check, which leaves
 * a short window), so two writers starting at once never write into, or rename, each other's file. *tmp gets the
 * name (empty when `path` is too long); NULL when no file could be created. */
static FILE *create_temporary(const char *path, char *tmp, size_t size)
{
    char here;
    unsigned long call = (unsigned long)(uintptr_t)&here, stamp = (unsigned long)time(NULL) ^ (unsigned long)clock();
#ifdef VKAT_RT_HAVE_POSIX
    long process = (long)getpid();
#else
    long process = 0;
#endif
    for (unsigned attempt = 0; attempt < 64; attempt++) {
        int w = snprintf(tmp, size, "%s.tmp.%ld.%lx.%lx.%u", path, process, call, stamp, attempt);
        if (w < 0 || (size_t)w >= size) {
            tmp[0] = 0;
            return NULL;
        }
#ifdef VKAT_RT_HAVE_POSIX
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd >= 0) {
            FILE *f = fdopen(fd, "wb");
            if (!f) {
                close(fd);
                remove(tmp);
            }
            return f;
        }
        if (errno != EEXIST)
            return NULL;
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
        FILE *f = fopen(tmp, "wbx");
        if (f)
            return f;
#else
        FILE *f = fopen(tmp, "rb");
        if (f) {
            fclose(f); /* someone's: the next name */
            continue;
        }
        if ((f = fopen(tmp, "wb")))
            return f;
#endif
    }
    return NULL;
}

vkat_rt_result vkat_rt_cache_store(const char *path, const vkat_rt_device_identity *id, const vkat_rt_table *table,
                                   const char *kernel, const int64_t *problem, uint32_t problem_count,
                                   const vkat_rt_variant *chosen, char *detail, size_t detail_size)
{
    if (detail && detail_size)
        detail[0] = 0;
    if (!path || !id || !table || !kernel || !chosen || (problem_count && !problem) || chosen < table->variants ||
        chosen >= table->variants + table->count)
        return VKAT_RT_ERR_ARGUMENT;
    uint64_t th = vkat_rt_table_hash(table);
    char ptext[256];
    if (!problem_text(problem, problem_count, ptext, sizeof ptext))
        return VKAT_RT_ERR_ARGUMENT;
    pick *picks = malloc((CACHE_MAX_PICKS + 1) * sizeof *picks);
    size_t cap = 64 * (CACHE_MAX_PICKS + 4);
    char *text = malloc(cap);
    vkat_rt_result r = VKAT_RT_OK;
    if (!picks || !text) {
        free(picks);
        free(text);
        return VKAT_RT_ERR_NO_MEMORY;
    }
    size_t np = 0;
    if (!read_cache(path, id, th, picks, &np))
        np = 0; /* missing, corrupted or stale: start afresh */
    /* Replace this (kernel, problem)'s pick; the oldest goes when the file is full. */
    size_t keep = 0;
    for (size_t i = 0; i < np; i++)
        if (!(picks[i].kernel_hash == hash_text(kernel) && strcmp(picks[i].problem, ptext) == 0))
            picks[keep++] = picks[i];
    np = keep;
    if (np == CACHE_MAX_PICKS) {
        memmove(picks, picks + 1, (np - 1) * sizeof *picks);
        np--;
    }
    pick *p = &picks[np++];
    p->kernel_hash = hash_text(kernel);
    snprintf(p->problem, sizeof p->problem, "%s", ptext);
    p->index = (unsigned long)(chosen - table->variants);
    p->spirv_hash = spirv_hash_value(chosen);
    p->config_hash = hash_text(chosen->config);

    size_t len = 0;
    char idline[160];
    identity_line(id, idline, sizeof idline);
    len += (size_t)snprintf(text + len, cap - len, "%s%stable %016llx\n", CACHE_MAGIC, idline,
                            (unsigned long long)th);
    for (size_t i = 0; i < np && len < cap; i++)
        len += (size_t)snprintf(text + len, cap - len, "pick %016llx %s %lu %016llx %016llx\n",
                                picks[i].kernel_hash, picks[i].problem, picks[i].index, picks[i].spirv_hash,
                                picks[i].config_hash);
    if (len < cap)
        len += (size_t)snprintf(text + len, cap - len, "checksum %016llx\n",
                                (unsigned long long)fnv(FNV_BASIS, text, len));
    if (len >= cap) {
        r = fail(detail, detail_size, "cache text too long for", path);
        goto done;
    }

    char tmp[4096];
    FILE *f = create_temporary(path, tmp, sizeof tmp);
    if (!f) {
        r = fail(detail, detail_size, tmp[0] ? "cannot create" : "path too long:", tmp[0] ? tmp : path);
        goto done;
    }
    int bad = fwrite(text, 1, len, f) != len || fflush(f) != 0;
#ifdef VKAT_RT_HAVE_POSIX
    bad = bad || fsync(fileno(f)) != 0;
#endif
    bad = fclose(f) != 0 || bad;
    if (bad) {
        remove(tmp);
        r = fail(detail, detail_size, "cannot write", tmp);
        goto done;
    }
    int renamed = rename(tmp, path) == 0;
#ifndef VKAT_RT_HAVE_POSIX
    /* rename does not replace an existing file everywhere; another writer may put one back in between */
    for (int i = 0; i < 3 && !renamed; i++) {
        remove(path);
        renamed = rename(tmp, path) == 0;
    }
#endif
    if (!renamed) {
        remove(tmp);
        r = fail(detail, detail_size, "cannot replace", path);
    }
done:
    free(picks);
    free(text);
    return r;
}
