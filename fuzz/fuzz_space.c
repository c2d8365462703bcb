/* fuzz_space.c — libFuzzer target: arbitrary bytes as a space file, then everything a search does with a loaded
 * space (count, decode, check, launch, sequence steps, compared slices, config text). Relative paths resolve under
 * fuzz/ so "template = x" can name fuzz_space.c itself and get past the template check. Must never crash or leak,
 * whatever the bytes. */
#include "space.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    char *text = vkat_strndup((const char *)data, size);
    if (!text)
        return 0;
    vkat_space *s = NULL;
    vkat_error err = {0};
    if (vkat_space_load_string(text, VKAT_SOURCE_DIR "/fuzz/input.ini", &s, &err) == VKAT_OK) {
        vkat_value *env = vkat_space_env_create(s, NULL);
        uint32_t *choice = calloc(s->param_count + 1, sizeof *choice);
        if (env && choice) {
            uint64_t raw, valid;
            vkat_space_count_valid(s, env, 1000, &raw, &valid, NULL, &err);
            uint64_t n = vkat_space_raw_count(s);
            vkat_space_decode(s, n - 1, choice);
            vkat_space_env_apply(s, choice, env);
            vkat_space_check(s, env, NULL, &err);
            char buf[512];
            vkat_space_format_config(s, choice, buf, sizeof buf);
            vkat_space_parse_config(s, buf, 0, choice, &err);
            vkat_space_format_problem(s, buf, sizeof buf);
            vkat_space_set_problem(s, buf, &err);
            vkat_launch l;
            for (int ref = 0; ref < 2; ref++) {
                if (vkat_space_launch(s, env, ref, &l, &err) == VKAT_OK)
                    vkat_launch_free(&l);
                vkat_step *steps = NULL;
                size_t nsteps = 0;
                if (vkat_space_has_sequence(s, ref) && vkat_space_steps(s, env, ref, &steps, &nsteps, &err) == VKAT_OK)
                    free(steps);
            }
            for (size_t b = 0; b < s->buffer_count; b++) {
                uint64_t off, count;
                vkat_space_compare_slice(s, b, env, 1000, &off, &count, &err);
            }
        }
        free(choice);
        free(env);
        vkat_space_destroy(s);
    }
    free(text);
    return 0;
}
