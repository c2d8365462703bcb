/* descriptors.c — checks the descriptor bindings a compiled shader declares against the space's [buffers] before a
 * pipeline is created: the kind of each (storage or uniform buffer) must match, and kinds vkautotune cannot bind
 * yet (images, samplers, texel buffers) are refused with the shader's file:line instead of reaching the driver. */
#include "descriptors.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The template line that declares `binding = N`, for messages; 0 when not found (e.g. set by a macro). */
static int binding_line(const char *src, uint32_t binding)
{
    int line = 1;
    for (const char *p = src; *p; p++) {
        if (*p == '\n')
            line++;
        else if (!strncmp(p, "binding", 7)) {
            const char *q = p + 7;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != '=')
                continue;
            q++;
            char *end;
            unsigned long v = strtoul(q, &end, 10);
            if (end != q && v == binding)
                return line;
        }
    }
    return 0;
}

/* Every descriptor the shader declares must be one of the space's buffers (set 0, binding 0..count-1) of the same
 * kind: otherwise the pipeline would read memory nobody bound, or a storage buffer where it expects a uniform one.
 * Kinds vkautotune cannot bind (images, samplers, texel buffers) are refused here, before a pipeline exists. A
 * shader error, not a property of one variant. `path` is the shader (template or reference), read for the line. */
vkat_result vkat_check_bindings(const vkat_space *s, const char *path, const vkat_spirv_info *si, vkat_error *e)
{
    for (uint32_t i = 0; i < si->binding_count; i++) {
        uint32_t set = si->bindings[i].set, b = si->bindings[i].binding;
        vkat_descriptor_kind kind = si->bindings[i].kind;
        const char *name = si->bindings[i].name;
        const vkat_buffer_decl *buf = set == 0 && b < s->buffer_count ? &s->buffers[b] : NULL;
        int bad_kind = kind != VKAT_DESC_STORAGE_BUFFER && kind != VKAT_DESC_UNIFORM_BUFFER;
        int mismatch = buf && !bad_kind && (kind == VKAT_DESC_UNIFORM_BUFFER) != (buf->uniform != 0);
        if (buf && !bad_kind && !mismatch)
            continue;
        char *src = vkat_read_file(path, NULL);
        int line = src ? binding_line(src, b) : 0;
        free(src);
        if (bad_kind)
            return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                             "set %u, binding %u%s%s%s is a %s, which vkautotune cannot bind (storage and uniform "
                             "buffers only)",
                             set, b, name[0] ? " ('" : "", name, name[0] ? "')" : "", vkat_descriptor_kind_name(kind));
        if (mismatch)
            return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                             "binding %u%s%s%s is a %s, but the space's buffer '%s' (%s:%d) is a %s; %s",
                             b, name[0] ? " ('" : "", name, name[0] ? "')" : "", vkat_descriptor_kind_name(kind),
                             buf->name, s->path, buf->line, buf->uniform ? "uniform buffer" : "storage buffer",
                             buf->uniform ? "give it direction in, out or inout"
                                          : "give it the direction 'uniform'");
        return vkat_fail(e, VKAT_ERR_TEMPLATE, path, line,
                         "the template declares set %u, binding %u, but the space %s has %zu buffer(s): set 0, "
                         "bindings 0..%zu in the order of its [buffers]",
                         set, b, s->path, s->buffer_count, s->buffer_count ? s->buffer_count - 1 : 0);
    }
    return VKAT_OK;
}
