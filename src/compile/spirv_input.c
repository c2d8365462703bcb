/* spirv_input.c — a compiled SPIR-V module as the template (see the header). */
#include "spirv_input.h"
#include "util.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vkat_is_spirv(const void *bytes, size_t size)
{
    static const unsigned char le[4] = {0x03, 0x02, 0x23, 0x07}, be[4] = {0x07, 0x23, 0x02, 0x03};
    return size >= 4 && (!memcmp(bytes, le, 4) || !memcmp(bytes, be, 4));
}

static uint32_t swapped(uint32_t w)
{
    return (w >> 24) | ((w >> 8) & 0xff00u) | ((w << 8) & 0xff0000u) | (w << 24);
}

vkat_result vkat_spirv_input_words(const char *path, const void *bytes, size_t size, vkat_spirv *out,
                                   vkat_error *err)
{
    memset(out, 0, sizeof *out);
    if (size % 4 || size < 20)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "a SPIR-V module cut short: %zu bytes (%s)", size,
                         size % 4 ? "not whole 32-bit words" : "less than its 5-word header");
    if (!(out->words = malloc(size)))
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    memcpy(out->words, bytes, size);
    out->count = size / 4;
    if (out->words[0] != SpvMagicNumber) /* written on a big-endian machine */
        for (size_t i = 0; i < out->count; i++)
            out->words[i] = swapped(out->words[i]);
    return VKAT_OK;
}

/* Calls each instruction after the header with its words and length; stops early when `fn` returns nonzero. */
static int each_instruction(const vkat_spirv *m, int (*fn)(uint32_t *ins, uint32_t len, void *ctx), void *ctx)
{
    for (size_t i = 5; i < m->count;) {
        uint32_t len = m->words[i] >> 16;
        if (len == 0 || i + len > m->count)
            return 0; /* malformed: the validator says where */
        if (fn(&m->words[i], len, ctx))
            return 1;
        i += len;
    }
    return 0;
}

typedef struct entries {
    char *buf;
    size_t size, used, count;
} entries;

static int add_entry(uint32_t *ins, uint32_t len, void *ctx)
{
    entries *e = ctx;
    if ((ins[0] & 0xffff) != SpvOpEntryPoint || len < 4 || ins[1] != SpvExecutionModelGLCompute)
        return 0;
    const char *name = (const char *)&ins[3];
    size_t n = strnlen(name, (len - 3) * 4);
    if (e->size > e->used)
        e->used += (size_t)snprintf(e->buf + e->used, e->size - e->used, "%s%.*s", e->count ? ", " : "", (int)n,
                                    name);
    if (e->used >= e->size)
        e->used = e->size ? e->size - 1 : 0;
    e->count++;
    return 0;
}

typedef struct entry_search {
    const char *name;
    int found;
} entry_search;

static int is_entry(uint32_t *ins, uint32_t len, void *ctx)
{
    entry_search *e = ctx;
    size_t n = strlen(e->name);
    if ((ins[0] & 0xffff) == SpvOpEntryPoint && len >= 4 && ins[1] == SpvExecutionModelGLCompute &&
        n < (len - 3) * 4 && !memcmp(&ins[3], e->name, n + 1))
        e->found = 1;
    return e->found;
}

size_t vkat_spirv_compute_entries(const vkat_spirv *m, char *buf, size_t size)
{
    entries e = {buf, size, 0, 0};
    if (size)
        buf[0] = 0;
    each_instruction(m, add_entry, &e);
    return e.count;
}

typedef struct sizing {
    const uint32_t *size;
    uint32_t builtin_id; /* the WorkgroupSize built-in's id, 0 none */
    int fixed_builtin, constant_ids;
} sizing;

static int find_builtin(uint32_t *ins, uint32_t len, void *ctx)
{
    sizing *z = ctx;
    if ((ins[0] & 0xffff) == SpvOpDecorate && len >= 4 && ins[2] == SpvDecorationBuiltIn &&
        ins[3] == SpvBuiltInWorkgroupSize)
        z->builtin_id = ins[1];
    return 0;
}

/* Patches LocalSize; notes a WorkgroupSize constant that is not a specialization constant, and LocalSizeId. */
static int patch_size(uint32_t *ins, uint32_t len, void *ctx)
{
    sizing *z = ctx;
    uint32_t op = ins[0] & 0xffff;
    if (op == SpvOpExecutionMode && len >= 6 && ins[2] == SpvExecutionModeLocalSize)
        memcpy(&ins[3], z->size, 3 * sizeof *z->size);
    else if (op == SpvOpExecutionModeId && len >= 3 && ins[2] == SpvExecutionModeLocalSizeId)
        z->constant_ids = 1;
    else if (op == SpvOpConstantComposite && len >= 3 && z->builtin_id && ins[2] == z->builtin_id)
        z->fixed_builtin = 1;
    return 0;
}

vkat_result vkat_spirv_set_local_size(vkat_spirv *m, const uint32_t size[3], const char *path, vkat_error *err)
{
    sizing z = {size, 0, 0, 0};
    each_instruction(m, find_builtin, &z);
    each_instruction(m, patch_size, &z);
    if (z.fixed_builtin)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "replace_local_size: the module's workgroup size is a "
                         "WorkgroupSize constant that its code may read (gl_WorkGroupSize), which cannot be changed "
                         "in the binary; compile it with local_size_x_id (a specialization constant) and tune that");
    if (z.constant_ids)
        return vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "replace_local_size: the module declares its workgroup "
                         "size by LocalSizeId; tune the specialization constants it names instead");
    return VKAT_OK;
}

vkat_result vkat_spirv_input_build(const vkat_space *s, const char *path, const void *bytes, size_t size,
                                   const vkat_device_info *device, const uint32_t local_size[3], int reference,
                                   vkat_spirv *out, vkat_error *err)
{
    vkat_result r = vkat_spirv_input_words(path, bytes, size, out, err);
    char names[256];
    const char *entry = s->entry ? s->entry : "main";
    size_t n = r ? 0 : vkat_spirv_compute_entries(out, names, sizeof names);
    entry_search search = {entry, 0};
    if (!r)
        each_instruction(out, is_entry, &search);
    if (!r && !search.found)
        r = n ? vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "the module has no compute entry point '%s' (it has: %s); "
                          "give [kernel] entry = NAME", entry, names)
              : vkat_fail(err, VKAT_ERR_TEMPLATE, path, 0, "the module has no compute entry point (GLCompute)");
    if (!r && s->replace_local_size && !reference)
        r = vkat_spirv_set_local_size(out, local_size, path, err);
    if (!r)
        r = vkat_validate_spirv_layout(out, device->api_version, device->feature[VKAT_FEATURE_SCALAR_BLOCK_LAYOUT],
                                       err);
    if (r)
        vkat_spirv_free(out);
    return r;
}
