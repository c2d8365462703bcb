/* test_unmodified.c — what a user's own shader needs, unmodified (issue 20): problem sizes bound to #define,
 * specialization constants, push constants or nothing; [defines] and text-valued parameters through template,
 * configuration text and back; #include next to the including file and in include_dirs, the files' hash that keys
 * stored results; the #define that would replace a declared name; descriptor kinds from the SPIR-V; problem sizes
 * as specialization constants in the runtime library. No device needed. */
#include "compile.h"
#include "includes.h"
#include "shader_sources.h"
#include "space.h"
#include "template.h"
#include "test.h"
#include "util.h"
#include "vkautotune_runtime.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vulkan/vulkan_core.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#define DATA VKAT_SOURCE_DIR "/tests/data/unmodified/"

static vkat_space *load(const char *file)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_space_load(file, &s, &err) == VKAT_OK, "%s: %s", file, err.message);
    return s;
}

static void expect_space_error(const char *text, int line, const char *message)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_space_load_string(text, DATA "x.ini", &s, &err) != VKAT_OK, "accepted: %s", text);
    CHECK_MSG(err.line == line, "line %d, want %d (%s)", err.line, line, err.message);
    CHECK_CONTAINS(err.message, message);
    vkat_space_destroy(s);
}

static void test_sizes_and_text(void)
{
    vkat_space *s = load(DATA "matmul_spec.ini");
    if (!s)
        return;
    CHECK(s->problem_count == 3);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(s->problem[i].binding == VKAT_SIZE_SPEC);
        CHECK(s->problem[i].spec_id == i);
    }
    CHECK(s->include_dir_count == 1 && strstr(s->include_dirs[0], "unmodified/inc"));
    CHECK(s->define_count == 1 && !strcmp(s->defines[0].name, "A_TYPE") && !strcmp(s->defines[0].value, "float"));
    vkat_space_destroy(s);

    s = load(DATA "matmul_push.ini");
    if (!s)
        return;
    CHECK(s->problem[0].binding == VKAT_SIZE_PUSH);
    const vkat_param *vec = &s->params[1];
    CHECK(vec->texts && vec->value_count == 3 && !strcmp(vec->texts[2], "vec4") && vec->values[2] == 2);
    /* A text value goes through the configuration text (database, --start, export) and back. */
    uint32_t choice[3];
    vkat_error err = {0};
    CHECK(vkat_space_parse_config(s, "WG=16,VEC=vec2,VEC_WIDTH=2", 0, choice, &err) == VKAT_OK);
    CHECK(choice[1] == 1);
    char text[256];
    vkat_space_format_config(s, choice, text, sizeof text);
    CHECK_STR(text, "WG=16,VEC=vec2,VEC_WIDTH=2");
    CHECK(vkat_space_parse_config(s, "WG=16,VEC=vec3,VEC_WIDTH=2", 0, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "VEC=vec3 is not among its values (float, vec2, vec4)");

    /* The variant gets the text and the [defines]; the push-constant sizes are not #defined. */
    CHECK(vkat_space_parse_config(s, "WG=16,VEC=vec2,VEC_WIDTH=2", 0, choice, &err) == VKAT_OK);
    vkat_value *env = vkat_space_env_create(s, NULL);
    vkat_space_env_apply(s, choice, env);
    vkat_launch launch = {0};
    char *src = NULL;
    CHECK(vkat_space_launch(s, env, 0, &launch, &err) == VKAT_OK);
    CHECK(vkat_template_for_config(s, "#version 450\nvoid main() {}\n", "t.comp", NULL, env, &launch, 0, &src, &err) ==
          VKAT_OK);
    if (src) {
        CHECK_CONTAINS(src, "#define VEC vec2\n");
        CHECK_CONTAINS(src, "#define A_TYPE float\n");
        CHECK_CONTAINS(src, "#define WG 16\n");
        CHECK(strstr(src, "#define M ") == NULL && strstr(src, "#define N ") == NULL);
    }
    free(src);
    vkat_launch_free(&launch);
    free(env);
    vkat_space_destroy(s);
}

static void test_space_errors(void)
{
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[problem]\nM = 4 @spek(0)\n", 5,
                       "expected '@define', '@spec(N)', '@push' or '@none' after the value of problem size 'M'");
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[problem]\nM = 4 @push\n", 5,
                       "problem size 'M' is @push, but no [push] value uses it");
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[problem]\nM = 4 @spec(0)\n"
                       "[params]\nTN = 1, 2 @spec(0)\n",
                       7, "'TN' and 'M' (line 5) both use @spec(0)");
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[params]\nV = float, vec2 @spec(1)\n",
                       5, "parameter 'V' has text values; @spec needs integers");
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[params]\nV = vec2, vec2\n", 5,
                       "duplicate value vec2 in parameter 'V'");
    expect_space_error("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[problem]\nM = 4\n[defines]\nM = x\n",
                       7, "'M' is already defined as a problem size (line 5)");
    unsetenv("VKAT_TEST_NO_SUCH_VAR");
    expect_space_error("[kernel]\nname = k\ntemplate = ${VKAT_TEST_NO_SUCH_VAR}/mm.comp\n", 3,
                       "environment variable VKAT_TEST_NO_SUCH_VAR is not set (in '${VKAT_TEST_NO_SUCH_VAR}/mm.comp')");
    /* A template named by the caller (the command line's TEMPLATE) replaces the key, unset variable and all. */
    {
        char *path = malloc(64);
        snprintf(path, 64, "/tmp/vkat-tpl-XXXXXX");
        int fd = mkstemp(path);
        FILE *f = fdopen(fd, "wb");
        fputs("[kernel]\nname = k\ntemplate = ${VKAT_TEST_NO_SUCH_VAR}/mm.comp\n", f);
        fclose(f);
        vkat_space *t = NULL;
        vkat_error e2 = {0};
        CHECK_MSG(vkat_space_load_with_template(path, DATA "shaders/matmul_spec.comp", &t, &e2) == VKAT_OK, "%s",
                  e2.message);
        if (t)
            CHECK_STR(t->template_path, DATA "shaders/matmul_spec.comp");
        vkat_space_destroy(t);
        CHECK(vkat_space_load_with_template(path, NULL, &t, &e2) == VKAT_ERR_SPACE);
        unlink(path);
        free(path);
    }
    setenv("VKAT_TEST_SHADERS", DATA "shaders", 1);
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_space_load_string("[kernel]\nname = k\ntemplate = ${VKAT_TEST_SHADERS}/matmul_spec.comp\n",
                                     DATA "x.ini", &s, &err) == VKAT_OK, "%s", err.message);
    if (s)
        CHECK_STR(s->template_path, DATA "shaders/matmul_spec.comp");
    vkat_space_destroy(s);
}

/* One in-memory file as a source set, for the declaration scan. */
static vkat_result clash(const vkat_space *s, const char *text, int *line, char *msg, size_t size)
{
    vkat_source_file f = {"t.comp", "t.comp", (char *)text, strlen(text)};
    vkat_source_set set = {&f, 1};
    vkat_error err = {0};
    vkat_result r = vkat_check_define_clashes(s, &set, 0, &err);
    *line = err.line;
    snprintf(msg, size, "%s", err.message);
    return r;
}

static void test_define_clash(void)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    CHECK(vkat_space_load_string("[kernel]\nname = k\ntemplate = shaders/matmul_spec.comp\n[problem]\nM = 64\nN = 8\n"
                                 "[params]\nBK = 16, 32\n", DATA "x.ini", &s, &err) == VKAT_OK);
    if (!s)
        return;
    int line;
    char msg[1024];
    CHECK(clash(s, "#version 450\n// uint M;\n/* const uint N */\nlayout(constant_id = 0) const uint M = 1;\n", &line,
                msg, sizeof msg) == VKAT_ERR_TEMPLATE);
    CHECK(line == 4);
    CHECK_STR(msg, "the shader declares 'M' here, but the space #defines it (" DATA "x.ini:5, problem size), which "
                   "would replace the declared name with its value; write '@spec(N)' (its constant_id), '@push' or "
                   "'@none' after its value in [problem]");
    CHECK(clash(s, "#version 450\nlayout(push_constant) uniform P {\n    uint K, N;\n} p;\n", &line, msg, sizeof msg) ==
          VKAT_ERR_TEMPLATE);
    CHECK(line == 3 && strstr(msg, "'N'"));
    CHECK(clash(s, "void f(float x, int BK) {}\n", &line, msg, sizeof msg) == VKAT_ERR_TEMPLATE);
    CHECK(strstr(msg, "parameter") != NULL);
    /* Uses, casts, array sizes, type arguments and #ifndef-guarded defaults are not declarations. */
    CHECK(clash(s, "#version 450\n#ifndef M\nconst uint M = 4;\n#endif\nshared float t[M * N];\n"
                   "uint x = uint(M), y = min(M, N);\ncoopmat<float, gl_ScopeSubgroup, M, N, gl_MatrixUseA> a;\n"
                   "void main() { uint i = M; }\n",
                &line, msg, sizeof msg) == VKAT_OK);
    vkat_space_destroy(s);
}

static char *write_tmp(const char *dir, const char *name, const char *text)
{
    char *path = malloc(strlen(dir) + strlen(name) + 2);
    sprintf(path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

static void test_includes(void)
{
    char dir[] = "/tmp/vkat-include-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[64], lib[64];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(lib, sizeof lib, "%s/lib", dir);
    CHECK(mkdir(sub, 0700) == 0 && mkdir(lib, 0700) == 0);
    char *root = write_tmp(sub, "k.comp", "#version 450\n#include \"a.glsl\"\nlayout(local_size_x = 1) in;\n"
                                          "layout(binding = 0) buffer B { float v[]; };\nvoid main() { v[0] = A; }\n");
    char *a = write_tmp(lib, "a.glsl", "#include \"b.glsl\"\n");
    char *b = write_tmp(lib, "b.glsl", "#define A 1.0\n");
    const char *dirs[] = {lib};

    vkat_source_set set;
    vkat_error err = {0};
    CHECK(vkat_source_set_load(root, dirs, 1, &set, &err) == VKAT_OK);
    CHECK(set.count == 3);
    uint64_t h1 = vkat_source_set_hash(&set);
    vkat_source_set_free(&set);
    free(write_tmp(lib, "b.glsl", "#define A 2.0\n"));
    CHECK(vkat_source_set_load(root, dirs, 1, &set, &err) == VKAT_OK);
    CHECK_MSG(vkat_source_set_hash(&set) != h1, "a changed included file must change the hash");
    vkat_source_set_free(&set);
    /* Without includes the hash is the template's own (the template hash stored results were keyed by). */
    CHECK(vkat_source_set_load(b, NULL, 0, &set, &err) == VKAT_OK);
    CHECK(set.count == 1 && vkat_source_set_hash(&set) == XXH3_64bits("#define A 2.0\n", 14));
    vkat_source_set_free(&set);

    /* Compiling: GL_GOOGLE_include_directive is implied; found through include_dirs; a missing one is named. */
    char *src = vkat_read_file(root, NULL);
    vkat_compile_opts opts = {dirs, 1, 0};
    vkat_spirv m = {0};
    CHECK_MSG(vkat_compile_glsl_opts(src, root, VK_API_VERSION_1_1, &opts, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    CHECK(vkat_compile_glsl_opts(src, root, VK_API_VERSION_1_1, NULL, &m, &err) == VKAT_ERR_COMPILE);
    CHECK_STR(err.file, root);
    CHECK(err.line == 2);
    char want[256];
    snprintf(want, sizeof want, "cannot find include 'a.glsl' (looked in %s)", sub);
    CHECK_STR(err.message, want);
    /* An error inside an included file names that file and its line. */
    free(write_tmp(lib, "b.glsl", "#define A 2.0\nint x = ;\n"));
    CHECK(vkat_compile_glsl_opts(src, root, VK_API_VERSION_1_1, &opts, &m, &err) == VKAT_ERR_COMPILE);
    CHECK_CONTAINS(err.file, "lib/b.glsl");
    CHECK(err.line == 2);
    free(src);
    unlink(root);
    unlink(a);
    unlink(b);
    rmdir(sub);
    rmdir(lib);
    rmdir(dir);
    free(root);
    free(a);
    free(b);
}

static void test_descriptor_kinds(void)
{
    const char *src = "#version 450\nlayout(local_size_x = 1) in;\n"
                      "layout(std140, binding = 0) uniform U { vec4 c; } u;\n"
                      "layout(std430, binding = 1) buffer S { float v[]; };\n"
                      "layout(binding = 2) uniform sampler2D tex;\n"
                      "layout(binding = 3, r32f) uniform readonly image2D img;\n"
                      "layout(binding = 4) uniform samplerBuffer tb;\n"
                      "void main() { v[0] = u.c.x + texture(tex, vec2(0)).x + imageLoad(img, ivec2(0)).x + "
                      "texelFetch(tb, 0).x; }\n";
    vkat_spirv m = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_compile_glsl(src, "d.comp", VK_API_VERSION_1_1, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_info si;
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &si, &err) == VKAT_OK);
    CHECK(si.binding_count == 5);
    static const vkat_descriptor_kind want[] = {VKAT_DESC_UNIFORM_BUFFER, VKAT_DESC_STORAGE_BUFFER,
                                                VKAT_DESC_COMBINED_IMAGE_SAMPLER, VKAT_DESC_STORAGE_IMAGE,
                                                VKAT_DESC_UNIFORM_TEXEL_BUFFER};
    for (uint32_t i = 0; i < si.binding_count && i < 5; i++) {
        uint32_t b = si.bindings[i].binding;
        CHECK_MSG(b < 5 && si.bindings[i].kind == want[b], "binding %u is a %s", b,
                  vkat_descriptor_kind_name(si.bindings[i].kind));
    }
    vkat_spirv_free(&m);
}

/* Texel buffers: their kinds, a storage one's format, what each reads as, and which take their size (imageSize,
 * textureSize: the exact descriptor sets) while an image's size does not count. */
static void test_texel_buffers(void)
{
    const char *src = "#version 450\nlayout(local_size_x = 1) in;\n"
                      "layout(binding = 0) uniform usamplerBuffer counts;\n"
                      "layout(binding = 1) uniform textureBuffer plain;\n"
                      "layout(binding = 2, rgba16f) uniform readonly imageBuffer sized;\n"
                      "layout(binding = 3, r32i) uniform writeonly iimageBuffer dst;\n"
                      "layout(binding = 4, r32f) uniform readonly image2D img;\n"
                      "void main() { int n = imageSize(sized) + imageSize(img).x + textureSize(counts);\n"
                      "  imageStore(dst, 0, ivec4(n + int(texelFetch(plain, 0).x))); }\n";
    vkat_spirv m = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_compile_glsl(src, "t.comp", VK_API_VERSION_1_1, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_info si;
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &si, &err) == VKAT_OK);
    CHECK(si.binding_count == 5);
    static const struct {
        vkat_descriptor_kind kind;
        char reads;
        uint8_t reads_length;
        const char *format;
    } want[] = {{VKAT_DESC_UNIFORM_TEXEL_BUFFER, 'u', 1, NULL},
                {VKAT_DESC_UNIFORM_TEXEL_BUFFER, 'f', 0, NULL},
                {VKAT_DESC_STORAGE_TEXEL_BUFFER, 'f', 1, "rgba16f"},
                {VKAT_DESC_STORAGE_TEXEL_BUFFER, 'i', 0, "r32i"},
                {VKAT_DESC_STORAGE_IMAGE, 'f', 0, "r32f"}};
    for (uint32_t i = 0; i < si.binding_count && i < 5; i++) {
        uint32_t b = si.bindings[i].binding;
        if (b >= 5)
            continue;
        const vkat_image_format *f = vkat_image_format_from_spirv(si.bindings[i].image_format);
        CHECK_MSG(si.bindings[i].kind == want[b].kind && si.bindings[i].image_sampled == want[b].reads &&
                      si.bindings[i].reads_length == want[b].reads_length &&
                      (want[b].format ? f && !strcmp(f->name, want[b].format) : !f),
                  "binding %u: a %s reading '%c', reads_length %u, format %s", b,
                  vkat_descriptor_kind_name(si.bindings[i].kind), si.bindings[i].image_sampled,
                  si.bindings[i].reads_length, f ? f->name : "none");
    }
    vkat_spirv_free(&m);
}

/* Specialization constants come back with their types: what a 32-bit integer value would be misread by. */
static void test_spec_types(void)
{
    const char *src = "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
                      "layout(local_size_x = 1) in;\nlayout(constant_id = 0) const uint A = 1;\n"
                      "layout(constant_id = 1) const float B = 1.0;\nlayout(constant_id = 2) const bool C = false;\n"
                      "layout(constant_id = 3) const int16_t D = int16_t(1);\n"
                      "layout(binding = 0) buffer S { float v[]; };\n"
                      "void main() { v[0] = float(A) + B + (C ? 1.0 : 0.0) + float(D); }\n";
    vkat_spirv m = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_compile_glsl(src, "s.comp", VK_API_VERSION_1_1, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_info si;
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &si, &err) == VKAT_OK);
    CHECK(si.spec_count == 4);
    for (uint32_t i = 0; i < si.spec_count && i < 4; i++) {
        const vkat_spec_decl *d = &si.specs[i];
        if (d->id == 0)
            CHECK(!d->is_float && !d->is_bool && d->bytes == 4);
        else if (d->id == 1)
            CHECK(d->is_float && d->bytes == 4);
        else if (d->id == 2)
            CHECK(d->is_bool);
        else
            CHECK(d->id == 3 && !d->is_float && d->bytes == 2);
    }
    vkat_spirv_free(&m);
}

/* A problem size bound to a specialization constant takes the caller's size in the runtime library. */
static void test_runtime_spec_size(void)
{
    static const char *const names[] = {"M", "N"};
    static const int64_t tuned[] = {256, 128};
    static const vkat_rt_spec_constant spec[] = {{0, 256u, "M", 1}, {7, 4u, "TM", 0}};
    static const vkat_rt_op ops[] = {{VKAT_RT_VAR, 0}};
    vkat_rt_variant v = {0};
    v.kernel = "k";
    v.problem_count = 2;
    v.problem_names = names;
    v.problem = tuned;
    v.spec_constants = spec;
    v.spec_constant_count = 2;
    for (int i = 0; i < 3; i++)
        v.groups[i] = (vkat_rt_formula){ops, 1, "M"};
    const int64_t mine[] = {1000, 128};
    vkat_rt_launch l;
    CHECK(vkat_rt_launch_eval(&v, mine, 2, &l) == VKAT_RT_OK);
    CHECK(l.spec[0] == 1000 && l.spec[1] == 4);
    VkSpecializationMapEntry entries[2];
    VkSpecializationInfo info;
    vkat_rt_launch_specialization(&v, &l, entries, &info);
    CHECK(info.mapEntryCount == 2 && entries[0].constantID == 0 && entries[1].constantID == 7);
    const uint32_t *data = info.pData;
    CHECK(data[entries[0].offset / 4] == 1000 && data[entries[1].offset / 4] == 4);
}

int main(void)
{
    test_sizes_and_text();
    test_space_errors();
    test_define_clash();
    test_includes();
    test_descriptor_kinds();
    test_texel_buffers();
    test_spec_types();
    test_runtime_spec_size();
    TEST_END();
}
