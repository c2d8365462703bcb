/* fuzz_replay.c — libFuzzer target: arbitrary bytes as a recorded table (`vkautotune replay`'s JSON: a Kernel
 * Tuner cache or T4 results, repaired when not closed), then what a replay asks of a loaded table (lookups and
 * configuration text of a few raw configurations, the description). A file is read or refused; never a crash or a
 * leak. The file lives in a per-process temporary directory (the loader reads a path). */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        char dir[] = "/tmp/vkat-fuzz-replay-XXXXXX";
        if (!mkdtemp(dir))
            abort();
        snprintf(path, sizeof path, "%s/table.json", dir);
    }
    /* Never the SQLite path: that reader is SQLite's. */
    if (size >= 15 && !memcmp(data, "SQLite format 3", 15))
        return 0;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    static const vkat_replay_load_desc descs[2] = {{NULL, NULL, 0}, {NULL, "GFLOP/s", 1}};
    for (int d = 0; d < 2; d++) {
        vkat_replay_table *t = NULL;
        vkat_error err = {0};
        if (vkat_replay_open(path, &descs[d], &t, &err) != VKAT_OK)
            continue;
        vkat_replay_info info;
        vkat_replay_describe(t, &info);
        vkat_search_space sp = vkat_replay_space(t);
        uint32_t *choice = calloc(t->param_count + 1, sizeof *choice);
        char buf[512];
        for (uint64_t n = 0; choice && n < 16 && n < t->raw_count; n++) {
            double s;
            vkat_search_decode(&sp, n * (t->raw_count / 16 + 1) % t->raw_count, choice);
            if (vkat_replay_lookup(t, choice, &s))
                (void)vkat_replay_value(t, s);
            vkat_replay_format(t, choice, buf, sizeof buf);
        }
        (void)vkat_replay_unit(t);
        free(choice);
        vkat_replay_free(t);
    }
    return 0;
}
