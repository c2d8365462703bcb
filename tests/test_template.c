/* test_template.c — #define insertion after #version, the #line that keeps template line numbers, value
 * formatting, the missing-#version error, and the defines a configuration gets. */
#include "template.h"
#include "test.h"
#include "util.h"

#define DATA VKAT_SOURCE_DIR "/tests/data/spaces/"

static void test_instantiate(void)
{
    vkat_error err = {0};
    char *out = NULL;
    vkat_define defs[] = {{"TM", {false, 4, 0}}, {"NEG", {false, -3, 0}}, {"ALPHA", {true, 0, 0.1}},
                          {"TWO", {true, 0, 2.0}}, {"BIG", {true, 0, 1e300}}};
    CHECK(vkat_template_instantiate("#version 450\nvoid main() {}\n", "t.comp", defs, 5, &out, &err) == VKAT_OK);
    CHECK_STR(out, "#version 450\n#define TM 4\n#define NEG -3\n#define ALPHA 0.10000000000000001\n#define TWO 2.0\n"
                   "#define BIG 1.0000000000000001e+300\n#line 2\nvoid main() {}\n");
    free(out);

    /* #version after comments: #line names the template line that follows it. */
    CHECK(vkat_template_instantiate("// a\n// b\n  # version 460 core\r\nx\n", "t.comp", defs, 1, &out, &err) ==
          VKAT_OK);
    CHECK_STR(out, "// a\n// b\n  # version 460 core\r\n#define TM 4\n#line 4\nx\n");
    free(out);

    /* Last line without a newline, no defines. */
    CHECK(vkat_template_instantiate("#version 450", "t.comp", NULL, 0, &out, &err) == VKAT_OK);
    CHECK_STR(out, "#version 450\n#line 2\n");
    free(out);

    /* "#versionX" is not a version line. */
    char buf[256];
    CHECK(vkat_template_instantiate("#versionX 450\nvoid main(){}\n", "t.comp", NULL, 0, &out, &err) ==
          VKAT_ERR_TEMPLATE);
    CHECK(out == NULL);
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf), "t.comp:1: template has no #version line");
    CHECK(vkat_template_instantiate("", "e.comp", NULL, 0, &out, &err) == VKAT_ERR_TEMPLATE);

    vkat_define inf[] = {{"X", {true, 0, INFINITY}}};
    CHECK(vkat_template_instantiate("#version 450\n", "t.comp", inf, 1, &out, &err) == VKAT_ERR_TEMPLATE);
    CHECK_STR(err.message, "define X is not a finite number");
}

static void test_for_config(void)
{
    vkat_error err = {0};
    vkat_space *s;
    CHECK(vkat_space_load(DATA "good.ini", &s, &err) == VKAT_OK);
    if (!s)
        return;
    char *src = vkat_read_file(s->template_path, NULL);
    CHECK(src != NULL);
    vkat_value *env = vkat_space_env_create(s, NULL);
    uint32_t choice[5];
    CHECK(vkat_space_parse_config(s, "WG_X=8,WG_Y=4,TM=2,TN=3,UNROLL=4", 0, choice, &err) == VKAT_OK);
    vkat_space_env_apply(s, choice, env);
    vkat_launch l;
    CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_OK);
    char *out = NULL;
    CHECK(vkat_template_for_config(s, src, s->template_path, env, &l, 0, &out, &err) == VKAT_OK);
    /* UNROLL is a specialization constant: the runner sets it, the source does not define it. */
    const char *want = "#version 450\n#define M 256\n#define N 128\n#define K 64\n#define WG_X 8\n#define WG_Y 4\n"
                              "#define TM 2\n#define TN 3\n#define VKAT_LOCAL_SIZE_X 8\n#define VKAT_LOCAL_SIZE_Y 4\n"
                              "#define VKAT_LOCAL_SIZE_Z 1\n#line 2\n// Tiny tiled GEMM";
    CHECK(out && strncmp(out, want, strlen(want)) == 0);
    CHECK(out && !strstr(out, "#define UNROLL"));
    free(out);
    vkat_launch_free(&l);
    CHECK(vkat_space_launch(s, env, 1, &l, &err) == VKAT_OK);
    CHECK(vkat_template_for_config(s, src, s->template_path, env, &l, 1, &out, &err) == VKAT_OK);
    CHECK(out && strstr(out, "#define K 64\n#define VKAT_LOCAL_SIZE_X 16\n#define VKAT_LOCAL_SIZE_Y 16\n"));
    CHECK(out && !strstr(out, "#define TM"));
    free(out);
    vkat_launch_free(&l);
    free(env);
    free(src);
    vkat_space_destroy(s);
}

int main(void)
{
    test_instantiate();
    test_for_config();
    TEST_END();
}
