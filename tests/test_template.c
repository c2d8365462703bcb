/* test_template.c — #define insertion after #version, the #line that keeps template line numbers, value
 * formatting, the missing-#version error, the defines a configuration gets, a workgroup size declared by value
 * rewritten to a variant's (replace_local_size), and a shader's own #define rewritten (replace_defines). */
#include "define_rewrite.h"
#include "local_size_rewrite.h"
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
    CHECK(vkat_template_for_config(s, src, s->template_path, NULL, env, &l, 0, &out, &err) == VKAT_OK);
    /* UNROLL is a specialization constant: the runner sets it, the source does not define it. */
    const char *want = "#version 450\n#define M 256\n#define N 128\n#define K 64\n#define WG_X 8\n#define WG_Y 4\n"
                              "#define TM 2\n#define TN 3\n#define VKAT_LOCAL_SIZE_X 8\n#define VKAT_LOCAL_SIZE_Y 4\n"
                              "#define VKAT_LOCAL_SIZE_Z 1\n#line 2\n// Tiny tiled GEMM";
    CHECK(out && strncmp(out, want, strlen(want)) == 0);
    CHECK(out && !strstr(out, "#define UNROLL"));
    free(out);
    vkat_launch_free(&l);
    CHECK(vkat_space_launch(s, env, 1, &l, &err) == VKAT_OK);
    CHECK(vkat_template_for_config(s, src, s->template_path, NULL, env, &l, 1, &out, &err) == VKAT_OK);
    CHECK(out && strstr(out, "#define K 64\n#define VKAT_LOCAL_SIZE_X 16\n#define VKAT_LOCAL_SIZE_Y 16\n"));
    CHECK(out && !strstr(out, "#define TM"));
    free(out);
    vkat_launch_free(&l);
    free(env);
    free(src);
    vkat_space_destroy(s);
}

/* `rewrite(src, x, y, z)` gives want (NULL: nothing rewritten) and says how many declarations changed. */
static void check_rewrite(const char *src, uint32_t x, uint32_t y, uint32_t z, const char *want, int want_count)
{
    uint32_t size[3] = {x, y, z};
    char *out = NULL;
    int count = -1;
    CHECK(vkat_local_size_rewrite(src, size, &out, &count) == VKAT_OK);
    CHECK_MSG(count == want_count, "%d declarations rewritten in '%s', want %d", count, src, want_count);
    if (want)
        CHECK_STR(out ? out : "(nothing)", want);
    else
        CHECK_MSG(out == NULL, "rewrote '%s' into '%s'", src, out);
    free(out);
}

static void test_local_size_rewrite(void)
{
    check_rewrite("#version 450\nlayout(local_size_x = 64) in;\nvoid main() {}\n", 128, 1, 1,
                  "#version 450\nlayout(local_size_x = 128, local_size_y = 1, local_size_z = 1) in;\nvoid main() {}\n", 1);
    /* every axis given, the ones the shader left out too; other qualifiers and macro values */
    check_rewrite("layout (local_size_x=16,local_size_y = BLOCK_Y) in ;", 8, 4, 1,
                  "layout (local_size_x = 8, local_size_y = 4, local_size_z = 1) in ;", 1);
    /* an axis set by a specialization constant stays the shader's */
    check_rewrite("layout(local_size_x_id = 0, local_size_y = 4) in;", 32, 2, 1,
                  "layout(local_size_x_id = 0, local_size_y = 2, local_size_z = 1) in;", 1);
    check_rewrite("layout(local_size_x_id = 0) in;", 32, 1, 1, NULL, 0);
    /* a declaration over three lines keeps its line breaks, so later lines keep their numbers */
    check_rewrite("layout(local_size_x = 64,\n       local_size_y = 1,\n       local_size_z = 1) in;\nx", 256, 1, 1,
                  "layout(local_size_x = 256, local_size_y = 1, local_size_z = 1\n\n) in;\nx", 1);
    /* comments, buffer layouts, outputs and identifiers that merely contain "layout" are left alone */
    check_rewrite("// layout(local_size_x = 64) in;\n/* layout(local_size_x = 64) in; */\n"
                  "layout(std430, binding = 0) buffer B { float b[]; };\nmylayout(local_size_x = 2) in;\n"
                  "layout(location = 0) out vec4 c;\n", 128, 1, 1, NULL, 0);
    /* each declaration of one: an #ifdef's two branches */
    check_rewrite("#ifdef BIG\nlayout(local_size_x = 256) in;\n#else\nlayout(local_size_x = 64) in;\n#endif\n", 32, 1,
                  1, "#ifdef BIG\nlayout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;\n#else\n"
                     "layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;\n#endif\n", 2);
}

/* `#define name` in src rewritten to value gives want (NULL: none found). */
static void check_define(const char *src, const char *name, const char *value, const char *want)
{
    char *out = NULL;
    int found = -1;
    CHECK(vkat_define_rewrite(src, name, value, &out, &found) == VKAT_OK);
    CHECK_MSG(found == (want != NULL), "'%s' in '%s': found %d", name, src, found);
    if (want)
        CHECK_STR(out ? out : "(nothing)", want);
    else
        CHECK_MSG(out == NULL, "rewrote '%s' into '%s'", src, out);
    free(out);
}

static void test_define_rewrite(void)
{
    check_define("#version 450\n#define TILE 16\nshared float t[TILE];\n", "TILE", "32",
                 "#version 450\n#define TILE 32\nshared float t[TILE];\n");
    /* blanks inside the directive, a trailing comment and a 'u' suffix: the body alone changes */
    check_define("  #  define\tBLOCK   128u // the block\n", "BLOCK", "64", "  #  define\tBLOCK   64 // the block\n");
    /* only the first; a longer name, a function-like macro, a commented-out line and #undef do not count */
    check_define("#define TILES 4\n#define TILE(x) x\n// #define TILE 2\n/* #define TILE 3\n*/\n#undef TILE\n"
                 "#define TILE 8\n#define TILE 9\n", "TILE", "1",
                 "#define TILES 4\n#define TILE(x) x\n// #define TILE 2\n/* #define TILE 3\n*/\n#undef TILE\n"
                 "#define TILE 1\n#define TILE 9\n");
    check_define("#define WG\n", "WG", "256", "#define WG 256\n");
    check_define("const uint TILE = 16u;\n", "TILE", "8", NULL);
    const char *body, *end;
    int line = 0;
    CHECK(vkat_define_find("a\n/* x */ #define N 3\n", "N", &body, &end, &line) == 0); /* not at a line's start */
    CHECK(vkat_define_find("a\n\n#define N 3 /* c */\n", "N", &body, &end, &line) == 1 && line == 3 &&
          end - body == 1 && *body == '3');

    char names[3][64];
    vkat_local_size_names("#define T 16\nlayout(local_size_x = T, local_size_y = T) in;\n", names);
    CHECK_STR(names[0], "T");
    CHECK_STR(names[1], "T");
    CHECK_STR(names[2], "");
    vkat_local_size_names("layout(local_size_x = 64, local_size_y_id = 1, local_size_z = BZ) in;\n"
                          "// layout(local_size_x = C) in;\n", names);
    CHECK_STR(names[0], "");
    CHECK_STR(names[1], "");
    CHECK_STR(names[2], "BZ");
    vkat_local_size_names("layout(local_size_x = WG * 2) in;\n", names); /* an expression is no one macro */
    CHECK_STR(names[0], "");
}

/* Other engines' stage tags (vkat_template_compute_section): blanked, not removed, with the other stages' lines. */
static void test_compute_section(void)
{
    vkat_error err = {0};
    char *out = NULL, buf[512];
    CHECK(vkat_template_compute_section("#version 450\nvoid main() {}\n", "t.comp", &out, &err) == VKAT_OK);
    CHECK(out == NULL); /* no tag: the source as it is */
    CHECK(vkat_template_compute_section("#type vertex\nv\n#type compute // k\n#version 450\nc\n", "t.glsl", &out,
                                        &err) == VKAT_OK);
    CHECK_STR(out ? out : "(nothing)", "            \n \n                  \n#version 450\nc\n");
    char *again = NULL;
    CHECK(out && vkat_template_compute_section(out, "t.glsl", &again, &err) == VKAT_OK && again == NULL);
    free(out);
    /* a #version before shaderc's pragma is shared; `#pragma stage(compute)` and `#shader Compute` are tags too */
    CHECK(vkat_template_compute_section("#version 450\n  #pragma shader_stage( compute )\r\nc\n", "t.comp", &out,
                                        &err) == VKAT_OK);
    CHECK_STR(out ? out : "(nothing)", "#version 450\n                                  \nc\n");
    free(out);
    CHECK(vkat_template_compute_section("#shader Compute\n#pragma stage(compute)\n#version 450\n", "t", &out, &err) ==
          VKAT_OK);
    CHECK_STR(out ? out : "(nothing)", "               \n                      \n#version 450\n");
    free(out);
    /* not tags: a word glued on, text after the stage, an empty stage */
    CHECK(vkat_template_compute_section("#shadercompute\n#type compute x\n#type\n#pragma once\n", "t", &out, &err) ==
          VKAT_OK);
    CHECK(out == NULL);
    CHECK(vkat_template_compute_section("// c\n#shader vertex\nv\n#shader pixel\n", "v.glsl", &out, &err) ==
          VKAT_ERR_TEMPLATE);
    CHECK(out == NULL);
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
              "v.glsl:2: the file's stage tags (the first here, '#shader vertex') mark no compute stage (it has "
              "vertex, pixel): vkautotune tunes a compute shader; tag its section `#shader compute` or give it a file "
              "of its own");
    CHECK(vkat_template_compute_section("#[compute]\na\n#[vertex]\nb\n#[compute]\n", "g.glsl", &out, &err) ==
          VKAT_ERR_TEMPLATE);
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf), "g.glsl:5: a second compute section (the first is tagged at "
              "line 1): the file may hold one compute stage");
    /* Godot: the #[versions] section and #VERSION_DEFINES, only in a file of Godot's tags */
    CHECK(vkat_template_compute_section("#[versions]\na = \"\";\n#[compute]\n#version 450\n#VERSION_DEFINES\n",
                                        "g.glsl", &out, &err) == VKAT_OK);
    CHECK_STR(out ? out : "(nothing)", "           \n       \n          \n#version 450\n                \n");
    free(out);
    CHECK(vkat_template_compute_section("#version 450\n#VERSION_DEFINES\n", "g.glsl", &out, &err) == VKAT_OK);
    CHECK(out == NULL);
}

int main(void)
{
    test_instantiate();
    test_compute_section();
    test_for_config();
    test_local_size_rewrite();
    test_define_rewrite();
    TEST_END();
}
