/* manifest_entry.c — manifest.json (docs/manifest.md) to manifest_entry, one kernel's entries at a time.
 * Every field the runner needs is checked for presence and type here, so that gemm_verify never dispatches from a
 * half-read entry; fields only reported (measured, config) are optional. */
#include "manifest_entry.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    char path[4096];
    char *err;
    size_t err_size;
} reader;

static int fail(reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, r->err_size, "%s: ", r->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->err_size)
        vsnprintf(r->err + n, r->err_size - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The member `key` of `o` if it has type `t`, else NULL. */
static json_object *member(json_object *o, const char *key, json_type t)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
        return NULL;
    return v;
}

static int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

/* Copies the string member `key` into dst; -1 (with a message naming entry `idx`) when absent or too long. */
static int string_field(reader *r, json_object *o, size_t idx, const char *key, char *dst, size_t size, int needed)
{
    json_object *v = member(o, key, json_type_string);
    if (!v) {
        dst[0] = 0;
        return needed ? fail(r, "kernels[%zu]: '%s' is missing or not a string", idx, key) : 0;
    }
    if ((size_t)snprintf(dst, size, "%s", json_object_get_string(v)) >= size)
        return fail(r, "kernels[%zu]: '%s' is too long", idx, key);
    return 0;
}

static int array_field(reader *r, json_object *o, size_t idx, const char *key, json_object **out, size_t *len)
{
    *out = member(o, key, json_type_array);
    if (!*out)
        return fail(r, "kernels[%zu]: '%s' is missing or not an array", idx, key);
    *len = json_object_array_length(*out);
    if (*len > MANIFEST_MAX_ITEMS)
        return fail(r, "kernels[%zu]: '%s' has %zu items, more than %d", idx, key, *len, MANIFEST_MAX_ITEMS);
    return 0;
}

static int read_bindings(reader *r, json_object *o, size_t idx, manifest_entry *e)
{
    json_object *arr;
    if (array_field(r, o, idx, "bindings", &arr, &e->binding_count))
        return -1;
    for (size_t i = 0; i < e->binding_count; i++) {
        json_object *b = json_object_array_get_idx(arr, i), *num, *set, *elements, *bytes;
        manifest_binding *mb = &e->bindings[i];
        char type[32];
        if (!json_object_is_type(b, json_type_object) || !(num = member(b, "binding", json_type_int)) ||
            !(elements = member(b, "elements", json_type_int)) || !(bytes = member(b, "bytes", json_type_int)) ||
            string_field(r, b, idx, "type", type, sizeof type, 1) ||
            string_field(r, b, idx, "name", mb->name, sizeof mb->name, 1) ||
            string_field(r, b, idx, "direction", mb->direction, sizeof mb->direction, 1))
            return fail(r, "kernels[%zu].bindings[%zu]: needs integer 'binding', 'elements', 'bytes' and string "
                           "'name', 'type', 'direction'", idx, i);
        if ((set = member(b, "set", json_type_int)) && json_object_get_int64(set) != 0)
            return fail(r, "kernels[%zu].bindings[%zu]: set %lld; only set 0 is defined", idx, i,
                        (long long)json_object_get_int64(set));
        int t = vkat_elem_type_from_name(type);
        if (t < 0)
            return fail(r, "kernels[%zu].bindings[%zu]: unknown element type '%s'", idx, i, type);
        if (json_object_get_int64(num) < 0 || json_object_get_int64(elements) < 0 || json_object_get_int64(bytes) < 0)
            return fail(r, "kernels[%zu].bindings[%zu]: negative number", idx, i);
        mb->binding = (uint32_t)json_object_get_int64(num);
        mb->type = (vkat_elem_type)t;
        mb->elements = (uint64_t)json_object_get_int64(elements);
        mb->bytes = (uint64_t)json_object_get_int64(bytes);
    }
    return 0;
}

/* 4 bytes of `value` as `type` (uint32, int32, float32). */
static int value_bits(json_object *value, const char *type, uint32_t *bits)
{
    if (!is_number(value))
        return -1;
    if (!strcmp(type, "float32")) {
        float f = (float)json_object_get_double(value);
        memcpy(bits, &f, sizeof f);
    } else if (!strcmp(type, "int32") || !strcmp(type, "uint32")) {
        *bits = (uint32_t)json_object_get_int64(value);
    } else {
        return -1;
    }
    return 0;
}

/* The specialization and push constants of one dispatch (`o`: the entry, or one of its `passes`). */
static int read_values(reader *r, json_object *o, size_t idx, manifest_pass *p)
{
    json_object *arr;
    if (array_field(r, o, idx, "specialization_constants", &arr, &p->spec_count))
        return -1;
    for (size_t i = 0; i < p->spec_count; i++) {
        json_object *s = json_object_array_get_idx(arr, i), *id, *value;
        if (!json_object_is_type(s, json_type_object) || !(id = member(s, "id", json_type_int)) ||
            !(value = member(s, "value", json_type_int)))
            return fail(r, "kernels[%zu].specialization_constants[%zu]: needs integer 'id' and 'value'", idx, i);
        string_field(r, s, idx, "name", p->spec[i].name, sizeof p->spec[i].name, 0);
        p->spec[i].id = (uint32_t)json_object_get_int64(id);
        p->spec[i].bits = (uint32_t)json_object_get_int64(value);
    }
    if (array_field(r, o, idx, "push_constants", &arr, &p->push_count))
        return -1;
    p->push_size = 0;
    for (size_t i = 0; i < p->push_count; i++) {
        json_object *c = json_object_array_get_idx(arr, i), *offset, *value;
        char type[16];
        if (!json_object_is_type(c, json_type_object) || !(offset = member(c, "offset", json_type_int)) ||
            !json_object_object_get_ex(c, "value", &value) || string_field(r, c, idx, "type", type, sizeof type, 1) ||
            value_bits(value, type, &p->push[i].bits) || json_object_get_int64(offset) < 0 ||
            json_object_get_int64(offset) % 4 || json_object_get_int64(offset) > 4 * (MANIFEST_MAX_ITEMS - 1))
            return fail(r, "kernels[%zu].push_constants[%zu]: needs an 'offset' (a multiple of 4), a 'type' "
                           "(uint32, int32, float32) and a numeric 'value'", idx, i);
        string_field(r, c, idx, "name", p->push[i].name, sizeof p->push[i].name, 0);
        p->push[i].id = (uint32_t)json_object_get_int64(offset);
        if (p->push[i].id + 4 > p->push_size)
            p->push_size = p->push[i].id + 4;
    }
    return 0;
}

/* One dispatch's module, workgroup count and constants (`o`: the entry, or one of its `passes`). */
static int read_dispatch(reader *r, const char *dir, json_object *o, size_t idx, manifest_pass *p)
{
    char spirv[1024];
    if (string_field(r, o, idx, "spirv", spirv, sizeof spirv, 1))
        return -1;
    if (strstr(spirv, "..") || strchr(spirv, '/'))
        return fail(r, "kernels[%zu]: 'spirv' must be a file name in the manifest's directory", idx);
    snprintf(p->spirv_path, sizeof p->spirv_path, "%s/%s", dir, spirv);
    json_object *wg = member(o, "workgroup_count", json_type_array);
    if (!wg || json_object_array_length(wg) != 3)
        return fail(r, "kernels[%zu]: 'workgroup_count' must be [x, y, z]", idx);
    for (size_t i = 0; i < 3; i++) {
        json_object *c = json_object_array_get_idx(wg, i);
        if (!json_object_is_type(c, json_type_int) || json_object_get_int64(c) < 1 ||
            json_object_get_int64(c) > UINT32_MAX)
            return fail(r, "kernels[%zu]: workgroup_count[%zu] is not a positive 32-bit integer", idx, i);
        p->workgroup_count[i] = (uint32_t)json_object_get_int64(c);
    }
    return read_values(r, o, idx, p);
}

/* A version-2 entry's `passes`. Every pass here binds the entry's own buffers: a pass whose `buffers` names
 * another binding's buffer would need a descriptor set of its own, which this runner does not make. */
static int read_passes(reader *r, const char *dir, json_object *passes, size_t idx, manifest_entry *e)
{
    size_t n = json_object_array_length(passes);
    if (n < 1 || n > MANIFEST_MAX_PASSES)
        return fail(r, "kernels[%zu]: 'passes' has %zu items; this program runs 1 to %d", idx, n,
                    MANIFEST_MAX_PASSES);
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(passes, i), *buffers;
        manifest_pass *p = &e->passes[i];
        if (!json_object_is_type(o, json_type_object) || string_field(r, o, idx, "pass", p->name, sizeof p->name, 1))
            return fail(r, "kernels[%zu].passes[%zu]: not an object with a 'pass' name", idx, i);
        if (read_dispatch(r, dir, o, idx, p))
            return -1;
        if ((buffers = member(o, "buffers", json_type_array)))
            for (size_t j = 0; j < json_object_array_length(buffers); j++) {
                json_object *name = json_object_array_get_idx(buffers, j);
                const manifest_binding *own = NULL;
                for (size_t b = 0; b < e->binding_count; b++)
                    if (e->bindings[b].binding == j)
                        own = &e->bindings[b];
                if (own && (!json_object_is_type(name, json_type_string) ||
                            strcmp(json_object_get_string(name), own->name)))
                    return fail(r, "kernels[%zu].passes[%zu] ('%s'): binding %zu holds buffer '%s', not its own "
                                   "'%s'; this program does not run passes that rebind buffers", idx, i, p->name, j,
                                json_object_get_string(name), own->name);
            }
    }
    e->pass_count = n;
    return 0;
}

static int read_requires(reader *r, json_object *o, size_t idx, manifest_entry *e)
{
    json_object *req = member(o, "requires", json_type_object), *arr;
    if (!req)
        return fail(r, "kernels[%zu]: 'requires' is missing or not an object", idx);
    static const char *const keys[] = {"extensions", "features"};
    for (int k = 0; k < 2; k++) {
        size_t n = 0;
        if (array_field(r, req, idx, keys[k], &arr, &n))
            return -1;
        for (size_t i = 0; i < n; i++) {
            json_object *s = json_object_array_get_idx(arr, i);
            char *dst = k ? e->features[i] : e->extensions[i];
            size_t size = k ? sizeof e->features[i] : sizeof e->extensions[i];
            if (!json_object_is_type(s, json_type_string) ||
                (size_t)snprintf(dst, size, "%s", json_object_get_string(s)) >= size)
                return fail(r, "kernels[%zu].requires.%s[%zu]: not a name", idx, keys[k], i);
        }
        *(k ? &e->feature_count : &e->extension_count) = n;
    }
    return 0;
}

static double optional_number(json_object *o, const char *key)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && is_number(v) ? json_object_get_double(v) : NAN;
}

static int read_entry(reader *r, const char *dir, json_object *o, size_t idx, int64_t version, manifest_entry *e)
{
    if (string_field(r, o, idx, "entry_point", e->entry_point, sizeof e->entry_point, 1) ||
        string_field(r, o, idx, "config", e->config, sizeof e->config, 0))
        return -1;

    json_object *dev = member(o, "device", json_type_object), *v;
    if (!dev || string_field(r, dev, idx, "name", e->device_name, sizeof e->device_name, 1))
        return fail(r, "kernels[%zu]: 'device' needs at least a 'name'", idx);
    string_field(r, dev, idx, "driver_uuid", e->driver_uuid, sizeof e->driver_uuid, 0);
    e->vendor_id = (v = member(dev, "vendor_id", json_type_int)) ? (uint32_t)json_object_get_int64(v) : 0;
    e->device_id = (v = member(dev, "device_id", json_type_int)) ? (uint32_t)json_object_get_int64(v) : 0;

    json_object *problem = member(o, "problem", json_type_object);
    if (!problem)
        return fail(r, "kernels[%zu]: 'problem' is missing or not an object", idx);
    json_object_object_foreach(problem, name, value) {
        if (e->problem_count == MANIFEST_MAX_ITEMS || !json_object_is_type(value, json_type_int) ||
            strlen(name) >= sizeof e->problem[0].name)
            return fail(r, "kernels[%zu]: problem '%s' is not an integer (or there are too many)", idx, name);
        manifest_size *s = &e->problem[e->problem_count++];
        snprintf(s->name, sizeof s->name, "%s", name);
        s->value = json_object_get_int64(value);
    }

    /* The entry's own dispatch fields are a sequence's first pass: read them always, so a malformed entry fails
     * the same way whether or not it has `passes`. */
    if (read_bindings(r, o, idx, e) || read_dispatch(r, dir, o, idx, &e->passes[0]) || read_requires(r, o, idx, e))
        return -1;
    snprintf(e->passes[0].name, sizeof e->passes[0].name, "%s", e->kernel);
    e->pass_count = 1;
    json_object *passes = member(o, "passes", json_type_array);
    if (version >= 2 && passes && read_passes(r, dir, passes, idx, e))
        return -1;
    e->push_size = 0;
    for (size_t i = 0; i < e->pass_count; i++)
        if (e->passes[i].push_size > e->push_size)
            e->push_size = e->passes[i].push_size;
    json_object *measured = member(o, "measured", json_type_object);
    e->measured_median_ms = optional_number(measured, "median_ms");
    e->measured_tflops = optional_number(measured, "tflops");
    return 0;
}

int manifest_read_kernel(const char *dir, const char *kernel, manifest_entry **entries, size_t *count, char *err,
                         size_t err_size)
{
    reader r = {.err = err, .err_size = err_size};
    snprintf(r.path, sizeof r.path, "%s/manifest.json", dir);
    *entries = NULL;
    *count = 0;
    json_object *root = json_object_from_file(r.path);
    if (!root)
        return fail(&r, "cannot read it as JSON (%s)", json_util_get_last_err() ? json_util_get_last_err() : "?");
    int rc = -1;
    json_object *format = member(root, "format", json_type_string), *version = member(root, "version", json_type_int);
    json_object *kernels = member(root, "kernels", json_type_array);
    if (!format || strcmp(json_object_get_string(format), "vkautotune-manifest")) {
        fail(&r, "not a vkautotune manifest ('format' is not \"vkautotune-manifest\")");
        goto done;
    }
    if (!version || json_object_get_int64(version) < 1 || json_object_get_int64(version) > 2) {
        fail(&r, "manifest version %s; this program reads versions 1 and 2",
             version ? json_object_get_string(version) : "missing");
        goto done;
    }
    if (!kernels) {
        fail(&r, "'kernels' is missing or not an array");
        goto done;
    }
    size_t n = json_object_array_length(kernels);
    *entries = calloc(n ? n : 1, sizeof **entries);
    if (!*entries) {
        fail(&r, "out of memory");
        goto done;
    }
    char names[1024] = "";
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(kernels, i), *name;
        if (!json_object_is_type(o, json_type_object) || !(name = member(o, "kernel", json_type_string))) {
            fail(&r, "kernels[%zu]: not an object with a 'kernel' name", i);
            goto done;
        }
        const char *nm = json_object_get_string(name);
        if (strcmp(nm, kernel)) {
            if (!strstr(names, nm) && strlen(names) + strlen(nm) + 3 < sizeof names)
                strcat(strcat(names, names[0] ? ", " : ""), nm);
            continue;
        }
        /* Candidates for runtime tuning are no device's winner: the verification runs winners. */
        json_object *role = member(o, "role", json_type_string);
        if (role && !strcmp(json_object_get_string(role), "candidate"))
            continue;
        manifest_entry *e = &(*entries)[*count];
        snprintf(e->kernel, sizeof e->kernel, "%s", nm);
        if (read_entry(&r, dir, o, i, json_object_get_int64(version), e))
            goto done;
        (*count)++;
    }
    if (*count == 0) {
        fail(&r, "no kernel '%s' (it has: %s)", kernel, names[0] ? names : "none");
        goto done;
    }
    rc = 0;
done:
    if (rc) {
        free(*entries);
        *entries = NULL;
        *count = 0;
    }
    json_object_put(root);
    return rc;
}

int64_t manifest_problem(const manifest_entry *e, const char *name, int64_t fallback)
{
    for (size_t i = 0; i < e->problem_count; i++)
        if (!strcmp(e->problem[i].name, name))
            return e->problem[i].value;
    return fallback;
}
