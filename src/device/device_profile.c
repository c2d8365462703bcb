/* device_profile.c — a vkat_device_info read from `vkautotune devices --json` output (device_profile.h), for
 * counting and compiling a space for a GPU that is not on this machine. The strings the info points to (vendor,
 * type, component and scope names) are the same static strings device.c uses, never the file's. */
#include "device_profile.h"
#include "device.h"
#include "util.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's value for `key` as one of `known` (static strings), or `fallback` when absent or unknown. */
static const char *known_string(json_object *o, const char *key, const char *const *known, const char *fallback)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return fallback;
    for (size_t i = 0; known[i]; i++)
        if (!strcmp(json_object_get_string(v), known[i]))
            return known[i];
    return fallback;
}

static int64_t int_of(json_object *o, const char *key, int64_t fallback)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && (json_object_is_type(v, json_type_int) ||
                                                     json_object_is_type(v, json_type_double))
               ? json_object_get_int64(v)
               : fallback;
}

static void string_of(json_object *o, const char *key, char *out, size_t size)
{
    json_object *v;
    snprintf(out, size, "%s", json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
                                  ? json_object_get_string(v)
                                  : "");
}

/* A coopmat component type: the enum and the static name, VKAT_ELEM_TYPE_COUNT/"other" for one the enum lacks. */
static const char *component(json_object *shape, const char *key, vkat_elem_type *type)
{
    json_object *v;
    int t = json_object_object_get_ex(shape, key, &v) ? vkat_elem_type_from_name(json_object_get_string(v)) : -1;
    *type = t < 0 ? VKAT_ELEM_TYPE_COUNT : (vkat_elem_type)t;
    return t < 0 ? "other" : vkat_elem_type_name(*type);
}

static void read_shapes(json_object *dev, vkat_device_info *d)
{
    static const char *const scopes[] = {"subgroup", "workgroup", "device", "queue family", NULL};
    json_object *arr;
    if (!json_object_object_get_ex(dev, "cooperative_matrix_shapes", &arr) || !json_object_is_type(arr, json_type_array))
        return;
    for (size_t i = 0; i < json_object_array_length(arr) && d->coopmat_count < VKAT_MAX_COOPMAT_SHAPES; i++) {
        json_object *c = json_object_array_get_idx(arr, i);
        vkat_coopmat_shape *s = &d->coopmat[d->coopmat_count++];
        s->m = (uint32_t)int_of(c, "m", 0);
        s->n = (uint32_t)int_of(c, "n", 0);
        s->k = (uint32_t)int_of(c, "k", 0);
        s->a_name = component(c, "a", &s->a_type);
        s->b_name = component(c, "b", &s->b_type);
        s->c_name = component(c, "c", &s->c_type);
        s->result_name = component(c, "result", &s->result_type);
        json_object *v;
        s->saturating = json_object_object_get_ex(c, "saturating", &v) && json_object_get_boolean(v);
        s->scope = known_string(c, "scope", scopes, "other");
    }
}

static void read_features(json_object *dev, vkat_device_info *d)
{
    json_object *f, *v;
    if (!json_object_object_get_ex(dev, "features", &f))
        return;
    for (int i = 0; i < VKAT_FEATURE_COUNT; i++)
        d->feature[i] = json_object_object_get_ex(f, vkat_feature_names[i], &v) && json_object_get_boolean(v);
    /* Profiles written before the member was read on its own: bf16 cooperative matrices were assumed with both. */
    if (!json_object_object_get_ex(f, vkat_feature_names[VKAT_FEATURE_BFLOAT16_COOPMAT], &v))
        d->feature[VKAT_FEATURE_BFLOAT16_COOPMAT] = d->feature[VKAT_FEATURE_BFLOAT16] && d->feature[VKAT_FEATURE_COOPMAT];
}

static void read_extensions(json_object *dev, vkat_device_info *d)
{
    json_object *arr;
    size_t used = 0;
    if (json_object_object_get_ex(dev, "extensions", &arr) && json_object_is_type(arr, json_type_array))
        for (size_t i = 0; i < json_object_array_length(arr); i++) {
            const char *e = json_object_get_string(json_object_array_get_idx(arr, i));
            size_t len = e ? strlen(e) : 0;
            if (!len || used + len + 2 > sizeof d->extensions)
                continue;
            memcpy(d->extensions + used, e, len + 1);
            used += len + 1;
        }
    d->extensions[used] = '\0'; /* the empty name that ends the list */
}

static void read_limits(json_object *dev, vkat_device_info *d)
{
    json_object *sg, *v;
    if (json_object_object_get_ex(dev, "subgroup_size", &sg)) {
        d->subgroup_size = (uint32_t)int_of(sg, "default", 0);
        d->min_subgroup_size = (uint32_t)int_of(sg, "min", d->subgroup_size);
        d->max_subgroup_size = (uint32_t)int_of(sg, "max", d->subgroup_size);
    }
    if (json_object_object_get_ex(dev, "subgroup_operations", &v) && json_object_is_type(v, json_type_array))
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            const char *name = json_object_get_string(json_object_array_get_idx(v, i)); /* NULL for a null */
            for (unsigned b = 0; name && vkat_subgroup_operation_name(b); b++)
                if (!strcmp(name, vkat_subgroup_operation_name(b)))
                    d->subgroup_operations |= 1u << b;
        }
    d->subgroup_in_compute = json_object_object_get_ex(dev, "subgroup_in_compute", &v) && json_object_get_boolean(v);
    const char *triples[2] = {"max_workgroup_size", "max_workgroup_count"};
    uint32_t *dst[2] = {d->max_workgroup_size, d->max_workgroup_count};
    for (int t = 0; t < 2; t++)
        if (json_object_object_get_ex(dev, triples[t], &v) && json_object_is_type(v, json_type_array))
            for (size_t i = 0; i < 3 && i < json_object_array_length(v); i++)
                dst[t][i] = (uint32_t)json_object_get_int64(json_object_array_get_idx(v, i));
    d->max_workgroup_invocations = (uint32_t)int_of(dev, "max_workgroup_invocations", 0);
    d->max_shared_memory = (uint32_t)int_of(dev, "max_shared_memory", 0);
    d->max_storage_buffer_range = (uint32_t)int_of(dev, "max_storage_buffer_range", 0);
    d->max_push_constants_size = (uint32_t)int_of(dev, "max_push_constants_size", 0);
    d->max_buffer_size = (uint64_t)int_of(dev, "max_buffer_size", 0);
    d->compute_units = (uint32_t)int_of(dev, "compute_units", 0);
}

static vkat_result read_device(json_object *dev, const char *path, vkat_device_info *d, vkat_error *err)
{
    static const char *const types[] = {"discrete", "integrated", "virtual", "cpu", "other", NULL};
    memset(d, 0, sizeof *d);
    string_of(dev, "name", d->name, sizeof d->name);
    string_of(dev, "vulkan_version", d->api_version_string, sizeof d->api_version_string);
    unsigned major = 0, minor = 0, patch = 0;
    if (!d->name[0] || sscanf(d->api_version_string, "%u.%u.%u", &major, &minor, &patch) < 2 ||
        int_of(dev, "max_workgroup_invocations", 0) <= 0)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                         "not a device description of `vkautotune devices --json` (name, vulkan_version and limits "
                         "expected)");
    d->api_version = VK_MAKE_API_VERSION(0, major, minor, patch);
    d->index = (uint32_t)int_of(dev, "index", 0);
    d->vendor_id = (uint32_t)int_of(dev, "vendor_id", 0);
    d->device_id = (uint32_t)int_of(dev, "device_id", 0);
    d->vendor = vkat_vendor_name(d->vendor_id);
    d->device_type = known_string(dev, "type", types, "other");
    string_of(dev, "driver_name", d->driver_name, sizeof d->driver_name);
    string_of(dev, "driver_info", d->driver_info, sizeof d->driver_info);
    string_of(dev, "driver_version", d->driver_version_string, sizeof d->driver_version_string);
    d->driver_version = (uint32_t)int_of(dev, "driver_version_raw", 0);
    d->compute_queue_family = UINT32_MAX; /* nothing to run on */
    read_limits(dev, d);
    read_features(dev, d);
    read_shapes(dev, d);
    read_extensions(dev, d);
    return VKAT_OK;
}

vkat_result vkat_device_profile_load(const char *path, const char *select, vkat_device_info *out, vkat_error *err)
{
    size_t size = 0;
    char *text = vkat_read_file(path, &size);
    if (!text)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot read the device profile");
    json_tokener *tok = json_tokener_new();
    json_object *root = tok ? json_tokener_parse_ex(tok, text, (int)size) : NULL;
    vkat_result r = VKAT_OK;
    if (!root || json_tokener_get_error(tok) != json_tokener_success) {
        r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "not JSON: %s",
                      tok ? json_tokener_error_desc(json_tokener_get_error(tok)) : "out of memory");
        goto done;
    }
    json_object *list = root;
    if (json_object_is_type(root, json_type_object)) /* one device, e.g. an entry cut out of the list */
        list = NULL;
    else if (!json_object_is_type(root, json_type_array) || json_object_array_length(root) == 0) {
        r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "expected the device list of `vkautotune devices --json`");
        goto done;
    }
    json_object *dev = list ? json_object_array_get_idx(list, 0) : root;
    if (list && select && *select) {
        size_t n = json_object_array_length(list);
        char *end;
        unsigned long i = strtoul(select, &end, 10);
        dev = NULL;
        if (*end == '\0' && end != select) {
            dev = i < n ? json_object_array_get_idx(list, i) : NULL;
        } else {
            for (size_t k = 0; k < n && !dev; k++) {
                json_object *name;
                json_object *d = json_object_array_get_idx(list, k);
                if (json_object_object_get_ex(d, "name", &name) &&
                    vkat_contains_nocase(json_object_get_string(name), select))
                    dev = d;
            }
        }
        if (!dev) {
            r = vkat_fail(err, VKAT_ERR_USAGE, path, 0, "no device '%s' in this profile (%zu device(s))", select, n);
            goto done;
        }
    }
    r = read_device(dev, path, out, err);
done:
    json_object_put(root);
    if (tok)
        json_tokener_free(tok);
    free(text);
    return r;
}
