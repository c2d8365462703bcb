/* compile.c — GLSL -> SPIR-V with glslang's C interface, validation and disassembly with SPIRV-Tools.
 *
 * Error messages point at the template: the template stage inserts a #line directive after its #defines, so the
 * line glslang reports is the template's own. This file compiles and validates; it never runs anything.
 * Reading facts back out of a module (workgroup size, shared memory) lives in spirv_info.c. */
#include "compile.h"
#include "includes.h"
#include "spirv_idle_decorations.h"
#include "hlsl.h"
#include "template.h"
#include "util.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <pthread.h>
#include <spirv-tools/libspirv.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan_core.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static pthread_once_t glslang_once = PTHREAD_ONCE_INIT;

static void glslang_init_once(void)
{
    glslang_initialize_process();
}

void vkat_compile_init(void)
{
    pthread_once(&glslang_once, glslang_init_once);
}

void vkat_spirv_free(vkat_spirv *m)
{
    if (!m)
        return;
    free(m->words);
    m->words = NULL;
    m->count = 0;
}

uint64_t vkat_spirv_hash(const vkat_spirv *m)
{
    return XXH3_64bits(m->words, m->count * sizeof(uint32_t));
}

char *vkat_hash_hex(uint64_t h, char out[17])
{
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return out;
}

/* Vulkan 1.1 allows SPIR-V 1.3, 1.2 allows 1.5, 1.3 and later 1.6. */
static void targets_for(uint32_t api, glslang_target_client_version_t *client, glslang_target_language_version_t *spv,
                        spv_target_env *env)
{
    uint32_t minor = VK_API_VERSION_MINOR(api);
    if (VK_API_VERSION_MAJOR(api) > 1 || minor >= 3) {
        *client = GLSLANG_TARGET_VULKAN_1_3;
        *spv = GLSLANG_TARGET_SPV_1_6;
        *env = SPV_ENV_VULKAN_1_3;
    } else if (minor == 2) {
        *client = GLSLANG_TARGET_VULKAN_1_2;
        *spv = GLSLANG_TARGET_SPV_1_5;
        *env = SPV_ENV_VULKAN_1_2;
    } else if (minor == 1) {
        *client = GLSLANG_TARGET_VULKAN_1_1;
        *spv = GLSLANG_TARGET_SPV_1_3;
        *env = SPV_ENV_VULKAN_1_1;
    } else {
        *client = GLSLANG_TARGET_VULKAN_1_0;
        *spv = GLSLANG_TARGET_SPV_1_0;
        *env = SPV_ENV_VULKAN_1_0;
    }
}

/* ---- #include, resolved as glslc does ------------------------------------------------------------------------ */

typedef struct includer {
    const char *root; /* the shader's path: glslang names it "" as an includer */
    const vkat_compile_opts *opts;
    char missing[256]; /* the first header that could not be found, for the message */
} includer;

static glsl_include_result_t *include_file(void *ctx, const char *header, const char *from, size_t depth)
{
    includer *in = ctx;
    (void)depth;
    const vkat_compile_opts *o = in->opts;
    char *path = vkat_include_resolve(from && *from ? from : in->root, header, o ? o->include_dirs : NULL,
                                      o ? o->include_dir_count : 0);
    size_t size = 0;
    char *text = NULL;
    for (size_t i = 0; path && o && i < o->include_text_count && !text; i++)
        if (!strcmp(o->include_texts[i].path, path) && (text = vkat_strdup(o->include_texts[i].text)))
            size = strlen(text);
    if (path && !text)
        text = vkat_read_file(path, &size);
    glsl_include_result_t *res = calloc(1, sizeof *res);
    if (!text || !res) {
        if (!in->missing[0])
            snprintf(in->missing, sizeof in->missing, "%s", header);
        free(path);
        free(text);
        free(res);
        return NULL; /* glslang then fails at the #include's line */
    }
    res->header_name = path;
    res->header_data = text;
    res->header_length = size;
    return res;
}

static int free_include(void *ctx, glsl_include_result_t *res)
{
    (void)ctx;
    if (res) {
        free((char *)res->header_name);
        free((char *)res->header_data);
        free(res);
    }
    return 0;
}

static void describe_search(const includer *in, char *buf, size_t size)
{
    const char *slash = strrchr(in->root, '/');
    int n = snprintf(buf, size, "%.*s", slash ? (int)(slash - in->root) : 1, slash ? in->root : ".");
    for (size_t i = 0; in->opts && i < in->opts->include_dir_count && n > 0 && (size_t)n < size; i++)
        n += snprintf(buf + n, size - (size_t)n, ", %s", in->opts->include_dirs[i]);
}

/* glslang logs "ERROR: 0:12: 'x' : undeclared identifier" (or "ERROR: /dir/types.glsl:12: ..." inside an included
 * file); take the first error's file, line and text. */
static vkat_result compile_failure(vkat_error *err, const char *path, const char *stage, const char *log,
                                   const includer *in)
{
    vkat_log(VKAT_LOG_DEBUG, "glslang %s log for %s:\n%s", stage, path, log ? log : "");
    const char *e = log ? strstr(log, "ERROR: ") : NULL;
    if (!e)
        return vkat_fail(err, VKAT_ERR_COMPILE, path, 0, "GLSL %s failed: %s", stage,
                         log && *log ? log : "no message from glslang");
    e += 7;
    int line = 0;
    char file[512];
    snprintf(file, sizeof file, "%s", path);
    /* the first ":<digits>:" ends the source name */
    for (const char *c = strchr(e, ':'); c && c < e + strcspn(e, "\n"); c = strchr(c + 1, ':')) {
        const char *d = c + 1;
        while (*d >= '0' && *d <= '9')
            d++;
        if (d == c + 1 || *d != ':')
            continue;
        if (!(c - e == 1 && e[0] == '0') && c > e)
            snprintf(file, sizeof file, "%.*s", (int)(c - e), e);
        line = atoi(c + 1);
        e = d + 1;
        break;
    }
    if (in && in->missing[0] && strstr(e, "include")) {
        char where[1024];
        describe_search(in, where, sizeof where);
        return vkat_fail(err, VKAT_ERR_COMPILE, file, line, "cannot find include '%s' (looked in %s)", in->missing,
                         where);
    }
    while (*e == ' ')
        e++;
    size_t len = strcspn(e, "\n");
    while (len > 0 && (e[len - 1] == ' ' || e[len - 1] == '\r'))
        len--; /* glslang ends some messages with a blank ("undeclared identifier ") */
    return vkat_fail(err, VKAT_ERR_COMPILE, file, line, "%.*s", (int)len, e);
}

vkat_result vkat_compile_glsl(const char *source, const char *path, uint32_t api, vkat_spirv *out, vkat_error *err)
{
    return vkat_compile_glsl_opts(source, path, api, NULL, out, err);
}

/* The function an HLSL shader is compiled from: [kernel] entry's (opts), else its first [numthreads] one. */
static vkat_result hlsl_function(const char *source, const char *path, const vkat_compile_opts *opts, char *name,
                                 size_t size, vkat_error *err)
{
    if (!vkat_hlsl_entry(source, 0, name, size))
        return vkat_fail(err, VKAT_ERR_COMPILE, path, 0, "an HLSL shader needs a compute entry point: a function "
                         "marked [numthreads(X, Y, Z)]");
    if (opts && opts->entry && strcmp(opts->entry, "main"))
        snprintf(name, size, "%s", opts->entry);
    return VKAT_OK;
}

/* The rules glslang compiles shader by: HLSL's entry point (hlsl_entry, NULL for GLSL) and a binding for
 * each resource without a register, OpenGL's relaxed rules and binding points where opts asks. 1 where
 * bindings are then assigned or moved (glslang_program_map_io after linking). */
static int set_rules(glslang_shader_t *shader, const vkat_compile_opts *opts, const char *hlsl_entry)
{
    int rules = opts ? opts->opengl_rules : VKAT_RULES_VULKAN;
    if (hlsl_entry) { /* a function named by [kernel] entry keeps its name, the first [numthreads] one is "main" */
        int named = opts && opts->entry && !strcmp(opts->entry, hlsl_entry);
        glslang_shader_set_entry_point(shader, named ? hlsl_entry : "main");
        glslang_shader_set_source_entry_point(shader, hlsl_entry);
        glslang_shader_set_options(shader, GLSLANG_SHADER_AUTO_MAP_BINDINGS);
        return 1;
    }
    if (rules != VKAT_RULES_VULKAN) {
        glslang_shader_set_options(shader, GLSLANG_SHADER_AUTO_MAP_BINDINGS | GLSLANG_SHADER_VULKAN_RULES_RELAXED);
        glslang_shader_set_default_uniform_block_name(shader, VKAT_OPENGL_UNIFORM_BLOCK);
    }
    if (rules == VKAT_RULES_OPENGL_APART) {
        glslang_shader_shift_binding(shader, GLSLANG_RESOURCE_TYPE_UBO, VKAT_OPENGL_UNIFORM_BASE);
        glslang_shader_shift_binding(shader, GLSLANG_RESOURCE_TYPE_IMAGE, VKAT_OPENGL_IMAGE_BASE);
        glslang_shader_shift_binding(shader, GLSLANG_RESOURCE_TYPE_SAMPLER, VKAT_OPENGL_TEXTURE_BASE);
        glslang_shader_shift_binding(shader, GLSLANG_RESOURCE_TYPE_TEXTURE, VKAT_OPENGL_TEXTURE_BASE);
        glslang_shader_shift_binding(shader, GLSLANG_RESOURCE_TYPE_COMBINED_SAMPLER, VKAT_OPENGL_TEXTURE_BASE);
    }
    return rules != VKAT_RULES_VULKAN;
}

vkat_result vkat_compile_glsl_opts(const char *source, const char *path, uint32_t api, const vkat_compile_opts *opts,
                                   vkat_spirv *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    vkat_compile_init();
    spv_target_env env;
    glslang_input_t in = {0};
    in.language = GLSLANG_SOURCE_GLSL;
    in.stage = GLSLANG_STAGE_COMPUTE;
    in.client = GLSLANG_CLIENT_VULKAN;
    in.target_language = GLSLANG_TARGET_SPV;
    targets_for(api, &in.client_version, &in.target_language_version, &env);
    /* glslc enables #include for every shader; shaders written for it (most third-party ones) rely on that. Only
     * where the source includes something, so that other modules stay byte for byte what they were. */
    char *with_includes = NULL, *unmarked = NULL;
    /* HLSL (hlsl.h): glslang's HLSL front end, whose preprocessor takes #include itself; its [numthreads] function
     * becomes the module's entry point "main", so the rest of the tool never needs its name. */
    int hlsl = vkat_is_hlsl(path, source);
    char hlsl_entry[128] = "";
    vkat_result named = hlsl ? hlsl_function(source, path, opts, hlsl_entry, sizeof hlsl_entry, err) : VKAT_OK;
    if (named != VKAT_OK)
        return named;
    vkat_result cut = hlsl ? VKAT_OK : vkat_template_compute_section(source, path, &unmarked, err);
    if (cut != VKAT_OK)
        return cut; /* the tuner and init cut the template before; this is for the callers that do not */
    vkat_result no_memory = hlsl ? vkat_hlsl_prepare(source, &with_includes)
                                 : vkat_template_enable_includes(unmarked ? unmarked : source, &with_includes);
    if (no_memory) {
        free(unmarked);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    if (with_includes)
        free(unmarked), unmarked = NULL;
    in.code = with_includes ? with_includes : unmarked ? unmarked : source;
    in.default_version = hlsl ? 100 : 450;
    in.default_profile = GLSLANG_NO_PROFILE;
    in.messages = GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT;
    if (hlsl) {
        in.language = GLSLANG_SOURCE_HLSL;
        in.messages |= GLSLANG_MSG_READ_HLSL_BIT;
    }
    in.resource = glslang_default_resource();
    includer inc = {path ? path : "", opts, ""};
    in.callbacks.include_local = include_file;
    in.callbacks.include_system = include_file;
    in.callbacks.free_include_result = free_include;
    in.callbacks_ctx = &inc;

    vkat_result r = VKAT_OK;
    glslang_program_t *program = NULL;
    glslang_shader_t *shader = glslang_shader_create(&in);
    if (!shader) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "glslang could not create a shader");
        goto cleanup;
    }
    int map_io = set_rules(shader, opts, hlsl ? hlsl_entry : NULL);
    if (!glslang_shader_preprocess(shader, &in)) {
        r = compile_failure(err, path, "preprocessing", glslang_shader_get_info_log(shader), &inc);
        goto cleanup;
    }
    if (!glslang_shader_parse(shader, &in)) {
        r = compile_failure(err, path, "compilation", glslang_shader_get_info_log(shader), &inc);
        goto cleanup;
    }
    program = glslang_program_create();
    glslang_program_add_shader(program, shader);
    if (!glslang_program_link(program, in.messages)) {
        r = compile_failure(err, path, "linking", glslang_program_get_info_log(program), &inc);
        goto cleanup;
    }
    if (map_io && !glslang_program_map_io(program)) { /* where the bindings are assigned */
        r = compile_failure(err, path, "binding assignment", glslang_program_get_info_log(program), &inc);
        goto cleanup;
    }
    /* No optimizer here: drivers optimise anyway, and it would multiply compile time per variant; vkat_compile_cached
     * runs SPIRV-Tools' passes itself where VKAT_SPIRV_OPT asks (compile.h says what they did on the H200). */
    glslang_spv_options_t spv_opts = {0};
    spv_opts.disable_optimizer = true;
    glslang_program_SPIRV_generate_with_options(program, in.stage, &spv_opts);
    const char *msgs = glslang_program_SPIRV_get_messages(program);
    if (msgs && *msgs)
        vkat_log(VKAT_LOG_DEBUG, "glslang SPIR-V messages for %s: %s", path, msgs);
    out->count = glslang_program_SPIRV_get_size(program);
    out->words = malloc(out->count * sizeof(uint32_t));
    if (!out->words) {
        out->count = 0;
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    glslang_program_SPIRV_get(program, out->words);
    if (hlsl)
        vkat_hlsl_rebind_globals(out->words, out->count);
    if (vkat_spirv_drop_idle_decorations(out->words, &out->count))
        vkat_log(VKAT_LOG_DEBUG, "%s: memory qualifiers on the push-constant block or uniform locations dropped (they "
                 "mean nothing in Vulkan)", path ? path : "shader");

cleanup:
    glslang_program_delete(program);
    glslang_shader_delete(shader);
    free(with_includes);
    free(unmarked);
    return r;
}

/* ---- SPIRV-Tools passes -------------------------------------------------------------------------------------- */

/* The optimizer's messages, to the debug log: without a consumer, SPIRV-Tools aborts the process when a pass
 * reports one (std::bad_function_call), where the caller only needs the pass's failure. */
static void optimizer_message(spv_message_level_t level, const char *source, const spv_position_t *position,
                              const char *message)
{
    (void)source, (void)position;
    vkat_log(VKAT_LOG_DEBUG, "SPIRV-Tools (level %d): %s", (int)level, message ? message : "");
}

vkat_result vkat_spirv_run_passes(const vkat_spirv *in, uint32_t api, const char *const *flags, size_t count,
                                  vkat_spirv *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    glslang_target_client_version_t client;
    glslang_target_language_version_t spv;
    spv_target_env env = SPV_ENV_UNIVERSAL_1_6;
    if (api)
        targets_for(api, &client, &spv, &env);
    spv_optimizer_t *opt = spvOptimizerCreate(env);
    spv_optimizer_options opts = spvOptimizerOptionsCreate();
    spv_binary bin = NULL;
    vkat_result r = VKAT_OK;
    if (!opt || !opts) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "SPIRV-Tools could not create an optimizer");
        goto done;
    }
    spvOptimizerSetMessageConsumer(opt, optimizer_message);
    /* The caller validates what it keeps; the input was validated or comes straight from glslang. */
    spvOptimizerOptionsSetRunValidator(opts, false);
    /* One flag at a time, in order, so that an unknown one is named (not just the first of the list). */
    for (size_t i = 0; i < count; i++)
        if (!spvOptimizerRegisterPassFromFlag(opt, flags[i])) {
            r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "SPIRV-Tools does not know the pass '%s'", flags[i]);
            goto done;
        }
    if (spvOptimizerRun(opt, in->words, in->count, &bin, opts) != SPV_SUCCESS || !bin) {
        r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIRV-Tools' passes (%zu, from %s) failed on the module",
                      count, count ? flags[0] : "none");
        goto done;
    }
    out->words = malloc(bin->wordCount * sizeof *out->words);
    if (!out->words) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    memcpy(out->words, bin->code, bin->wordCount * sizeof *out->words);
    out->count = bin->wordCount;
done:
    spvBinaryDestroy(bin);
    spvOptimizerOptionsDestroy(opts);
    spvOptimizerDestroy(opt);
    return r;
}

/* spirv-opt's -O (SPIRV-Tools' performance recipe) without its loop-unroll: the [[unroll]] hints stay for the driver,
 * and the module stays about glslang's size (-O's unrolling multiplied it up to 25x). */
/* clang-format off */
static const char *const passes_nounroll[] = {
    "--wrap-opkill", "--eliminate-dead-branches", "--merge-return", "--inline-entry-points-exhaustive",
    "--eliminate-dead-functions", "--eliminate-dead-code-aggressive", "--private-to-local",
    "--eliminate-local-single-block", "--eliminate-local-single-store", "--eliminate-dead-code-aggressive",
    "--scalar-replacement", "--convert-local-access-chains", "--eliminate-local-single-block",
    "--eliminate-local-single-store", "--eliminate-dead-code-aggressive", "--ssa-rewrite",
    "--eliminate-dead-code-aggressive", "--ccp", "--eliminate-dead-code-aggressive", "--eliminate-dead-branches",
    "--redundancy-elimination", "--combine-access-chains", "--simplify-instructions", "--scalar-replacement",
    "--convert-local-access-chains", "--eliminate-local-single-block", "--eliminate-local-single-store",
    "--eliminate-dead-code-aggressive", "--ssa-rewrite", "--eliminate-dead-code-aggressive", "--vector-dce",
    "--eliminate-dead-inserts", "--eliminate-dead-branches", "--simplify-instructions", "--if-conversion",
    "--copy-propagate-arrays", "--reduce-load-size", "--eliminate-dead-code-aggressive", "--merge-blocks",
    "--redundancy-elimination", "--eliminate-dead-branches", "--merge-blocks", "--simplify-instructions"};
/* Only what turns function-local variables into SSA values (what the driver's front end otherwise does). */
static const char *const passes_ssa[] = {
    "--eliminate-local-single-block", "--eliminate-local-single-store", "--scalar-replacement",
    "--convert-local-access-chains", "--eliminate-local-single-block", "--eliminate-local-single-store",
    "--ssa-rewrite", "--eliminate-dead-code-aggressive"};
/* clang-format on */
static const char *const passes_full[] = {"-O"};

static const struct {
    const char *name;
    const char *const *flags;
    size_t count;
} pass_sets[] = {
    [VKAT_SPIRV_OPT_NONE] = {"0", NULL, 0},
    [VKAT_SPIRV_OPT_SSA] = {"ssa", passes_ssa, VKAT_COUNTOF(passes_ssa)},
    [VKAT_SPIRV_OPT_NOUNROLL] = {"nounroll", passes_nounroll, VKAT_COUNTOF(passes_nounroll)},
    [VKAT_SPIRV_OPT_FULL] = {"full", passes_full, VKAT_COUNTOF(passes_full)},
};

vkat_spirv_opt vkat_spirv_opt_from_env(void)
{
    const char *v = getenv("VKAT_SPIRV_OPT");
    if (v && *v)
        for (size_t i = 0; i < VKAT_COUNTOF(pass_sets); i++)
            if (!strcmp(v, pass_sets[i].name))
                return (vkat_spirv_opt)i;
    return VKAT_SPIRV_OPT_DEFAULT;
}

vkat_result vkat_spirv_optimize(const vkat_spirv *in, uint32_t api, vkat_spirv_opt set, vkat_spirv *out,
                                vkat_error *err)
{
    if ((size_t)set >= VKAT_COUNTOF(pass_sets) || !pass_sets[set].count)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "no SPIR-V pass set %d", (int)set);
    return vkat_spirv_run_passes(in, api, pass_sets[set].flags, pass_sets[set].count, out, err);
}

/* SPIRV-Tools' validation for the Vulkan version; `scalar`: blocks may be laid out by the scalar block layout's rules.
 * 1 when the module is valid, 0 when not (the validator's text in *msg, if it gave one), -1 when out of memory. */
static int validate_with(const vkat_spirv *m, uint32_t api, int scalar, char *msg, size_t msg_size)
{
    glslang_target_client_version_t client;
    glslang_target_language_version_t spv;
    spv_target_env env;
    targets_for(api, &client, &spv, &env);
    spv_context ctx = spvContextCreate(env);
    spv_validator_options opts = spvValidatorOptionsCreate();
    spv_const_binary_t bin = {m->words, m->count};
    spv_diagnostic diag = NULL;
    int ok = -1;
    if (ctx && opts) {
        spvValidatorOptionsSetScalarBlockLayout(opts, scalar != 0);
        ok = spvValidateWithOptions(ctx, opts, &bin, &diag) == SPV_SUCCESS;
        if (!ok && msg)
            snprintf(msg, msg_size, "%s", diag && diag->error ? diag->error : "no message");
    }
    spvDiagnosticDestroy(diag);
    spvValidatorOptionsDestroy(opts);
    spvContextDestroy(ctx);
    return ok;
}

vkat_result vkat_validate_spirv_layout(const vkat_spirv *m, uint32_t api, int scalar_block_layout, vkat_error *err)
{
    char msg[sizeof err->message];
    int ok = validate_with(m, api, scalar_block_layout, msg, sizeof msg);
    if (ok < 0)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "SPIRV-Tools could not create a context");
    if (ok)
        return VKAT_OK;
    /* Valid by the scalar rules alone: say which feature it needs, not the validator's stride arithmetic. */
    if (!scalar_block_layout && validate_with(m, api, 1, NULL, 0) == 1)
        return vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0,
                         "the shader lays out a block by the scalar block layout (GL_EXT_scalar_block_layout), "
                         "which needs the device feature scalarBlockLayout: the device lacks it ([kernel] features = "
                         "scalarBlockLayout skips such devices)");
    return vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIR-V validation failed: %s", msg);
}

vkat_result vkat_validate_spirv(const vkat_spirv *m, uint32_t api, vkat_error *err)
{
    return vkat_validate_spirv_layout(m, api, 0, err);
}

int vkat_spirv_needs_scalar_layout(const vkat_spirv *m, uint32_t api)
{
    return validate_with(m, api, 0, NULL, 0) == 0 && validate_with(m, api, 1, NULL, 0) == 1;
}

vkat_result vkat_disassemble_spirv(const vkat_spirv *m, char **text, vkat_error *err)
{
    *text = NULL;
    spv_context ctx = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_text t = NULL;
    spv_diagnostic diag = NULL;
    vkat_result r = VKAT_OK;
    if (!ctx)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "SPIRV-Tools could not create a context");
    if (spvBinaryToText(ctx, m->words, m->count,
                        SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_INDENT |
                            SPV_BINARY_TO_TEXT_OPTION_COMMENT,
                        &t, &diag) != SPV_SUCCESS) {
        r = vkat_fail(err, VKAT_ERR_VALIDATE, NULL, 0, "SPIR-V disassembly failed: %s",
                      diag && diag->error ? diag->error : "no message");
    } else if (!(*text = vkat_strndup(t->str, t->length))) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    spvTextDestroy(t);
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r;
}
