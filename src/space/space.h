/* space.h — internal: a search space read from an INI file (docs/space-format.md).
 *
 * The space says which template to instantiate, what it needs of a device, the problem sizes, the tuning
 * parameters and constraints, the buffers, push constants, dispatch, metrics and the correctness reference.
 * Loading checks everything that can be checked without a device and reports `file:line: message`.
 *
 * A configuration is a choice of one value index per parameter (uint32_t choice[param_count]); the space is the
 * mixed-radix product of the parameters' value lists, walked lazily by index, never materialised. */
#ifndef VKAT_SPACE_H
#define VKAT_SPACE_H

#include "expr.h"
#include "image_format.h"
#include "vkautotune.h"

typedef enum vkat_param_kind { VKAT_PARAM_DEFINE, VKAT_PARAM_SPEC } vkat_param_kind;

typedef struct vkat_param {
    char *name;
    int64_t *values; /* in the order written (ranges expanded); for a text parameter its positions 0, 1, ... */
    char **texts;    /* NULL: integer values; else a text parameter's values ("float", "vec2"), texts[k] for k */
    size_t value_count;
    vkat_param_kind kind;
    uint32_t spec_id; /* VKAT_PARAM_SPEC: the constant_id in the template */
    int slot;         /* symbol-table slot */
    int line;
} vkat_param;

typedef struct vkat_named_expr {
    char *name; /* constraint name or key */
    vkat_expr *expr;
    int line;
} vkat_named_expr;

/* How a problem size reaches the shader (docs/space-format.md, [problem]). */
typedef enum vkat_size_binding {
    VKAT_SIZE_DEFINE = 0, /* a #define in the variant and the reference (the default) */
    VKAT_SIZE_SPEC,       /* specialization constant spec_id, which the shader declares itself */
    VKAT_SIZE_PUSH,       /* a push-constant member: a [push] entry carries it; not #defined */
    VKAT_SIZE_NONE,       /* only in the space's expressions (buffer sizes, dispatch); not #defined */
} vkat_size_binding;

typedef struct vkat_problem_var {
    char *name;
    vkat_size_binding binding;
    uint32_t spec_id; /* VKAT_SIZE_SPEC */
    int64_t value;      /* in force: the file's default, its [problem.cpu] value, or the --problem override */
    int64_t file_value; /* from [problem] */
    int64_t cpu_value;  /* from [problem.cpu], when has_cpu_value */
    int has_cpu_value;
    int slot;
    int line, cpu_line; /* of its [problem] and [problem.cpu] entries */
    int from_option;    /* value was set by vkat_space_set_problem (--problem), not read from the file */
} vkat_problem_var;

typedef enum vkat_init_kind { VKAT_INIT_ZERO, VKAT_INIT_RANDOM, VKAT_INIT_CONST, VKAT_INIT_IOTA } vkat_init_kind;
/* scratch: the kernel's own memory between passes of a sequence; restored to its init before each checked run,
 * never compared, not an operand of the caller's. */
typedef enum vkat_direction {
    VKAT_DIR_IN = 1,
    VKAT_DIR_OUT = 2,
    VKAT_DIR_INOUT = 3,
    VKAT_DIR_SCRATCH = 4
} vkat_direction;

/* One 4-byte value of the push-constant block: a [push] entry, or one component of a vector entry (named
 * "NAME.x", ".y", ".z", ".w"). */
typedef struct vkat_push_decl {
    char *name;
    vkat_elem_type type; /* VKAT_INT32, VKAT_UINT32 or VKAT_FLOAT32 */
    vkat_expr *value;
    int line;
    uint32_t offset; /* in the block: std430 placement after the entry before, or its @offset(N) */
} vkat_push_decl;

typedef struct vkat_buffer_decl {
    char *name;
    uint32_t set, binding; /* by default set 0 and the buffer's position among [buffers]; `@set(S) @binding(N)` */
    int placed_line;       /* the line of an explicit @set / @binding (0: placed by position) */
    vkat_elem_type type;
    vkat_expr *count; /* element count */
    vkat_init_kind init;
    double init_a, init_b; /* random(a, b) range, const(a) value, iota: start a, step b (default 0, 1) */
    vkat_direction dir;
    int uniform; /* direction `uniform`: a uniform buffer (dir is VKAT_DIR_IN) */
    /* An image, `FORMAT, image(W[, H[, D]]), init, direction`: its format (NULL: a buffer), extent (NULL: 1) and
     * whether the shader reads it through a sampler (direction `sampled`, dir VKAT_DIR_IN; else a storage image).
     * type is the format's component type and count W * H * D * channels: its texels as a packed buffer. */
    const vkat_image_format *image;
    vkat_expr *extent[3];
    int sampled;
    /* A texel buffer, `FORMAT, texels(COUNT), init, direction`: its format (NULL: not one). It is a buffer (data,
     * guards and check as any other) that the shader reads through a view of the format: a storage texel buffer
     * (imageBuffer, imageLoad / imageStore) for in / out / inout / scratch, a uniform texel buffer (samplerBuffer,
     * textureBuffer, texelFetch) for direction `uniform` (then `uniform` is set). type is the format's component
     * type and count COUNT * channels. */
    const vkat_image_format *texel;
    int line;
    /* [check] compare.NAME = offset, count: only this slice of the output is compared (NULL: all of it). May use
     * parameters: a variant whose layout of partial results depends on them still has its final ones compared. */
    vkat_expr *compare_offset, *compare_count;
    int compare_line;
    /* [check] compare.NAME = unordered: the output's elements are compared as a collection, each side sorted first
     * (an append buffer written at the slots an atomic counter hands out, whose order changes from run to run) */
    int compare_unordered;
    /* [fields.NAME]: 4-byte values written over the buffer's init, each at its byte offset in the data, placed as
     * [push] places its values (a uniform block's members: a count, a scale). They may use problem sizes only, like
     * the buffer's size. */
    vkat_push_decl *fields;
    size_t field_count;
} vkat_buffer_decl;

/* How many dimensions the image `b` has: 1 for image(W), 2 for image(W, H), 3 for image(W, H, D). */
static inline uint32_t vkat_image_dims(const vkat_buffer_decl *b)
{
    return b->extent[2] ? 3 : b->extent[1] ? 2 : 1;
}

/* A fixed text macro from [defines] ("A_TYPE = float16_t"): #defined in the variant and the reference. */
typedef struct vkat_text_define {
    char *name, *value;
    int line;
} vkat_text_define;

/* A [pass.NAME] (or [check.pass.NAME]) section: one step of a sequence of dispatches, repeated `repeat` times with
 * the name `pass` = 0, 1, ... (docs/space-format.md, "Sequences of dispatches"). NULL expressions take the
 * defaults: [dispatch] (or [check]) local size and groups, the [push] values, repeat 1. */
typedef struct vkat_pass_override {
    uint32_t index; /* spec: the constant_id; push: the index in s->push */
    vkat_expr *value;
    int line;
} vkat_pass_override;

/* bind.N = A, B, ... @ index: binding N holds buffer buffers[index] in this pass (index default: pass % count). */
typedef struct vkat_pass_bind {
    uint32_t slot;
    uint32_t *buffers; /* indices into s->buffers */
    size_t count;
    vkat_expr *index; /* NULL: pass % count */
    int line;
} vkat_pass_bind;

typedef struct vkat_pass_decl {
    char *name;              /* after "pass." */
    char *template_path;     /* resolved; NULL: the [kernel] template (the [check] reference for a reference pass) */
    vkat_expr *repeat;       /* how many times; NULL: once (unless repeat_while) */
    vkat_expr *repeat_while; /* instead: for pass = 0, 1, ... while this holds (e.g. pow(B, pass) < N) */
    vkat_expr *local_size[3];
    vkat_expr *groups[3];
    vkat_pass_override *spec;
    size_t spec_count;
    vkat_pass_override *push;
    size_t push_count;
    vkat_pass_bind *binds;
    size_t bind_count;
    int line; /* of the section header */
} vkat_pass_decl;

typedef struct vkat_space {
    char *path;          /* as given */
    char *dir;           /* directory of the space file; relative paths in it are resolved from here */
    uint64_t file_hash;  /* XXH64 of the file's bytes */

    /* [kernel] */
    char *name;
    char *template_path; /* resolved */
    char *entry;         /* default "main" */
    /* replace_local_size = true: each variant's literal workgroup size (`layout(local_size_x = 64) in;`, as most
     * shaders written without a tuner declare it) becomes [dispatch] local_size (template.h); 0 otherwise */
    int replace_local_size, replace_local_size_line;
    /* replace_defines = NAME, ...: parameters whose values replace the template's own `#define NAME ...` line in
     * each variant (define_rewrite.h) instead of being #defined before it */
    char **replace_defines;
    size_t replace_define_count;
    int replace_defines_line;
    /* glsl_version = 450: the template (and a reference or pass shader) has no #version line, which its build adds
     * (glslc's -std=450, MNN's shader build); each variant's source starts with `#version N`. 0: none. */
    int glsl_version, glsl_version_line;
    /* opengl_rules = true: the template is GLSL written for OpenGL (uniforms outside blocks, resources without a
     * binding), compiled by glslang's relaxed Vulkan rules; separate_bindings: with each kind of resource's
     * bindings apart as well (VKAT_RULES_* of vkat_compile_opts.opengl_rules). */
    int opengl_rules, opengl_rules_line;
    char **extensions;   /* required Vulkan extensions */
    size_t extension_count;
    char **features; /* required Vulkan features by member name (see vkat_feature_names) */
    size_t feature_count;

    char **include_dirs; /* [kernel] include_dirs, resolved; searched after the including file's directory */
    size_t include_dir_count;
    vkat_text_define *defines; /* [defines] */
    size_t define_count;

    vkat_symtab *symbols; /* problem names, parameter names, device.* names */
    vkat_problem_var *problem;
    size_t problem_count;
    vkat_param *params;
    size_t param_count;
    vkat_named_expr *constraints;
    size_t constraint_count;
    vkat_buffer_decl *buffers;
    size_t buffer_count;
    vkat_push_decl *push;
    size_t push_count;

    /* [dispatch] */
    vkat_expr *local_size[3]; /* default 1 */
    vkat_expr *groups[3];     /* default 1 */

    /* [metrics]; NULL when absent */
    vkat_expr *flops;
    vkat_expr *bytes;
    /* Which peak bounds the flops in the roofline (vkat_row.tensor): "" the fp32 FMA rate; "A,C" the measured
     * cooperative-matrix peak of A x A -> C ("float16,float32"); "*" the fastest one. From "tensor =" in
     * [metrics]; without it, for a space that needs a cooperative-matrix feature, "T,*" with T its first 8- or
     * 16-bit input buffer's type (any accumulator), or "*" when it has none; else "". */
    char tensor[48];

    /* [check]; reference_path NULL when the space has no reference shader. reference_config (`config = WG=64`):
     * instead of a reference shader, the template itself at this configuration (completed like --start's) is what
     * every variant is compared with; NULL when not given. At most one of the two. */
    char *reference_path; /* resolved */
    char *reference_config;
    int reference_config_line;
    vkat_expr *ref_local_size[3];
    vkat_expr *ref_groups[3];
    double rel_l2_tolerance; /* default 1e-5 */
    double max_abs_tolerance; /* default: none (INFINITY) */

    /* Sequences (space_pass.c): pass_count 0 is today's single dispatch of [dispatch]. pass_slot and passes_slot
     * are the symbols `pass` and `passes` (the repeat's index and count), defined only when the space has pass
     * sections (else -1). */
    vkat_pass_decl *passes;
    size_t pass_count;
    vkat_pass_decl *ref_passes;
    size_t ref_pass_count;
    int pass_slot, passes_slot;
} vkat_space;

/* vkat_space_load, vkat_space_load_with_template and vkat_space_destroy are public: include/vkautotune.h. */
/* Same from text in memory (tests, fuzzing). `path` names the text in messages and anchors relative paths
 * (template, reference); NULL reads as "<string>" in the current directory. file_hash is XXH64 of the text. */
vkat_result vkat_space_load_string(const char *text, const char *path, vkat_space **out, vkat_error *err);

/* A file that may leave out [kernel]: parameters, constraints and problem sizes only, every other section still
 * checked when present (a replayed table's constraints, `vkautotune replay --constraints`). */
vkat_result vkat_space_load_constraints(const char *path, vkat_space **out, vkat_error *err);

/* The parameter's values as "a, b, c" (its words, or its integers) into buf, appended while buf holds fewer than
 * `limit` characters: for messages that list what a parameter may be. */
void vkat_param_values_text(const vkat_param *p, char *buf, size_t size, size_t limit);

/* vkat_space_set_problem, vkat_space_problem_for_device, vkat_space_format_problem and vkat_space_raw_count are
 * public: include/vkautotune.h. */
/* Mixed-radix decoding/encoding, first parameter most significant. */
void vkat_space_decode(const vkat_space *s, uint64_t index, uint32_t *choice);
uint64_t vkat_space_encode(const vkat_space *s, const uint32_t *choice);

/* An environment is an array of vkat_symtab_count(s->symbols) values. This fills problem sizes and device.*
 * names (from `device`, or from conservative Vulkan minimum limits when device is NULL). Caller frees. */
vkat_value *vkat_space_env_create(const vkat_space *s, const vkat_device_info *device);
/* Writes the chosen parameter values into env. */
void vkat_space_env_apply(const vkat_space *s, const uint32_t *choice, vkat_value *env);

/* Checks every constraint in order. Returns 1 when all hold, 0 when one fails (its index in *failed when not
 * NULL), -1 on an evaluation error (err filled). */
int vkat_space_check(const vkat_space *s, const vkat_value *env, size_t *failed, vkat_error *err);

/* Moves choice (and its values in env) to the next configuration in index order, wrapping after the last. */
void vkat_space_step(const vkat_space *s, uint32_t *choice, vkat_value *env);
/* The same step over the parameters not `fixed` (NULL: none fixed), the others kept; 0 when it wrapped. */
int vkat_space_step_free(const vkat_space *s, uint32_t *choice, vkat_value *env, const bool *fixed);

/* Walks the first `limit` configurations (0: all) in index order with `env_template` (from vkat_space_env_create)
 * and counts them: *raw walked, *valid passing every constraint, removed_by[i] (array of constraint_count, may be
 * NULL) those whose first failing constraint is i. Lazy: memory does not grow with the space. When none is valid,
 * VKAT_ERR_EMPTY_SPACE with the line of the constraint that removed most: "no configuration satisfies the
 * constraints; 'fits' removed 96% of them" (the counts are still written). Evaluation errors: VKAT_ERR_EXPR. */
vkat_result vkat_space_count_valid(const vkat_space *s, const vkat_value *env_template, uint64_t limit,
                                   uint64_t *raw, uint64_t *valid, uint64_t *removed_by, vkat_error *err);

/* The same walk, calling visit(user, index, choice) for every valid configuration (visit may be NULL). */
typedef void (*vkat_space_visit_fn)(void *user, uint64_t index, const uint32_t *choice);
vkat_result vkat_space_walk_valid(const vkat_space *s, const vkat_value *env_template, uint64_t limit,
                                  vkat_space_visit_fn visit, void *user, uint64_t *raw, uint64_t *valid,
                                  uint64_t *removed_by, vkat_error *err);

/* "TM=4,TN=4,..." for a choice (every parameter, file order), and back. Parsing needs every parameter with more
 * than one value unless `partial` is set; a parameter not named takes its first value. An unknown name or a value
 * not in the parameter's list is VKAT_ERR_USAGE. */
void vkat_space_format_config(const vkat_space *s, const uint32_t *choice, char *buf, size_t size);
vkat_result vkat_space_parse_config(const vkat_space *s, const char *text, int partial, uint32_t *choice,
                                    vkat_error *err);
/* The partial parse, also saying which parameters `text` named (named[i]). */
vkat_result vkat_space_parse_named(const vkat_space *s, const char *text, uint32_t *choice, bool *named,
                                   vkat_error *err);
/* Completes a partial configuration: the unnamed parameters take the values of the first configuration in the
 * space's order that keeps the named ones and satisfies every constraint in `env_template` (problem and device).
 * 1: found (choice holds it), 0: none (choice unchanged), -1: an expression error (err says which). */
int vkat_space_complete_config(const vkat_space *s, const vkat_value *env_template, uint32_t *choice,
                               const bool *named, vkat_error *err);

/* Everything a run needs, evaluated for one environment (problem + device + configuration). */
typedef struct vkat_launch {
    uint32_t local_size[3];
    uint32_t groups[3];
    uint64_t *buffer_counts; /* [buffer_count] elements */
    uint32_t (*image_extents)[3]; /* [buffer_count] width, height, depth of each image (1, 1, 1 for a buffer) */
    uint8_t push[256];       /* each [push] value at its offset (vkat_push_decl.offset), the gaps zero */
    uint32_t push_size;
    double flops; /* 0 when the space has none */
    double bytes;
} vkat_launch;

/* Evaluates buffer `index`'s [fields.NAME] values for `env` (problem sizes): words[i] holds the bits of fields[i],
 * which lies at byte fields[i].offset of the data. A value past the buffer's `bytes`, or one that does not fit its
 * type, is an error at its line. */
vkat_result vkat_space_field_words(const vkat_space *s, size_t index, const vkat_value *env, uint64_t bytes,
                                   uint32_t *words, vkat_error *err);

/* The bytes the [push] values span: the end of the last one (0 without [push]). */
uint32_t vkat_space_push_size(const vkat_space *s);

/* Evaluates dispatch, buffer counts, push constants and metrics. `reference` selects the [check] dispatch.
 * launch->buffer_counts is allocated here; release with vkat_launch_free. Negative or zero sizes, group counts
 * beyond 2^32-1 and evaluation errors give VKAT_ERR_EXPR with the line. */
vkat_result vkat_space_launch(const vkat_space *s, const vkat_value *env, int reference, vkat_launch *launch,
                              vkat_error *err);
void vkat_launch_free(vkat_launch *launch);

/* ---- Sequences of dispatches (space_pass.c) ------------------------------------------------------------------- */

#define VKAT_MAX_STEPS 256 /* dispatches in one sequence, repeats expanded */
#define VKAT_MAX_STEP_SPEC 64
#define VKAT_MAX_STEP_BINDINGS 32 /* bindings a pass can rebind (bind.N) */
#define VKAT_MAX_SETS 8           /* descriptor sets a space's buffers may take (@set); Vulkan guarantees 4 */

/* One dispatch of a sequence, evaluated. */
typedef struct vkat_step {
    const vkat_pass_decl *pass; /* its section */
    uint32_t index;             /* the value of `pass` */
    const char *template_path;  /* resolved: the pass's, else the default */
    uint32_t local_size[3];
    uint32_t groups[3];
    uint8_t push[256];
    uint32_t push_size;
    /* the parameters' @spec values, then the pass's spec.ID (which replace a parameter's of the same id) */
    uint32_t spec_id[VKAT_MAX_STEP_SPEC], spec_value[VKAT_MAX_STEP_SPEC];
    size_t spec_count;
    /* remapped (some bind.N): binding k holds buffer binding_buffer[k] (k < min(buffer count, 32)); else binding
     * k holds buffer k, as in every single dispatch */
    int remapped;
    uint32_t binding_buffer[VKAT_MAX_STEP_BINDINGS];
} vkat_step;

/* Frees pass declarations (vkat_space_destroy's part). */
void vkat_space_free_passes(vkat_pass_decl *passes, size_t count);

/* Does any expression of the variant's pass sections read symbol `slot`? */
int vkat_space_passes_use(const vkat_space *s, int slot);

/* Does the variant (reference == 0) or the reference run a sequence? */
int vkat_space_has_sequence(const vkat_space *s, int reference);

/* Expands the variant's (or the reference's) pass sections for `env`, in file order, each pass `repeat` times.
 * *steps is malloc'ed (caller frees), *count at least 0 (a sequence may come out empty: then it is an error,
 * VKAT_ERR_EXPR, as is one of more than VKAT_MAX_STEPS). Evaluation errors as for vkat_space_launch. */
vkat_result vkat_space_steps(const vkat_space *s, const vkat_value *env, int reference, vkat_step **steps,
                             size_t *count, vkat_error *err);

/* The compared slice of buffer `index` for `env`: *offset and *count elements (the whole buffer of `elements`
 * when it declares none). A slice outside the buffer is VKAT_ERR_EXPR with the line of its compare key. */
vkat_result vkat_space_compare_slice(const vkat_space *s, size_t index, const vkat_value *env, uint64_t elements,
                                     uint64_t *offset, uint64_t *count, vkat_error *err);

#endif
