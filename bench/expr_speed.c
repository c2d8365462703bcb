/* expr_speed.c — constraint evaluations per second on a GEMM-like space: a big space (millions of configurations)
 * walked lazily by index (decode -> apply -> check), the way a search strategy samples it. Prints the figure and
 * writes it to argv[1] (default records/expr_speed.txt). */
#include "space.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const space_text =
    "[kernel]\nname = gemm\ntemplate = tests/data/spaces/gemm.comp\n"
    "[problem]\nM = 4096\nN = 4096\nK = 4096\n"
    "[params]\nWG_X = pow2(1, 256)\nWG_Y = pow2(1, 256)\nTM = pow2(1, 16)\nTN = pow2(1, 16)\nTK = pow2(1, 64)\n"
    "VEC = 1, 2, 4\nUNROLL = 1, 2, 4, 8\nBUF = 1, 2\nLOAD_A = 1, 2, 4, 8\nSPLIT_K = pow2(1, 16)\n"
    "[constraints]\n"
    "invocations = WG_X * WG_Y <= device.max_workgroup_invocations\n"
    "min_wave = WG_X * WG_Y >= 32\n"
    "divides_m = M % (WG_Y * TM) == 0\n"
    "divides_n = N % (WG_X * TN) == 0\n"
    "divides_k = K % (TK * SPLIT_K) == 0 && TK % UNROLL == 0\n"
    "loads = (WG_Y * TM * TK) % (WG_X * WG_Y * LOAD_A) == 0\n"
    "vector = TN % VEC == 0\n"
    "shared = BUF * 4 * TK * (WG_Y * TM + WG_X * TN) <= device.max_shared_memory\n"
    "registers = TM * TN + TM + TN <= 128\n"
    "groups = cdiv(N, WG_X * TN) * cdiv(M, WG_Y * TM) >= 64\n";

int main(int argc, char **argv)
{
    const char *out_path = argc > 1 ? argv[1] : VKAT_SOURCE_DIR "/records/expr_speed.txt";
    vkat_space *s;
    vkat_error err = {0};
    char path[1024];
    snprintf(path, sizeof path, "%s/bench_space.ini", VKAT_SOURCE_DIR);
    if (vkat_space_load_string(space_text, path, &s, &err)) {
        char buf[1200];
        fprintf(stderr, "expr_speed: %s\n", vkat_error_format(&err, buf, sizeof buf));
        return 1;
    }
    vkat_value *env = vkat_space_env_create(s, NULL);
    uint32_t *choice = calloc(s->param_count, sizeof *choice);
    uint64_t raw = vkat_space_raw_count(s);
    /* A multiplicative walk (index * odd stride mod raw) visits configurations in scattered order, so every
     * check decodes a fresh index instead of benefiting from a predictable odometer. */
    uint64_t stride = 2654435761u % raw | 1, index = 0, checks = 0, evals = 0, valid = 0;
    double start = vkat_now(), elapsed = 0;
    while (elapsed < 2.0) {
        for (int i = 0; i < 100000; i++) {
            index = (index + stride) % raw;
            vkat_space_decode(s, index, choice);
            vkat_space_env_apply(s, choice, env);
            size_t failed = s->constraint_count;
            int ok = vkat_space_check(s, env, &failed, &err);
            if (ok < 0) {
                fprintf(stderr, "expr_speed: %s\n", err.message);
                return 1;
            }
            valid += (uint64_t)ok;
            evals += ok ? s->constraint_count : failed + 1; /* constraints actually evaluated */
            checks++;
        }
        elapsed = vkat_now() - start;
    }
    double per_s = (double)evals / elapsed, configs_s = (double)checks / elapsed;
    char line[512];
    snprintf(line, sizeof line,
             "expr_speed: %.1f million constraint evaluations/s, %.1f million configurations/s "
             "(space %llu configurations, %zu constraints, %.2f%% of sampled valid, %.1f s, one core)\n",
             per_s / 1e6, configs_s / 1e6, (unsigned long long)raw, s->constraint_count,
             100.0 * (double)valid / (double)checks, elapsed);
    fputs(line, stdout);
    FILE *f = fopen(out_path, "w");
    if (!f || fputs(line, f) < 0) {
        fprintf(stderr, "expr_speed: cannot write %s\n", out_path);
        return 1;
    }
    fclose(f);
    free(choice);
    free(env);
    vkat_space_destroy(s);
    return 0;
}
