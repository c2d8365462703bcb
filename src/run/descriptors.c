/* descriptors.c — checks the interface a compiled shader declares against what the space supplies, before a
 * pipeline is created: the kind of each descriptor binding (storage or uniform buffer, storage or sampled image,
 * storage or uniform texel buffer) must match its [buffers] entry, kinds vkautotune cannot bind (separate samplers
 * and images, acceleration structures) are refused, and so are values a specialization constant's type cannot
 * hold (spec_encode.h: a float16 given 2049) and a workgroup size other than the one the space counts its groups
 * in — each with the shader's file:line instead of reaching the driver or dispatching the wrong number of
 * invocations. */
#include "descriptors.h"
#include "spec_encode.h"
#include "spirv_shared_bounds.h"
#include "template.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The shader's text for a message's line, its compute stage's alone where it tags stages (template.h): a vertex
 * stage's declarations in the same file are not the kernel's. NULL where it cannot be read. */
static char *read_stage(const char *path)
{
    char *src = vkat_read_file(path, NULL), *cut = NULL;
    vkat_error err = {0};
    if (src && vkat_template_compute_section(src, path, &cut, &err) == VKAT_OK && cut)
        free(src), src = cut;
    return src;
}

/* The shader line that declares `KEY = N` (binding = 2, constant_id = 3), for messages; 0 when not found (e.g. set
 * by a macro, or in an included file). */
static int declaration_line(const char *src, const char *key, uint32_t n)
{
    int line = 1;
    size_t klen = strlen(key);
    for (const char *p = src; *p; p++) {
        if (*p == '\n')
            line++;
        else if (!strncmp(p, key, klen)) {
            const char *q = p + klen;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != '=')
                continue;
            q++;
            char *end;
            unsigned long v = strtoul(q, &end, 10);
            if (end != q && v == n)
                return line;
        }
    }
    return 0;
}

/* The space's buffer in descriptor slot (set, binding), or NULL. */
static const vkat_buffer_decl *buffer_at(const vkat_space *s, uint32_t set, uint32_t binding)
{
    for (size_t i = 0; i < s->buffer_count; i++)
        if (s->buffers[i].set == set && s->buffers[i].binding == binding)
            return &s->buffers[i];
    return NULL;
}

static const char *reads_as_name(char c)
{
    return c == 'i' ? "signed integers" : c == 'u' ? "unsigned integers" : "floats";
}

/* Does binding i declare another format than the space's `buf` has (f, an "image" or a "texel buffer": storage
 * ones declare theirs), or read its texels as another component type? The message, into why, names what would
 * fit. */
static int format_mismatch(const vkat_space *s, const vkat_spirv_info *si, uint32_t i, const vkat_image_format *f,
                           const char *what, const vkat_buffer_decl *buf, char *why, size_t size)
{
    vkat_descriptor_kind kind = si->bindings[i].kind;
    const vkat_image_format *declared = vkat_image_format_from_spirv(si->bindings[i].image_format);
    char reads = (char)si->bindings[i].image_sampled;
    if ((kind == VKAT_DESC_STORAGE_IMAGE || kind == VKAT_DESC_STORAGE_TEXEL_BUFFER) &&
        si->bindings[i].image_format && declared != f) {
        snprintf(why, size, "declared with format %s, but the space's %s '%s' (%s:%d) is %s",
                 declared ? declared->name : "(one vkautotune does not make)", what, buf->name, s->path, buf->line,
                 f->name);
        return 1;
    }
    if (!reads || reads == vkat_image_format_reads_as(f))
        return 0;
    snprintf(why, size, "a%s %s of %s, but the space's %s '%s' (%s:%d) is %s, of %s; give it a format of %s (%s)",
             what[0] == 'i' ? "n" : "", what, reads_as_name(reads), what, buf->name, s->path, buf->line, f->name,
             reads_as_name(vkat_image_format_reads_as(f)), reads_as_name(reads),
             reads == 'i'   ? "r32i, rgba8i, ..."
             : reads == 'u' ? "r32ui, rgba8ui, ..."
                            : "r32f, rgba16f, rgba8, ...");
    return 1;
}

/* Why an image binding cannot take the space's image `buf`, into why (size bytes); 0 when it can. The kind (storage
 * or read through a sampler), the number of dimensions, a declared format and what the shader reads the texels as
 * must match; arrayed, multisampled, cube and other image types are not made. */
static int image_mismatch(const vkat_space *s, const vkat_spirv_info *si, uint32_t i, const vkat_buffer_decl *buf,
                          char *why, size_t size)
{
    int storage = si->bindings[i].kind == VKAT_DESC_STORAGE_IMAGE;
    uint32_t dim = si->bindings[i].image_dim, dims = vkat_image_dims(buf);
    if (si->bindings[i].image_arrayed || dim > 2)
        snprintf(why, size, "an arrayed, multisampled, cube or rectangle image, which vkautotune does not make (1D, "
                            "2D and 3D images only)");
    else if (storage == buf->sampled)
        snprintf(why, size, "%s, but the space's '%s' (%s:%d) is %s; give it %s", storage ? "a storage image"
                 : "read through a sampler", buf->name, s->path, buf->line, storage ? "sampled" : "a storage image",
                 storage ? "the direction in, out or inout" : "the direction 'sampled'");
    else if (dim + 1 != dims)
        snprintf(why, size, "a %uD image, but the space's image '%s' (%s:%d) has %u size%s; write image(%s)", dim + 1,
                 buf->name, s->path, buf->line, dims, dims > 1 ? "s" : "",
                 dim == 0 ? "W" : dim == 1 ? "W, H" : "W, H, D");
    else
        return format_mismatch(s, si, i, buf->image, "image", buf, why, size);
    return 1;
}

/* Why a texel-buffer binding cannot take the space's texel buffer `buf`, into why (size bytes); 0 when it can. The
 * kind (storage or uniform), a declared format and what the shader reads the texels as must match: a view of
 * another format or component type reads garbage without an error. */
static int texel_mismatch(const vkat_space *s, const vkat_spirv_info *si, uint32_t i, const vkat_buffer_decl *buf,
                          char *why, size_t size)
{
    int storage = si->bindings[i].kind == VKAT_DESC_STORAGE_TEXEL_BUFFER;
    if (storage == buf->uniform)
        snprintf(why, size, "%s, but the space's texel buffer '%s' (%s:%d) is a %s texel buffer; give it %s",
                 storage ? "a storage texel buffer (imageBuffer)"
                         : "a uniform texel buffer (samplerBuffer, textureBuffer)",
                 buf->name, s->path, buf->line, storage ? "uniform" : "storage",
                 storage ? "the direction in, out or inout" : "the direction 'uniform'");
    else
        return format_mismatch(s, si, i, buf->texel, "texel buffer", buf, why, size);
    return 1;
}

/* How to declare, in the space, what a binding of kind `kind` takes (for a mismatch's message). */
static void how_to_declare(const vkat_spirv_info *si, uint32_t i, char *out, size_t size)
{
    vkat_descriptor_kind kind = si->bindings[i].kind;
    const vkat_image_format *declared = vkat_image_format_from_spirv(si->bindings[i].image_format);
    if (kind == VKAT_DESC_STORAGE_IMAGE || kind == VKAT_DESC_COMBINED_IMAGE_SAMPLER)
        snprintf(out, size, "declare it as an image, 'FORMAT, image(W, H), init, direction'");
    else if (kind == VKAT_DESC_STORAGE_TEXEL_BUFFER || kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER)
        snprintf(out, size, "declare it as a texel buffer, '%s, texels(COUNT), init, %s'",
                 declared ? declared->name : "FORMAT", kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER ? "uniform"
                                                                                               : "direction");
    else
        snprintf(out, size, "declare it as a buffer, 'type, count, init, direction'");
}

/* Does a [push] entry or a field `decl` (a scalar NAME, or a component NAME.x ...) belong to the member `name`? */
static int push_names_member(const char *decl, const char *name)
{
    size_t n = strlen(name);
    return strncmp(decl, name, n) == 0 && (!decl[n] || (decl[n] == '.' && decl[n + 1] && !decl[n + 2]));
}

/* A parameter block (bindings[i]: a uniform block, or a storage block the shader only reads) against the
 * [fields.NAME] of its buffer: a member named like a field must hold it, and a float member (a float vector's
 * component, a matrix's or a float array's element) gets a float32, an integer one an integer. Members without a
 * field keep the buffer's init. Writes the reason into why; returns 1 on a mismatch. */
static int fields_mismatch(const vkat_space *s, const vkat_spirv_info *si, uint32_t i, const vkat_buffer_decl *buf,
                           char *why, size_t size)
{
    uint32_t blk = 0;
    while (blk < si->block_count && si->block_binding[blk] != i)
        blk++;
    if (!buf->field_count || blk == si->block_count)
        return 0;
    const char *block = si->bindings[i].kind == VKAT_DESC_UNIFORM_BUFFER ? "a uniform block" : "a storage block";
    for (uint32_t m = 0; m < si->block_member_count[blk]; m++) {
        const vkat_block_member *bm = &si->block_members[blk][m];
        for (size_t f = 0; f < buf->field_count; f++) {
            const vkat_push_decl *fd = &buf->fields[f];
            int inside = fd->offset >= bm->offset && fd->offset < bm->offset + bm->size;
            char scalar = vkat_block_member_scalar_at(bm, fd->offset);
            if (bm->name[0] && push_names_member(fd->name, bm->name) && !inside)
                return snprintf(why, size, "%s with '%s' at offset %u, but [fields.%s] (%s:%d) puts '%s' at offset "
                                "%u: write the fields in the block's order (or give it @offset(%u))", block,
                                bm->name, bm->offset, buf->name, s->path, fd->line, fd->name, fd->offset,
                                bm->offset) > 0;
            if (scalar && (scalar == 'f') != (fd->type == VKAT_FLOAT32))
                return snprintf(why, size, "%s whose '%s' (offset %u) is %s, but the field '%s' there (%s:%d) is %s",
                                block, bm->name[0] ? bm->name : "member", bm->offset,
                                scalar == 'f' ? "a float" : "an integer", fd->name, s->path, fd->line,
                                fd->type == VKAT_FLOAT32 ? "a float32" : "an integer") > 0;
        }
    }
    return 0;
}

/* Every descriptor the shader declares must be one of the space's buffers (by default set 0, binding 0..count-1 in
 * the order of [buffers]; @set/@binding place one elsewhere) of the same kind: otherwise the pipeline would read
 * memory nobody bound, or a storage buffer where it expects a uniform one. Storage images and images read through a
 * sampler (combined image samplers) take the space's image entries, storage and uniform texel buffers its texel
 * buffers. Kinds vkautotune cannot bind (separate images and samplers, acceleration structures) are refused here,
 * before a pipeline exists. A shader error, not a property of one variant. `path` is the shader (template or
 * reference), read for the line. */
vkat_result vkat_check_bindings(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e)
{
    for (uint32_t i = 0; i < si->binding_count; i++) {
        uint32_t set = si->bindings[i].set, b = si->bindings[i].binding;
        vkat_descriptor_kind kind = si->bindings[i].kind;
        const char *name = si->bindings[i].name;
        const vkat_buffer_decl *buf = buffer_at(s, set, b);
        int image = kind == VKAT_DESC_STORAGE_IMAGE || kind == VKAT_DESC_COMBINED_IMAGE_SAMPLER;
        int texel = kind == VKAT_DESC_STORAGE_TEXEL_BUFFER || kind == VKAT_DESC_UNIFORM_TEXEL_BUFFER;
        int bad_kind = kind != VKAT_DESC_STORAGE_BUFFER && kind != VKAT_DESC_UNIFORM_BUFFER && !image && !texel;
        /* what the binding takes and what the space has there: 0 a buffer, 1 an image, 2 a texel buffer */
        int wants = image ? 1 : texel ? 2 : 0, has = buf && buf->image ? 1 : buf && buf->texel ? 2 : 0;
        char why[400] = "", fix[160];
        int mismatch = 0;
        if (buf && !bad_kind && wants != has) {
            how_to_declare(si, i, fix, sizeof fix);
            mismatch = snprintf(why, sizeof why, "a %s, but the space's '%s' (%s:%d) is %s; %s",
                                vkat_descriptor_kind_name(kind), buf->name, s->path, buf->line,
                                has == 1 ? "an image" : has == 2 ? "a texel buffer" : "a buffer", fix) > 0;
        } else if (buf && !bad_kind && image)
            mismatch = image_mismatch(s, si, i, buf, why, sizeof why);
        else if (buf && !bad_kind && texel)
            mismatch = texel_mismatch(s, si, i, buf, why, sizeof why);
        else if (buf && !bad_kind && (kind == VKAT_DESC_UNIFORM_BUFFER) != (buf->uniform != 0))
            mismatch = snprintf(why, sizeof why, "a %s, but the space's buffer '%s' (%s:%d) is a %s; %s",
                                vkat_descriptor_kind_name(kind), buf->name, s->path, buf->line,
                                buf->uniform ? "uniform buffer" : "storage buffer",
                                buf->uniform ? "give it direction in, out or inout"
                                             : "give it the direction 'uniform'") > 0;
        else if (buf && !bad_kind)
            mismatch = fields_mismatch(s, si, i, buf, why, sizeof why);
        if (buf && !bad_kind && !mismatch)
            continue;
        char *src = read_stage(path);
        int line = src ? declaration_line(src, "binding", b) : 0;
        free(src);
        if (bad_kind)
            return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                             "set %u, binding %u%s%s%s is a %s, which vkautotune cannot bind (storage and uniform "
                             "buffers, storage images, images with their sampler, and texel buffers only)",
                             set, b, name[0] ? " ('" : "", name, name[0] ? "')" : "", vkat_descriptor_kind_name(kind));
        if (mismatch)
            return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line, "binding %u%s%s%s is %s", b, name[0] ? " ('" : "",
                             name, name[0] ? "')" : "", why);
        return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                         "the shader declares set %u, binding %u%s%s%s, but no buffer of the space %s is there (a "
                         "buffer takes set 0 and its position among [buffers] unless it says '@set(S) @binding(N)' "
                         "after its direction)",
                         set, b, name[0] ? " ('" : "", name, name[0] ? "')" : "", s->path);
    }
    return VKAT_OK;
}

/* The first line of `path` that mentions push_constant (the block's declaration), for messages; 0 when not found. */
static int push_block_line(const char *path)
{
    char *src = read_stage(path);
    const char *at = src ? strstr(src, "push_constant") : NULL;
    int line = at ? 1 : 0;
    for (const char *p = src; at && p < at; p++)
        line += *p == '\n';
    free(src);
    return line;
}

static const char *push_kind_name(char kind)
{
    return kind == 'f' ? "a 32-bit float" : kind == 'i' ? "a 32-bit integer" : kind == 'p' ? "a buffer address"
                                                                                             : "not a 32-bit scalar";
}

/* The [push] value at byte `off`, or NULL. */
static const vkat_push_decl *push_at(const vkat_space *s, uint32_t off)
{
    for (size_t j = 0; j < s->push_count; j++)
        if (s->push[j].offset == off)
            return &s->push[j];
    return NULL;
}

/* The module's push-constant block against the space's [push] (4-byte values, each at its offset): every member's
 * bytes must be covered, a buffer address cannot be given, a float (or a vector's float component) must get a float
 * and an integer an integer, and a member named like a [push] value must sit where that value goes. Otherwise the
 * kernel would read past what was pushed (garbage, or a wild address) or misread a value's bits. */
vkat_result vkat_check_push_block(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e)
{
    uint32_t given = vkat_space_push_size(s);
    for (uint32_t i = 0; i < si->push_member_count; i++) {
        const char *name = si->push_members[i].name;
        uint32_t off = si->push_members[i].offset, size = si->push_members[i].size;
        char kind = si->push_members[i].kind;
        char member[64];
        snprintf(member, sizeof member, "%s%s%s", name[0] ? "'" : "", name[0] ? name : "a member",
                 name[0] ? "'" : "");
        if (kind == 'p')
            return vkat_fail(e, VKAT_ERR_TEMPLATE, path, push_block_line(path),
                             "the push-constant block's %s (offset %u) is a buffer address (buffer_reference), which "
                             "vkautotune cannot supply; declare the buffer as a descriptor (a [buffers] entry)",
                             member, off);
        for (uint32_t w = off / 4 * 4; w < off + size; w += 4) { /* the bytes it reads: padding needs no value */
            char at[32] = "";
            if (w != off)
                snprintf(at, sizeof at, " at byte %u", w);
            if (vkat_push_scalar_at(si, i, w) && !push_at(s, w))
                return vkat_fail(e, VKAT_ERR_TEMPLATE, path, push_block_line(path),
                                 "the push-constant block is %u bytes, but the space %s gives %u in [push] (%zu "
                                 "value(s) of 4 bytes); %s at offset %u has none%s: give every member a [push] value "
                                 "(a vector one per component), in the block's order",
                                 si->push_size, s->path, given, s->push_count, member, off, at);
        }
        for (size_t j = 0; name[0] && j < s->push_count; j++)
            if (push_names_member(s->push[j].name, name) && (s->push[j].offset < off ||
                                                             s->push[j].offset >= off + size))
                return vkat_fail(e, VKAT_ERR_TEMPLATE, path, push_block_line(path),
                                 "the push-constant block has '%s' at offset %u, but the space's [push] puts '%s' "
                                 "(%s:%d) at offset %u: write [push] in the block's order (or give it @offset(%u))",
                                 name, off, s->push[j].name, s->path, s->push[j].line, s->push[j].offset, off);
        const vkat_block_member *pm = &si->push_members[i];
        for (uint32_t w = off; w < off + size; w += 4) { /* each scalar: a vector's, a matrix's, an array's, a
                                                              struct's */
            char scalar = vkat_push_scalar_at(si, i, w);
            const vkat_push_decl *p = scalar == 'f' || scalar == 'i' ? push_at(s, w) : NULL;
            const char *shape = pm->is_matrix ? "a matrix of floats" : pm->array_stride ? "an array of"
                                : pm->vec_kind ? "a vector of" : !pm->leaf ? "a struct or array of" : NULL;
            if (p && (scalar == 'f') != (p->type == VKAT_FLOAT32))
                return vkat_fail(e, VKAT_ERR_TEMPLATE, path, push_block_line(path),
                                 "the push-constant block's %s (offset %u) is %s%s, but the space's push constant "
                                 "'%s' there (%s:%d) is %s", member, w, shape ? shape : push_kind_name(kind),
                                 !shape || pm->is_matrix ? "" : scalar == 'f' ? " floats" : " integers", p->name,
                                 s->path, p->line, p->type == VKAT_FLOAT32 ? "a float32" : "an integer");
        }
    }
    return VKAT_OK;
}

/* The problem size or parameter the space binds to constant_id `id`, and its line. */
static const char *spec_owner(const vkat_space *s, uint32_t id, int *line)
{
    for (size_t i = 0; i < s->problem_count; i++)
        if (s->problem[i].binding == VKAT_SIZE_SPEC && s->problem[i].spec_id == id) {
            *line = s->problem[i].line;
            return s->problem[i].name;
        }
    for (size_t i = 0; i < s->param_count; i++)
        if (s->params[i].kind == VKAT_PARAM_SPEC && s->params[i].spec_id == id) {
            *line = s->params[i].line;
            return s->params[i].name;
        }
    *line = 0;
    return "?";
}

vkat_result vkat_check_spec_constants(const vkat_space *s, const char *path, const vkat_spirv_info *si,
                                      const vkat_spec_value *spec, size_t spec_count, vkat_error *e)
{
    for (size_t i = 0; i < spec_count; i++) {
        const vkat_spec_decl *d = vkat_spec_decl_find(si, spec[i].id);
        char what[96];
        if (!d || !vkat_spec_exact(d, spec[i].value, what, sizeof what))
            continue;
        int space_line;
        const char *owner = spec_owner(s, d->id, &space_line);
        char *src = read_stage(path);
        int line = src ? declaration_line(src, "constant_id", d->id) : 0;
        free(src);
        return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                         "specialization constant %u is of type %s, but the space gives it %lld ('%s', %s:%d), %s",
                         d->id, vkat_spec_type_name(d), (long long)(int32_t)spec[i].value, owner, s->path,
                         space_line, what);
    }
    return VKAT_OK;
}

/* The number of src's first line that is not a // comment and that `match` accepts (given the line without its
 * leading blanks, at most 511 characters of it), else 0. */
static int first_code_line(const char *src, int (*match)(const char *code, const void *ctx), const void *ctx)
{
    int line = 1;
    for (const char *p = src; p && *p; line++) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char text[512];
        snprintf(text, sizeof text, "%.*s", (int)len, p);
        const char *code = text + strspn(text, " \t");
        if (strncmp(code, "//", 2) && match(code, ctx))
            return line;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static int declares_local_size(const char *code, const void *ctx)
{
    (void)ctx;
    return strstr(code, "layout") && strstr(code, "local_size_");
}

/* The shader line that declares its workgroup size: the first `layout(... local_size_...` outside a // comment; 0
 * when not in this file (an include, a macro). */
static int local_size_line(const char *src)
{
    return first_code_line(src, declares_local_size, NULL);
}

vkat_result vkat_check_local_size(const vkat_space *s, const char *section, const vkat_expr *given,
                                  const uint32_t local_size[3], const char *path, const vkat_spirv_info *si,
                                  vkat_error *e)
{
    if (!given || !memcmp(local_size, si->local_size, sizeof si->local_size))
        return VKAT_OK;
    char *src = read_stage(path);
    int line = src ? local_size_line(src) : 0;
    free(src);
    char where[300];
    if (line)
        snprintf(where, sizeof where, "%s:%d", path, line);
    else
        snprintf(where, sizeof where, "%s", path);
    return vkat_fail(e, VKAT_ERR_TEMPLATE, s->path, vkat_expr_line(given),
                     "%s local_size is %u, %u, %u, but the shader's workgroup size is %u, %u, %u (%s, after "
                     "specialization): its groups would run the wrong number of invocations",
                     section, local_size[0], local_size[1], local_size[2], si->local_size[0], si->local_size[1],
                     si->local_size[2], where);
}

/* Does the line declare shared array ctx (`shared float tile[64];`: `shared` before the name, then '[')? */
static int declares_shared_array(const char *code, const void *ctx)
{
    const char *name = ctx, *shared = strstr(code, "shared");
    size_t n = strlen(name);
    for (const char *q = strstr(code, name); shared && q; q = strstr(q + 1, name)) {
        const char *after = q + n + strspn(q + n, " ");
        int word_start = q == code || !(isalnum((unsigned char)q[-1]) || q[-1] == '_');
        if (shared < q && *after == '[' && word_start)
            return 1;
    }
    return 0;
}

/* The line of `path` that declares shared array NAME, else 0. */
static int shared_decl_line(const char *path, const char *name)
{
    char *src = name[0] ? read_stage(path) : NULL;
    int line = first_code_line(src, declares_shared_array, name);
    free(src);
    return line;
}

/* A variant whose every workgroup indexes a shared array past its end (spirv_shared_bounds.h) fails as invalid
 * code: undefined on a GPU, and on a CPU driver it corrupts the process's heap, yet it can pass the check. */
static vkat_result check_shared_bounds(const vkat_space *s, const vkat_spirv *spirv, const vkat_spec_value *spec,
                                       size_t spec_count, const vkat_spirv_info *si, vkat_error *e)
{
    vkat_shared_overrun o;
    if (!vkat_spirv_shared_overrun(spirv, spec, spec_count, si->local_size, &o))
        return VKAT_OK;
    const char *file = o.file[0] ? o.file : s->template_path;
    int line = o.line ? (int)o.line : shared_decl_line(file, o.name);
    return vkat_fail(e, VKAT_ERR_VALIDATE, file, line,
                     "every workgroup of %u x %u x %u invocations %s shared array '%s' at index %llu of a dimension "
                     "of %u, before any branch: its shared memory is sized for smaller workgroups",
                     si->local_size[0], si->local_size[1], si->local_size[2], o.store ? "writes" : "reads",
                     o.name[0] ? o.name : "?", (unsigned long long)o.index, o.length);
}

vkat_result vkat_check_kernel_module(const vkat_space *s, const vkat_spirv *spirv, const vkat_spec_value *spec,
                                     size_t spec_count, const vkat_launch *launch, vkat_spirv_info *si,
                                     vkat_error *e)
{
    vkat_result r = vkat_spirv_reflect(spirv, spec, spec_count, si, e);
    if (r == VKAT_OK)
        r = vkat_check_bindings(s, s->template_path, si, e);
    if (r == VKAT_OK)
        r = vkat_check_push_block(s, s->template_path, si, e);
    if (r == VKAT_OK)
        r = vkat_check_spec_constants(s, s->template_path, si, spec, spec_count, e);
    if (r == VKAT_OK)
        r = vkat_check_local_size(s, "[dispatch]", s->local_size[0], launch->local_size, s->template_path, si, e);
    if (r == VKAT_OK)
        r = check_shared_bounds(s, spirv, spec, spec_count, si, e);
    return r;
}
