/* cache_race.c — the runtime tuner's cache file (vkat_rt_cache_store) with writers racing: two processes of
 * THREADS threads each store picks into one file at once, as applications starting together would. Every store
 * must succeed, the file left behind must be valid (a lookup finds what a writer stored last) and no temporary
 * file may be left in the directory. With one temporary name per process (PATH.tmp.PID), two threads of one process
 * truncated and renamed each other's file: stores failed ("cannot replace") or the cache came out corrupted.
 * No Vulkan: the cache functions never call it.
 *   cache_race                (POSIX: fork, pthreads, mkdtemp; exit 0 passed, 1 failed) */
#define _POSIX_C_SOURCE 200809L
#include "vkautotune_runtime_tune.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 4
#define STORES 200

static const char *const names[] = {"N"};
static const int64_t tuned[] = {256};
static const vkat_rt_variant variants[2] = {
    {.kernel = "race", .config = "A=1", .spirv_hash = "00000000000000a1", .problem_count = 1,
     .problem_names = names, .problem = tuned},
    {.kernel = "race", .config = "A=2", .spirv_hash = "00000000000000a2", .problem_count = 1,
     .problem_names = names, .problem = tuned},
};
static const vkat_rt_table table = {VKAT_RT_TABLE_VERSION, "cache_race", variants, 2, NULL};
static const vkat_rt_device_identity id = {0x10de, 0x2335, 42, {1, 2, 3}};
static char path[4096];

typedef struct writer {
    int64_t problem; /* one (kernel, problem) per writer, so their picks are told apart */
    int failures;
    char detail[512];
} writer;

static void *write_picks(void *arg)
{
    writer *w = arg;
    for (int i = 0; i < STORES; i++) {
        const vkat_rt_variant *v = &variants[i % 2];
        char detail[512] = "";
        if (vkat_rt_cache_store(path, &id, &table, "race", &w->problem, 1, v, detail, sizeof detail) != VKAT_RT_OK) {
            if (!w->failures++)
                snprintf(w->detail, sizeof w->detail, "%s", detail);
        }
    }
    return NULL;
}

/* THREADS writers in this process; returns the number of failed stores. */
static int race(int64_t first_problem)
{
    pthread_t t[THREADS];
    writer w[THREADS];
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        w[i] = (writer){first_problem + i, 0, ""};
        if (pthread_create(&t[i], NULL, write_picks, &w[i]) != 0) {
            fprintf(stderr, "cache_race: pthread_create failed\n");
            return 1;
        }
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        if (w[i].failures)
            fprintf(stderr, "cache_race: pid %ld writer %d: %d of %d stores failed, first: %s\n", (long)getpid(), i,
                    w[i].failures, STORES, w[i].detail);
        failures += w[i].failures;
    }
    return failures;
}

int main(void)
{
    char dir[] = "/tmp/vkat-cache-race.XXXXXX";
    if (!mkdtemp(dir)) {
        perror("cache_race: mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/cache.txt", dir);
    int bad = 0;
    pid_t child = fork();
    if (child < 0) {
        perror("cache_race: fork");
        return 1;
    }
    int failures = race(child == 0 ? 100 : 200);
    if (child == 0)
        _exit(failures ? 1 : 0);
    int status = 0;
    bad |= waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    bad |= failures != 0;
    if (bad)
        fprintf(stderr, "FAIL: every store succeeds while others race\n");

    /* Picks may be lost to a concurrent writer (the last rename wins), but what is there must read back whole. */
    int found = 0;
    for (int p = 0; p < THREADS; p++)
        for (int base = 100; base <= 200; base += 100) {
            int64_t problem = base + p;
            const vkat_rt_variant *got = NULL;
            if (vkat_rt_cache_lookup(path, &id, &table, "race", &problem, 1, &got) == VKAT_RT_OK) {
                found++;
                if (got != &variants[0] && got != &variants[1]) {
                    fprintf(stderr, "FAIL: problem %lld reads back no variant of the table\n", (long long)problem);
                    bad = 1;
                }
            }
        }
    if (!found) {
        fprintf(stderr, "FAIL: the cache left by the race holds no pick (corrupted or missing)\n");
        bad = 1;
    }

    /* and the next store keeps it usable */
    int64_t after = 999;
    const vkat_rt_variant *got = NULL;
    if (vkat_rt_cache_store(path, &id, &table, "race", &after, 1, &variants[1], NULL, 0) != VKAT_RT_OK ||
        vkat_rt_cache_lookup(path, &id, &table, "race", &after, 1, &got) != VKAT_RT_OK || got != &variants[1]) {
        fprintf(stderr, "FAIL: a store after the race reads back\n");
        bad = 1;
    }

    /* Nothing but the cache is left in the directory: every temporary file was renamed or removed. */
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char full[4200];
        snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, "cache.txt")) {
            fprintf(stderr, "FAIL: left behind: %s\n", e->d_name);
            bad = 1;
        }
        remove(full);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    printf("cache_race: %d writers x %d stores, %d of %d picks in the final file: %s\n", 2 * THREADS, STORES, found,
           2 * THREADS, bad ? "FAILED" : "ok");
    return bad;
}
