/* compile.h — internal: GLSL -> SPIR-V with glslang (in process), validation with SPIRV-Tools, disassembly,
 * and the facts the runner needs from a module before creating a pipeline (workgroup size, shared memory).
 *
 * Thread-safety: every function may run concurrently on different inputs (vkat_compile_init is called once
 * first, from one thread; the functions call it themselves when needed, guarded by a once-flag). */
#ifndef VKAT_COMPILE_H
#define VKAT_COMPILE_H

#include "vkautotune.h"

typedef struct vkat_spirv {
    uint32_t *words;
    size_t count;
} vkat_spirv;

void vkat_spirv_free(vkat_spirv *m); /* frees words, zeroes the struct; NULL-safe */

/* Initialises glslang's process state (idempotent). */
void vkat_compile_init(void);

/* Which SPIRV-Tools passes a variant's module gets after glslang (vkat_compile_cached), for measuring what the form of
 * the module costs the driver (issue #22). None by default: on the H200 every set that cut NVIDIA's pipeline
 * creation also changed the kernels the driver made (records/session9-issue-22-pipe.md: ssa made sgemm_wt's best
 * variant 2.5% slower; full changed 39 of 40 binaries; nounroll cut nothing). Session 10 timed full: 30 of 40
 * sgemm_wt and 32 of 40 cm2gemm_f16 kernels more than 2% off (0.05x-3.5x), cm2gemm_f16's winner 8% slower, the
 * host's passes costing more CPU than they saved the driver (records/session10-issue-22-pipe.md), so it stays
 * off. The module a row was timed with is the one stored and exported, whichever set made it. VKAT_SPIRV_OPT names
 * one: 0 (none), ssa, nounroll, full. */
typedef enum vkat_spirv_opt {
    VKAT_SPIRV_OPT_NONE = 0,  /* the default: glslang's module as it is */
    VKAT_SPIRV_OPT_SSA,       /* local variables to SSA values only */
    VKAT_SPIRV_OPT_NOUNROLL,  /* spirv-opt -O without loop-unroll */
    VKAT_SPIRV_OPT_FULL,      /* spirv-opt -O, which fully unrolls [[unroll]] loops */
} vkat_spirv_opt;
#define VKAT_SPIRV_OPT_DEFAULT VKAT_SPIRV_OPT_NONE

/* How #include is resolved (GL_GOOGLE_include_directive is always enabled, as glslc does): first the including
 * file's directory (the shader's `path` for the shader itself), then include_dirs in order. A zero struct (or
 * NULL) searches only the including file's directory. */
/* An included file compiled as this text instead of its bytes on disk (include_rewrite.h: a variant's value in a
 * header's #define). `path` is the file's path as the resolver finds it (includes.h). */
typedef struct vkat_include_text {
    char *path;
    char *text;
} vkat_include_text;

/* The uniform block into which the OpenGL rules (vkat_compile_opts.opengl_rules) gather loose uniforms. */
#define VKAT_OPENGL_UNIFORM_BLOCK "gl_DefaultUniformBlock"
/* vkat_compile_opts.opengl_rules: Vulkan's GLSL; OpenGL's; OpenGL's with each kind of resource's bindings apart, as
 * OpenGL's binding points are (a buffer and an image may both be 0 there): a uniform block's binding N is Vulkan's
 * binding VKAT_OPENGL_UNIFORM_BASE + N, an image's VKAT_OPENGL_IMAGE_BASE + N, a texture's (sampler) ..._TEXTURE_
 * BASE + N, a storage buffer's (atomic counters' too) N. */
enum { VKAT_RULES_VULKAN, VKAT_RULES_OPENGL, VKAT_RULES_OPENGL_APART };
#define VKAT_OPENGL_UNIFORM_BASE 100
#define VKAT_OPENGL_IMAGE_BASE 200
#define VKAT_OPENGL_TEXTURE_BASE 300
/* An HLSL shader's registers (hlsl.h) are numbered per class: u N (read-write buffers and textures) is Vulkan's
 * binding N, b N (constant buffers) VKAT_HLSL_B_BASE + N, t N (read-only buffers and textures) ..._T_BASE + N, s N
 * (samplers) ..._S_BASE + N; a resource without a register gets a free binding, the globals' block 99. */
#define VKAT_HLSL_B_BASE 100
#define VKAT_HLSL_GLOBALS_BINDING 99 /* the constant buffer of the globals outside any cbuffer ($Global) */
#define VKAT_HLSL_T_BASE 200
#define VKAT_HLSL_S_BASE 300

typedef struct vkat_compile_opts {
    const char *const *include_dirs;
    size_t include_dir_count;
    uint64_t sources_hash; /* vkat_source_set_hash of the shader's files: part of the compile-cache key, so a
                              changed included file is compiled again */
    vkat_spirv_opt spirv_opt; /* vkat_compile_cached's passes after glslang (part of the cache key); zero: the
                                 default */
    const vkat_include_text *include_texts; /* part of the cache key too */
    size_t include_text_count;
    int scalar_block_layout; /* the device enabled scalarBlockLayout: validation allows the scalar block layout
                                (part of the cache key) */
    const char *entry; /* an HLSL template's entry point ([kernel] entry): the [numthreads] function of that name,
                          the module's entry point by it too; NULL or "main": the first, named "main" */
    int opengl_rules; /* VKAT_RULES_*. GLSL written for OpenGL ([kernel] opengl_rules): glslang's relaxed Vulkan
                         rules, which put uniforms declared outside a block into one uniform block,
                         gl_DefaultUniformBlock, and give a binding to each resource the shader declares without one
                         (part of the cache key) */
} vkat_compile_opts;

/* Compiles a compute shader. `vulkan_api_version` (VK_MAKE_API_VERSION) picks the target environment and the
 * highest SPIR-V version it allows. Errors are VKAT_ERR_COMPILE; err->file is `path` and err->line the line
 * glslang reports (the template's own line, thanks to #line), the message glslang's first error. The full log
 * goes to the debug log. */
vkat_result vkat_compile_glsl(const char *source, const char *path, uint32_t vulkan_api_version, vkat_spirv *out,
                              vkat_error *err);
/* The same with include directories (opts may be NULL). An error inside an included file names that file; a
 * missing include is "FILE:LINE: cannot find include 'x.glsl' (looked in DIR, ...)". */
vkat_result vkat_compile_glsl_opts(const char *source, const char *path, uint32_t vulkan_api_version,
                                   const vkat_compile_opts *opts, vkat_spirv *out, vkat_error *err);

/* Validates with SPIRV-Tools for the Vulkan version's environment. VKAT_ERR_VALIDATE with the validator's text. */
vkat_result vkat_validate_spirv(const vkat_spirv *m, uint32_t vulkan_api_version, vkat_error *err);
/* The same for a device that has enabled scalarBlockLayout (`scalar_block_layout` nonzero: blocks laid out by
 * GL_EXT_scalar_block_layout's rules are valid) or not (a module valid only by those rules is refused with a message
 * naming the feature). */
vkat_result vkat_validate_spirv_layout(const vkat_spirv *m, uint32_t vulkan_api_version, int scalar_block_layout,
                                       vkat_error *err);
/* 1 when `m` is valid by the scalar block layout's rules alone: its device needs scalarBlockLayout. */
int vkat_spirv_needs_scalar_layout(const vkat_spirv *m, uint32_t vulkan_api_version);

/* SPIRV-Tools' optimizer with spirv-opt's command-line flags ("-O", "--strip-debug", ...) for the Vulkan version's
 * environment (api 0: universal SPIR-V 1.6). *out is a new module; the result is not validated. VKAT_ERR_VALIDATE
 * when a pass cannot process `in`, VKAT_ERR_INTERNAL for an unknown flag. */
vkat_result vkat_spirv_run_passes(const vkat_spirv *in, uint32_t vulkan_api_version, const char *const *flags,
                                  size_t count, vkat_spirv *out, vkat_error *err);

/* The set VKAT_SPIRV_OPT names (an unknown or empty value: the default). */
vkat_spirv_opt vkat_spirv_opt_from_env(void);

/* `in` after the set's passes (not validated); VKAT_ERR_INTERNAL for VKAT_SPIRV_OPT_NONE. Host cost per sgemm_wt
 * module (this machine): ssa 5-9 ms, nounroll 20-40 ms, full 0.1-3.9 s (it multiplies the module up to 25x). */
vkat_result vkat_spirv_optimize(const vkat_spirv *in, uint32_t vulkan_api_version, vkat_spirv_opt set, vkat_spirv *out,
                                vkat_error *err);

/* Human-readable disassembly; *text is malloc'ed. */
vkat_result vkat_disassemble_spirv(const vkat_spirv *m, char **text, vkat_error *err);

/* A specialization-constant value supplied at pipeline creation. */
typedef struct vkat_spec_value {
    uint32_t id;
    uint32_t value; /* 32-bit scalar bits */
} vkat_spec_value;

/* What a descriptor binding holds, from its variable's storage class and type. */
typedef enum vkat_descriptor_kind {
    VKAT_DESC_STORAGE_BUFFER = 0,
    VKAT_DESC_UNIFORM_BUFFER,
    VKAT_DESC_SAMPLED_IMAGE,
    VKAT_DESC_STORAGE_IMAGE,
    VKAT_DESC_SAMPLER,
    VKAT_DESC_COMBINED_IMAGE_SAMPLER,
    VKAT_DESC_UNIFORM_TEXEL_BUFFER,
    VKAT_DESC_STORAGE_TEXEL_BUFFER,
    VKAT_DESC_ACCELERATION_STRUCTURE,
    VKAT_DESC_OTHER,
} vkat_descriptor_kind;

/* "storage buffer", "uniform buffer", "sampled image", ... */
const char *vkat_descriptor_kind_name(vkat_descriptor_kind kind);

/* A specialization constant as the module declares it. */
typedef struct vkat_spec_decl {
    uint32_t id;
    uint8_t is_float, is_bool, bytes; /* bytes: 2, 4 or 8 (a bool counts 4, a VkBool32) */
    uint8_t is_signed;                /* an integer constant's signedness */
    uint32_t default_bits;            /* the value the module declares (low 32 bits) */
    char name[40];                    /* its OpName, "" when the module keeps no names */
} vkat_spec_decl;

/* A member of a block (the push constants, a parameter block): offset and size in bytes (the bytes it spans: an
 * array's elements by its ArrayStride, a matrix's columns by its MatrixStride); kind 'f' a 32-bit float, 'i' a
 * 32-bit integer, 'p' a buffer address (buffer_reference), 'o' anything else (vectors, 64-bit, arrays, structs). */
typedef struct vkat_block_member {
    uint32_t offset, size;
    char kind;
    char vec_kind;      /* a vector of 32-bit scalars ('o'): 'f' floats or 'i' integers, else 0 */
    uint8_t components; /* that vector's components */
    char name[37];
    /* Its 32-bit scalars, whatever its shape (a scalar, a vector, a matrix, a sized array of one of those): leaf 'f'
     * or 'i' (0: another shape, a struct or 64-bit: no layout here), in `count` elements `array_stride` bytes apart
     * (1 and 0 when not an array), each `vectors` vectors `vector_stride` bytes apart (a matrix's columns, its rows
     * when RowMajor; 1 otherwise) of `lanes` scalars. A matrix's identity has a 1 in lane v of vector v. */
    char leaf;
    uint8_t lanes, vectors, is_matrix;
    uint8_t is_signed; /* its integers (kind, vec_kind or leaf 'i') are signed: `int`, `ivec2`, not `uint` */
    uint32_t count, array_stride, vector_stride;
} vkat_block_member;

/* The most vectors (count x vectors) a member of a parameter block may hold for `vkautotune init` to write it value by
 * value; a storage block with a larger member (a lookup table) or a struct is data, not parameters. */
#define VKAT_PARAM_MEMBER_VECTORS 64

/* The 32-bit scalar of member m at byte `offset` of the block: 'f', 'i', or 0 where none is (padding between an
 * array's elements or a matrix's columns, outside the member, a member of no known layout). */
char vkat_block_member_scalar_at(const vkat_block_member *m, uint32_t offset);

typedef struct vkat_spirv_info vkat_spirv_info;

/* The 32-bit scalar of push member `i` of si at byte `offset` (a multiple of 4), through its leaves where it has no
 * one layout: 'f', 'i', '?' where the block needs a value of a type no [push] value has (a 64-bit or 16-bit scalar, a
 * member whose leaves are not known), or 0 where the shader reads nothing (padding, another member's bytes). */
char vkat_push_scalar_at(const vkat_spirv_info *si, uint32_t i, uint32_t offset);

struct vkat_spirv_info {
    uint32_t local_size[3];  /* after applying specialization constants */
    int32_t local_size_spec[3]; /* the constant_id each dimension takes (local_size_x_id), -1 when fixed */
    uint64_t shared_bytes;   /* sum of Workgroup-storage variables' sizes (std430-like layout: scalars, vectors,
                                matrices, arrays incl. spec-constant lengths, structs, cooperative matrices are
                                not in shared memory) */
    int uses_cooperative_matrix;
    int uses_local_size_id; /* the workgroup size by id (LocalSizeId): the device needs maintenance4 */
    /* The template is a compiled module (spirv_input.h), which #defines cannot reach; module_size_constant: its size
     * is set by a WorkgroupSize constant, which patching LocalSize cannot change (only its source can). Both set by
     * `vkautotune init`; 0 after vkat_spirv_reflect alone. */
    int module_template, module_size_constant;
    /* The shader compiled only by OpenGL's rules (vkat_compile_opts.opengl_rules), set by `vkautotune init`. */
    int opengl_rules;
    int needs_scalar_layout; /* a block is valid by the scalar block layout's rules alone: scalarBlockLayout */
    /* It reads gl_WorkGroupID, gl_LocalInvocationID(Index), gl_NumWorkGroups or a subgroup's position: what each
     * invocation computes may then depend on the workgroup size (glslang declares only the builtins a shader uses) */
    int reads_group_builtins;
    /* Those it reads (not a subgroup's position) only make grid-stride loops on x: each element i from the global x
     * index (gl_GlobalInvocationID.x, or gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x) while below
     * a bound, i += gl_NumWorkGroups.x * gl_WorkGroupSize.x, and i indexes what the loop does: then what the shader
     * computes depends on neither the workgroup size nor the workgroup count. Set by vkat_spirv_find_index
     * (spirv_index.h), which `vkautotune init` runs; 0 after vkat_spirv_reflect alone. */
    int grid_stride;
    /* 1 + the highest component of gl_GlobalInvocationID the shader reads (3: .z, or the vector whole, as in
     * `vec3(gl_GlobalInvocationID)`), 0 none. Set by vkat_spirv_find_axes (spirv_axes.h), which `vkautotune init`
     * runs; 0 after vkat_spirv_reflect alone. */
    uint8_t global_axes_read;
    /* Descriptor bindings the module declares (storage buffers, uniforms, images), so a template can be checked
     * against its space's buffers before a pipeline exists. */
    uint32_t binding_count;
    struct {
        uint32_t set, binding;
        vkat_descriptor_kind kind;
        char name[64]; /* the variable's (or its block type's) name when the module keeps names, else "" */
        /* A buffer's elements (its block's last member, a run-time or sized array, or the block itself): elem 'f'
         * float, 'i' signed or 'u' unsigned integer of elem_bits, with elem_components (vectors); 's' a struct or
         * anything else, of elem_bytes. access: bit 1 never written (readonly), bit 2 never read (writeonly). */
        char elem;
        uint8_t elem_bits, elem_components, access, runtime_array; /* runtime_array: its last member is one */
        uint32_t elem_bytes;
        /* An image's (storage, sampled, combined with a sampler, texel buffer): SpvDim (0 1D, 1 2D, 2 3D, 3 cube,
         * 5 buffer, ...), arrayed or multisampled (1), the SpvImageFormat it declares (0: none, as a sampled image
         * has) and what it reads as: 'f' floats (image2D, samplerBuffer), 'i' (iimage2D), 'u' (usamplerBuffer). */
        uint8_t image_dim, image_arrayed, image_format, image_sampled;
        /* elem_stride: the bytes one element of a run-time array takes (its ArrayStride; std140's differs from
         * elem_bytes), else elem_bytes. elem_offset: where a run-time array starts in the block (after the members
         * before it), else 0. block_bytes: the members before a run-time array, or the whole block when it has none
         * (a uniform block of mixed members: the bytes it reads). */
        uint32_t elem_stride, elem_offset, block_bytes;
        /* The shader takes the length of its run-time array (.length(), OpArrayLength) or the size of its texel
         * buffer (imageSize, textureSize: OpImageQuerySize, its view's texels): the descriptor's range must then be
         * the data alone, not the data and the guard after it. */
        uint8_t reads_length;
        /* An atomic read-modify-write (atomicAdd, atomicCompSwap, ...) targets it: it is read and written whatever
         * its qualifiers say (a histogram declared writeonly). */
        uint8_t atomic;
        /* Every store into it writes part of an element or of the block (a struct member, a vector component: a
         * culling pass setting each draw command's instanceCount): what it does not write keeps its contents. */
        uint8_t partial_writes;
        /* A store (OpStore, OpAtomicStore, OpCopyMemory) into it anywhere in the module: 0 where the shader only
         * reads it (or only adds to it with atomics), whatever its qualifiers say (a buffer without readonly). */
        uint8_t stored;
        /* It is stored to under a comparison of an invocation index with a value read from a buffer (`if (id >=
         * ubo.count) return;`): how much of it the shader writes depends on that buffer's data. Set by
         * vkat_spirv_find_bound (spirv_bound.h), which `vkautotune init` runs; 0 after vkat_spirv_reflect alone. */
        uint8_t bounded_by_buffer;
        /* Stored to only under comparisons with the parameter block member that bounds the invocations (the
         * problem size init makes of it: bound_block's member, or an axis_bound of kind 'u'), not other data.
         * Set by vkat_spirv_find_bound; 0 where bounded_by_buffer is set. */
        uint8_t bounded_by_size_member;
        /* It is stored to at an index of gl_WorkGroupID alone (`out[gl_WorkGroupID.x] = sum;`): one result per
         * workgroup, which other workgroup sizes make other results unless one workgroup is one item (a row).
         * Set by vkat_spirv_find_bound. */
        uint8_t per_group_output;
        /* It is stored to at an index an atomic returns (`out[atomicAdd(count, 1u)] = v`: an append buffer, a stream
         * compaction's output), so which element holds what changes from run to run. Set by vkat_spirv_find_bound. */
        uint8_t appended;
        /* How far the shader indexes its run-time array: index = index_multiple * i + index_offset, i the invocation
         * index (gl_GlobalInvocationID.x, or gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x), the
         * largest multiple over its accesses and the largest offset at that multiple (`sums[id * 2 + 2]`: 2, 2); 0,
         * 0 when no access has that form. index_unknown: some access's index has not (a loop counter without a
         * constant limit, a value read from a buffer, a multiple of a push member). Set by vkat_spirv_find_index
         * (spirv_index.h), which `vkautotune init` runs; 0s after vkat_spirv_reflect alone. index_covered: its
         * stores at that multiple write every element up to the largest index (offsets 0 to the largest, a loop's
         * counter included: `dst[4 * i + k]` for k < 4), where `sums[2 * i + 1]`, `sums[2 * i + 2]` never write
         * element 0. index_guarded: the shader compares a multiple of i with its size itself (`if (2 * i + 1 < n)`,
         * `i < n / 2`), and the multiple and offset are in terms of that size: an index below it plus the offset. */
        uint32_t index_multiple;
        int32_t index_offset;
        uint8_t index_unknown, index_covered, index_guarded;
        /* 1 + the largest index of an access whatever the invocation (`pos[j]` for j below a literal, an n-body
         * loop over a fixed count), 0 none. Set by vkat_spirv_find_index. */
        uint32_t index_fixed;
        /* Its elements i and i + 1 are read as the two ends of a range (CSR's row offsets: `X[i + 1] - X[i]` items
         * from X[i] on, or a loop from one to the other): random values made ranges that wrapped below zero. Set
         * by vkat_spirv_find_index. */
        uint8_t range_ends;
        /* A struct element whose scalars are all one 32-bit type: 'f', 'i' or 'u' (a particle of vec4s), else 0. */
        char elem_leaf;
    } bindings[32];
    /* Specialization constants the module declares (the first 64), with their types: the space's 32-bit integer
     * values are encoded for them (spec_encode.h), a float's bits for a float constant. */
    uint32_t spec_count;
    vkat_spec_decl specs[64];
    /* The push-constant block the module declares (push_size 0: none): its bytes and its first members, so that the
     * space's [push] can be checked against it. kind: 'f' a 32-bit float, 'i' a 32-bit integer, 'p' a buffer
     * address (buffer_reference), 'o' anything else (vectors, 64-bit, arrays, structs). */
    /* The module's OpCapability operands (the first 48): what the device must support to run it (capabilities.h). */
    uint32_t capability_count;
    uint32_t capabilities[48];
    uint32_t push_size, push_member_count;
    vkat_block_member push_members[32];
    /* The push members of no one layout (leaf 0, not a buffer address: a struct, an array of structs or of arrays, a
     * 64- or 16-bit scalar) as their leaves, in offset order: each a member as above at its offset in the block (a
     * scalar, vector, matrix or sized array of them with leaf set, or leaf 0 for a type of no 32-bit scalars), named
     * by its path below the member ("color", "0_start": `light.color`, `ramps[0].start`), of push member
     * push_leaf_parent[k]. push_leaves_of: bit i where member i's leaves are all here (not where they overflowed). */
    uint32_t push_leaf_count, push_leaves_of;
    uint8_t push_leaf_parent[64];
    vkat_block_member push_leaves[64];
    /* The shader's line declaring each push member, 0 unknown: set by `vkautotune init` for its messages. */
    int push_member_line[32];
    /* The members of the first parameter blocks (by binding order), as push_members: so that the space's
     * [fields.NAME] can be checked against them. A parameter block is a uniform block, or a storage block without a
     * run-time array that nothing stores to or adds to (readonly or not: Godot's passes keep their sizes in one) whose
     * members are all 32-bit scalars, vectors, matrices or arrays of them up to VKAT_PARAM_MEMBER_VECTORS vectors.
     * block_members[i] belong to bindings[block_binding[i]]. */
    uint32_t block_count;
    uint32_t block_binding[4], block_member_count[4];
    vkat_block_member block_members[4][32];
    /* What an ordered comparison with an invocation index bounds it by (`if (gid >= p.n) return;`): the push member
     * (index into push_members) or the specialization constant (its constant_id) it derives from, -1 when none; a
     * guess for `vkautotune init`'s problem size. Set by vkat_spirv_find_bound (spirv_bound.h); -1 after
     * vkat_spirv_reflect alone. */
    int32_t bound_push_member, bound_spec_id;
    /* The components of an integer vector push member that bound them: bit k for component k (`i < p.counts.x`:
     * 1), every bit for a vector compared as a whole (`all(lessThan(gid.xy, p.extent))`). */
    uint32_t bound_push_components;
    /* That bound compares an index of gl_WorkGroupID alone (llama.cpp's soft_max: `row = gl_WorkGroupID.x; if (row
     * >= p.nrows) return;`): it counts workgroups, one per row, not invocations. */
    int bound_by_group;
    /* Per push member (the first 32): 1 + the component of gl_GlobalInvocationID it multiplies (`gy * p.w`, a row
     * stride; `gz * p.cstep`, a plane's), 0 none. Set by vkat_spirv_find_bound. */
    uint8_t push_stride_axis[32];
    /* The same for a parameter block's member (`if (i >= ubo.count) return;`, `uv.x >= params.size.x`): the binding
     * (index into bindings) and the member's index, -1 when none, and the components compared as above. */
    int32_t bound_block, bound_block_member;
    uint32_t bound_block_components;
    /* Per axis of gl_GlobalInvocationID (x, y, z): what a comparison with that component bounds it by (`if (gid.x
     * >= p.width || gid.y >= p.height) return;`, `gid.y >= 2400`), the first met; kind 0 when none, 'p' a push
     * member (value: its index, comp: 1 + its component or 0 for the whole member), 's' a specialization constant
     * (value: its constant_id), 'l' a literal (value: the count of invocations it lets through), 'u' a parameter
     * block's member (value: its binding's index into bindings << 8 | the member's index, comp as 'p'), 'b' other
     * buffer data. A bound may be an integer or a float compared with the converted index (`vec2(gid.xy).x >=
     * size.x`). */
    struct {
        char kind;
        uint8_t comp;
        uint32_t value;
    } axis_bound[3];
};

/* Reads the entry point's workgroup size and the module's shared-memory footprint, with the given
 * specialization-constant values applied. VKAT_ERR_VALIDATE when the module has no GLCompute entry point. */
vkat_result vkat_spirv_reflect(const vkat_spirv *m, const vkat_spec_value *spec, size_t spec_count,
                               vkat_spirv_info *info, vkat_error *err);

/* XXH3-64 of the words (for the results database and the manifest). */
uint64_t vkat_spirv_hash(const vkat_spirv *m);

/* A hash as the results database, the manifest and the header write it: 16 lowercase hex digits. Returns out. */
char *vkat_hash_hex(uint64_t h, char out[17]);

#endif

/* ---- Compile cache ----------------------------------------------------------------------------------------------
 * Variants that differ only in specialization constants instantiate to the same source: one glslang compile and
 * one validation serve them all. Keyed by the instantiated source (XXH3-128), bounded (least recently used goes),
 * failures cached too. Thread-safe. */
typedef struct vkat_compile_cache vkat_compile_cache;

vkat_compile_cache *vkat_compile_cache_create(size_t capacity); /* NULL when out of memory */
void vkat_compile_cache_destroy(vkat_compile_cache *cache);

/* Compiles, validates and optimizes (opts->spirv_opt's passes; where they fail or their module does not validate,
 * glslang's module is kept, with a warning) `source` for
 * `vulkan_api_version`, or copies the cached outcome. *out is the caller's
 * (free with vkat_spirv_free). *hit (may be NULL) says whether the cache answered. The error of a cached failure
 * is the original one. `compile_s`/`validate_s` (may be NULL) receive the seconds spent now (0 on a hit). */
vkat_result vkat_compile_cached(vkat_compile_cache *cache, const char *source, const char *path,
                                uint32_t vulkan_api_version, const vkat_compile_opts *opts, vkat_spirv *out, int *hit,
                                double *compile_s, double *validate_s, vkat_error *err);
