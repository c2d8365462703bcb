/* export_sequence.c — how a variant that is a sequence of dispatches appears in manifest.json: one `passes` entry
 * per dispatch, in the order the tuner ran and timed them, each naming its module file, specialization constants,
 * local size, group counts and push-constant block. Like export.c it evaluates nothing: the steps come evaluated
 * from sequence.c, the same ones the tuner measured. */
#include "export_sequence.h"
#include "export_spec.h"
#include "sequence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vkat_export_module_name(const char *first, size_t index, char *buf, size_t size)
{
    size_t n = strlen(first);
    if (n >= 4 && strcmp(first + n - 4, ".spv") == 0)
        n -= 4;
    if (index == 0)
        snprintf(buf, size, "%s", first);
    else
        snprintf(buf, size, "%.*s-m%zu.spv", (int)n, first, index);
}

/* The name of specialization constant `id` in a step: the parameter's, else the pass's key "spec.N". */
static void spec_name(const vkat_space *s, uint32_t id, char *buf, size_t size)
{
    for (size_t i = 0; i < s->param_count; i++)
        if (s->params[i].kind == VKAT_PARAM_SPEC && s->params[i].spec_id == id) {
            snprintf(buf, size, "%s", s->params[i].name);
            return;
        }
    snprintf(buf, size, "spec.%u", id);
}

static json_object *triple(const uint32_t v[3])
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < 3; i++)
        json_object_array_add(a, json_object_new_int64(v[i]));
    return a;
}

json_object *vkat_export_passes_json(const vkat_export_item *it, const char *first)
{
    const vkat_sequence *q = it->sequence;
    json_object *passes = json_object_new_array();
    for (size_t i = 0; i < q->step_count; i++) {
        const vkat_step *st = &q->steps[i];
        const vkat_spirv *m = &q->modules[q->module_of[i]];
        char file[600], name[64];
        vkat_export_module_name(first, q->module_of[i], file, sizeof file);
        char hash[17];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)vkat_spirv_hash(m));
        json_object *o = json_object_new_object();
        json_object_object_add(o, "pass", json_object_new_string(st->pass->name));
        json_object_object_add(o, "index", json_object_new_int64(st->index));
        json_object_object_add(o, "spirv", json_object_new_string(file));
        json_object_object_add(o, "spirv_hash", json_object_new_string(hash));
        json_object_object_add(o, "spirv_size_bytes", json_object_new_int64((int64_t)(m->count * sizeof *m->words)));
        json_object *spec = json_object_new_array();
        vkat_spirv_info *si = malloc(sizeof *si);
        for (size_t k = 0; k < st->spec_count; k++) {
            json_object *c = json_object_new_object();
            spec_name(it->space, st->spec_id[k], name, sizeof name);
            json_object_object_add(c, "id", json_object_new_int64(st->spec_id[k]));
            json_object_object_add(c, "name", json_object_new_string(name));
            json_object_object_add(c, "value", json_object_new_int64(st->spec_value[k]));
            const vkat_spec_decl *d = si ? vkat_export_step_spec_decl(q, i, k, si) : NULL;
            json_object_object_add(c, "type", json_object_new_string(vkat_spec_type_name(d)));
            json_object_array_add(spec, c);
        }
        free(si);
        json_object_object_add(o, "specialization_constants", spec);
        json_object_object_add(o, "local_size", triple(q->workgroup_size[i]));
        json_object_object_add(o, "workgroup_count", triple(st->groups));
        json_object_object_add(o, "push_constants", vkat_export_push_json(it->space, st->push));
        /* The buffer each binding holds in this dispatch (by the space's buffer names). */
        json_object *buffers = json_object_new_array();
        for (size_t b = 0; b < it->space->buffer_count; b++) {
            size_t held = b < VKAT_MAX_STEP_BINDINGS && st->remapped ? st->binding_buffer[b] : b;
            json_object_array_add(buffers, json_object_new_string(it->space->buffers[held].name));
        }
        json_object_object_add(o, "buffers", buffers);
        json_object_array_add(passes, o);
    }
    return passes;
}
