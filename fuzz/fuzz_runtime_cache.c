/* fuzz_runtime_cache.c — libFuzzer target: arbitrary bytes as the runtime tuner's cache file
 * (runtime/vkautotune_runtime_cache.c). A lookup must never crash, and must find nothing unless the bytes are a
 * valid file for this identity and table; a store then replaces whatever was there with a file the next lookup
 * reads back. The file lives in a per-process temporary directory. */
#define _POSIX_C_SOURCE 200809L
#include "vkautotune_runtime_tune.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static const char *const names[] = {"M"};
static const int64_t tuned[] = {64};
static const uint32_t words[] = {0x07230203u};
static const vkat_rt_variant variants[] = {
    {.kernel = "k", .config = "A=1", .spirv_hash = "0123456789abcdef", .problem_count = 1, .problem_names = names,
     .problem = tuned, .spirv = words, .spirv_size_bytes = 4},
    {.kernel = "k", .config = "A=2", .spirv_hash = "fedcba9876543210", .problem_count = 1, .problem_names = names,
     .problem = tuned, .spirv = words, .spirv_size_bytes = 4},
};
static const vkat_rt_table table = {VKAT_RT_TABLE_VERSION, "fuzz", variants, 2, NULL};

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        char dir[] = "/tmp/vkat-fuzz-cache-XXXXXX";
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof path, "%s/cache.txt", dir);
    }
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    vkat_rt_device_identity id = {0x10de, 0x2335, 7, {1, 2, 3}};
    const vkat_rt_variant *v = NULL;
    int64_t problem[] = {64};
    if (vkat_rt_cache_lookup(path, &id, &table, "k", problem, 1, &v) == VKAT_RT_OK &&
        v != &variants[0] && v != &variants[1])
        abort(); /* a pick must point into the table */
    if (vkat_rt_cache_store(path, &id, &table, "k", problem, 1, &variants[1], NULL, 0) != VKAT_RT_OK)
        abort();
    if (vkat_rt_cache_lookup(path, &id, &table, "k", problem, 1, &v) != VKAT_RT_OK || v != &variants[1])
        abort(); /* the store rewrote whatever was there */
    return 0;
}
