/* export.c — writes the winners for runtimes that do not link vkautotune: one .spv per (kernel, device, problem)
 * and a manifest.json that says how to run each (docs/manifest.md).
 *
 * Every file is written to a temporary name, synced and renamed over the old one, and the .spv files go before
 * the manifest, so a crash leaves either the old manifest or a complete new one pointing at complete files.
 * This file must not measure, compile or evaluate anything: the caller hands it the evaluated launch. JSON is
 * built with json-c, never by hand. */
#define _POSIX_C_SOURCE 200809L
#include "atomic_file.h"
#include "capabilities.h"
#include "export.h"
#include "export_sequence.h"
#include "export_spec.h"
#include "sequence.h"
#include "util.h"
#include "vkautotune_runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_VERSION 1
#define MANIFEST_VERSION_SEQUENCES 2 /* written only when an entry has passes: a version-1 reader must refuse it */

/* The hash the results database gives a module (vkat_spirv_hash), as the manifest and the header print it. */
static const char *spirv_hash_hex(const vkat_spirv *m, char out[17])
{
    return vkat_hash_hex(vkat_spirv_hash(m), out);
}

/* Writes `size` bytes to dir/name through a temporary file + fsync + rename (atomic_file.c), so readers (and a
 * crash) see either the old file or the whole new one, and a symlink planted in dir is never written through. */
static vkat_result write_atomic(const char *dir, const char *name, const void *data, size_t size, vkat_error *err)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path)
        return vkat_fail(err, VKAT_ERR_IO, dir, 0, "path too long");
    return vkat_write_file_atomic(path, data, size, err);
}

/* The renames are durable only once the directory itself is synced. */
static void sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        if (fsync(fd) != 0)
            vkat_log(VKAT_LOG_DEBUG, "%s: fsync of the directory failed: %s", dir, strerror(errno));
        close(fd);
    }
}

/* ---- Names -------------------------------------------------------------------------------------------------- */

/* Appends a slug of `text` to buf: lowercase [a-z0-9], '=' dropped (so "M=256" becomes "m256"), every other run
 * of characters one '-', no leading or trailing '-'. */
static void append_slug(char *buf, size_t size, const char *text)
{
    size_t n = strlen(buf);
    int dash = n > 0; /* separate from what is there already */
    for (const char *c = text; *c && n + 2 < size; c++) {
        char ch = *c;
        if (ch >= 'A' && ch <= 'Z')
            ch = (char)(ch - 'A' + 'a');
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            if (dash && n > 0)
                buf[n++] = '-';
            dash = 0;
            buf[n++] = ch;
        } else if (ch != '=') {
            dash = 1;
        }
    }
    buf[n] = 0;
}

/* A problem variable's value for this item: the environment has it when given (several items may share one
 * space with different problems), else the space's current value. */
static int64_t problem_value(const vkat_export_item *it, size_t i)
{
    const vkat_problem_var *v = &it->space->problem[i];
    if (it->env && v->slot >= 0) {
        vkat_value x = it->env[v->slot];
        return x.is_float ? (int64_t)x.f : x.i;
    }
    return v->value;
}

/* File names stay well inside NAME_MAX (255 bytes on every common file system): a longer slug (a device name of
 * thousands of characters, many problem sizes) keeps its start and ends in the xxHash of the whole, so names stay
 * distinct and the same item always gets the same one. */
#define SPV_SLUG_MAX 160

static void spv_name(const vkat_export_item *it, char *buf, size_t size)
{
    char slug[8192] = "";
    append_slug(slug, sizeof slug, it->space->name ? it->space->name : it->row->kernel);
    append_slug(slug, sizeof slug, it->device ? it->device->name : it->row->device.name);
    for (size_t i = 0; i < it->space->problem_count; i++) {
        char part[320];
        snprintf(part, sizeof part, "%s=%lld", it->space->problem[i].name, (long long)problem_value(it, i));
        append_slug(slug, sizeof slug, part);
    }
    size_t n = strlen(slug);
    if (n > SPV_SLUG_MAX)
        snprintf(slug + SPV_SLUG_MAX - 17, sizeof slug - (SPV_SLUG_MAX - 17), "-%016llx",
                 (unsigned long long)XXH3_64bits(slug, n));
    /* A candidate shares kernel, device and problem with its series' winner: its configuration tells them apart. */
    if (it->candidate_only)
        snprintf(buf, size, "%s-c%08llx.spv", slug,
                 (unsigned long long)(XXH3_64bits(it->row->config, strlen(it->row->config)) >> 32));
    else
        snprintf(buf, size, "%s.spv", slug);
}

/* ---- JSON helpers ------------------------------------------------------------------------------------------- */

/* JSON has no NaN or infinity: an unmeasured figure is null. */
static json_object *num(double x)
{
    return isfinite(x) ? json_object_new_double(x) : json_object_new_null();
}

static json_object *str(const char *s)
{
    return json_object_new_string(s ? s : "");
}

static json_object *u32_triple(const uint32_t v[3])
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < 3; i++)
        json_object_array_add(a, json_object_new_int64(v[i]));
    return a;
}

static json_object *string_array(char *const *s, size_t n)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(a, str(s[i]));
    return a;
}

/* The features a variant requires: the space's, then those its module's SPIR-V needs that the space did not list (a
 * runtime that enables only the space's would run it as invalid usage). Returns how many went into out. */
static size_t required_features(const vkat_space *s, const vkat_spirv_info *si, const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < s->feature_count && n < max; i++)
        out[n++] = s->features[i];
    const char *needs[VKAT_FEATURE_COUNT];
    size_t need_count = si ? vkat_spirv_features(si, needs, VKAT_COUNTOF(needs)) : 0;
    for (size_t i = 0; i < need_count && n < max; i++) {
        int listed = 0;
        for (size_t j = 0; j < s->feature_count && !listed; j++)
            listed = !strcmp(s->features[j], needs[i]);
        if (!listed)
            out[n++] = needs[i];
    }
    return n;
}

/* The formula a runtime re-evaluates for other sizes; when the space has none (NULL: the default 1), the
 * evaluated number, as text so every entry has one type. */
static json_object *formulas(vkat_expr *const e[3], const uint32_t v[3])
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < 3; i++) {
        const char *text = e[i] ? vkat_expr_text(e[i]) : NULL;
        char number[16];
        if (!text) {
            snprintf(number, sizeof number, "%u", v[i]);
            text = number;
        }
        json_object_array_add(a, str(text));
    }
    return a;
}

static const char *direction_name(vkat_direction d)
{
    switch (d) {
    case VKAT_DIR_IN: return "in";
    case VKAT_DIR_OUT: return "out";
    case VKAT_DIR_INOUT: return "inout";
    case VKAT_DIR_SCRATCH: return "scratch";
    }
    return "inout";
}

/* How the tuner filled a buffer before its runs: a binding a runtime does not fill itself (a kernel's own state, as
 * stream-K's partial sums) must start that way, "zero" above all. */
static const char *init_name(vkat_init_kind k)
{
    switch (k) {
    case VKAT_INIT_ZERO: return "zero";
    case VKAT_INIT_RANDOM: return "random";
    case VKAT_INIT_CONST: return "const";
    case VKAT_INIT_IOTA: return "iota";
    }
    return "zero";
}

/* A device that is not present is described by its database row: the same identity, type unknown. */
static json_object *device_json(const vkat_device_info *d, const vkat_device_key *row_key)
{
    vkat_device_key key;
    if (d)
        vkat_device_key_from_info(d, &key);
    else
        key = *row_key;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", str(key.name));
    json_object_object_add(o, "vendor", str(key.vendor));
    json_object_object_add(o, "vendor_id", json_object_new_int64(key.vendor_id));
    json_object_object_add(o, "device_id", json_object_new_int64(key.device_id));
    json_object_object_add(o, "driver_version", str(key.driver_version_string));
    json_object_object_add(o, "driver_version_raw", json_object_new_int64(key.driver_version));
    json_object_object_add(o, "driver_uuid", str(key.driver_uuid));
    json_object_object_add(o, "pipeline_cache_uuid", str(key.pipeline_cache_uuid));
    json_object_object_add(o, "device_type", str(d ? d->device_type : "unknown"));
    return o;
}

/* ---- One manifest entry ------------------------------------------------------------------------------------- */

/* The entry's problem: values, which are compiled in, how each reaches the kernel; then configuration, role and
 * tolerances. */
static void add_problem_json(json_object *k, const vkat_export_item *it)
{
    const vkat_space *s = it->space;
    const vkat_row *row = it->row;
    json_object *problem = json_object_new_object();
    for (size_t i = 0; i < s->problem_count; i++)
        json_object_object_add(problem, s->problem[i].name, json_object_new_int64(problem_value(it, i)));
    json_object_object_add(k, "problem", problem);
    json_object *compiled = json_object_new_array();
    for (size_t i = 0; i < s->problem_count && i < 64; i++)
        if (it->compiled_problem >> i & 1)
            json_object_array_add(compiled, str(s->problem[i].name));
    json_object_object_add(k, "compiled_problem", compiled);
    static const char *const binding_names[] = {"define", "spec", "push", "none"};
    json_object *binding = json_object_new_object();
    for (size_t i = 0; i < s->problem_count; i++)
        json_object_object_add(binding, s->problem[i].name, str(binding_names[s->problem[i].binding]));
    json_object_object_add(k, "problem_binding", binding);
    json_object_object_add(k, "config", str(row->config));
    json_object_object_add(k, "role", str(it->candidate_only ? "candidate" : "winner"));
    json_object *check = json_object_new_object();
    json_object_object_add(check, "rel_l2", num(s->rel_l2_tolerance));
    json_object_object_add(check, "max_abs", num(s->max_abs_tolerance));
    json_object_object_add(k, "check", check);

}

/* Parameters by name, and every specialization constant (problem sizes bound @spec, then @spec parameters). */
static void add_params_json(json_object *k, const vkat_export_item *it, const vkat_spirv_info *si)
{
    const vkat_space *s = it->space;
    json_object *params = json_object_new_object();
    json_object *spec = json_object_new_array();
    for (size_t i = 0; i < s->problem_count; i++) {
        if (s->problem[i].binding != VKAT_SIZE_SPEC)
            continue;
        json_object *c = json_object_new_object();
        json_object_object_add(c, "id", json_object_new_int64(s->problem[i].spec_id));
        json_object_object_add(c, "name", str(s->problem[i].name));
        json_object_object_add(c, "value", json_object_new_int64(problem_value(it, i)));
        json_object_object_add(c, "type", str(vkat_spec_type_name(vkat_spec_decl_find(si, s->problem[i].spec_id))));
        json_object_object_add(c, "problem", json_object_new_boolean(1));
        json_object_array_add(spec, c);
    }
    for (size_t i = 0; i < s->param_count; i++) {
        const vkat_param *p = &s->params[i];
        int64_t v = p->values[it->choice[i]];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "value", p->texts ? str(p->texts[v]) : json_object_new_int64(v));
        json_object_object_add(o, "kind", str(p->kind == VKAT_PARAM_SPEC ? "spec" : "define"));
        json_object_object_add(params, p->name, o);
        if (p->kind == VKAT_PARAM_SPEC) {
            json_object *c = json_object_new_object();
            json_object_object_add(c, "id", json_object_new_int64(p->spec_id));
            json_object_object_add(c, "name", str(p->name));
            json_object_object_add(c, "value", json_object_new_int64(v));
            json_object_object_add(c, "type", str(vkat_spec_type_name(vkat_spec_decl_find(si, p->spec_id))));
            json_object_array_add(spec, c);
        }
    }
    json_object_object_add(k, "parameters", params);
    json_object_object_add(k, "specialization_constants", spec);

}

/* 4-byte values (push constants, a buffer's fields) as the manifest lists them: offset, size, name, type and the
 * value of bits[i]. */
static json_object *values_json(const vkat_push_decl *v, size_t n, const uint32_t *bits)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        const vkat_push_decl *p = &v[i];
        json_object *value;
        if (p->type == VKAT_FLOAT32) {
            float f;
            memcpy(&f, &bits[i], 4);
            value = num(f);
        } else if (p->type == VKAT_INT32) {
            value = json_object_new_int64((int32_t)bits[i]);
        } else {
            value = json_object_new_int64(bits[i]);
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "offset", json_object_new_int64((int64_t)p->offset));
        json_object_object_add(o, "size", json_object_new_int64(4));
        json_object_object_add(o, "name", str(p->name));
        json_object_object_add(o, "type", str(vkat_elem_type_name(p->type)));
        json_object_object_add(o, "value", value);
        json_object_array_add(a, o);
    }
    return a;
}

/* Buffer `index`'s [fields.NAME] for the item's problem, as the manifest lists push constants (NULL: it has none,
 * or they cannot be evaluated, which the tuning run itself would have refused). */
static json_object *fields_json(const vkat_export_item *it, size_t index)
{
    const vkat_buffer_decl *b = &it->space->buffers[index];
    uint32_t *words = b->field_count ? malloc(b->field_count * sizeof *words) : NULL;
    uint64_t bytes = it->launch->buffer_counts ? it->launch->buffer_counts[index] * vkat_elem_type_size(b->type) : 0;
    json_object *o = NULL;
    if (words && vkat_space_field_words(it->space, index, it->env, bytes, words, NULL) == VKAT_OK)
        o = values_json(b->fields, b->field_count, words);
    free(words);
    return o;
}

static json_object *bindings_json(const vkat_export_item *it)
{
    const vkat_space *s = it->space;
    const vkat_launch *l = it->launch;
    json_object *bindings = json_object_new_array();
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        uint64_t elements = l->buffer_counts ? l->buffer_counts[i] : 0;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "binding", json_object_new_int64(b->binding));
        json_object_object_add(o, "set", json_object_new_int64(b->set));
        json_object_object_add(o, "name", str(b->name));
        json_object_object_add(o, "type", str(vkat_elem_type_name(b->type)));
        json_object_object_add(o, "elements", json_object_new_uint64(elements));
        json_object_object_add(o, "bytes", json_object_new_uint64(elements * vkat_elem_type_size(b->type)));
        json_object_object_add(o, "direction", str(direction_name(b->dir)));
        json_object_object_add(o, "descriptor_type", str(b->image   ? (b->sampled ? "combined_image_sampler"
                                                                                   : "storage_image")
                                                         : b->texel ? (b->uniform ? "uniform_texel_buffer"
                                                                                  : "storage_texel_buffer")
                                                         : b->uniform ? "uniform_buffer" : "storage_buffer"));
        if (b->texel) /* a buffer of `elements` components, bound through a view of this format */
            json_object_object_add(o, "image_format", str(b->texel->name));
        if (b->image) {
            json_object_object_add(o, "image_format", str(b->image->name));
            json_object *extent = json_object_new_array();
            for (int k = 0; k < 3; k++)
                json_object_array_add(extent, json_object_new_int64(l->image_extents ? l->image_extents[i][k] : 1));
            json_object_object_add(o, "image_extent", extent);
        }
        json_object_object_add(o, "init", str(init_name(b->init)));
        json_object *init_args = json_object_new_array();
        json_object_array_add(init_args, num(b->init_a));
        json_object_array_add(init_args, num(b->init_b));
        json_object_object_add(o, "init_args", init_args);
        json_object *fields = fields_json(it, i);
        if (fields) /* written over the init at their offsets: a uniform block's members */
            json_object_object_add(o, "fields", fields);
        json_object_array_add(bindings, o);
    }
    return bindings;

}

/* The row's timings and the launch's figures. */
static void add_measured_json(json_object *k, const vkat_row *row, const vkat_launch *l)
{
    json_object *m = json_object_new_object();
    json_object_object_add(m, "median_ms", num(row->median_s * 1e3));
    json_object_object_add(m, "min_ms", num(row->min_s * 1e3));
    json_object_object_add(m, "mad_ms", num(row->mad_s * 1e3));
    json_object_object_add(m, "samples", json_object_new_int64(row->samples));
    json_object_object_add(m, "tflops", l->flops > 0 ? num(row->tflops) : json_object_new_null());
    json_object_object_add(m, "gbps", l->bytes > 0 ? num(row->gbps) : json_object_new_null());
    json_object_object_add(k, "measured", m);

    json_object *metrics = json_object_new_object();
    json_object_object_add(metrics, "flops", l->flops > 0 ? num(l->flops) : json_object_new_null());
    json_object_object_add(metrics, "bytes", l->bytes > 0 ? num(l->bytes) : json_object_new_null());
    json_object_object_add(k, "metrics", metrics);

}


static vkat_result item_json(const vkat_export_item *it, const char *file, json_object **out, vkat_error *err)
{
    const vkat_space *s = it->space;
    const vkat_launch *l = it->launch;
    const vkat_row *row = it->row;
    *out = NULL;
    vkat_launch first;
    if (it->sequence && it->sequence->step_count) {
        /* A sequence's top level describes its first dispatch; `passes` lists them all. */
        const vkat_step *st = &it->sequence->steps[0];
        first = *it->launch;
        memcpy(first.local_size, it->sequence->workgroup_size[0], sizeof first.local_size);
        memcpy(first.groups, st->groups, sizeof first.groups);
        memcpy(first.push, st->push, sizeof first.push);
        l = &first;
    }

    for (size_t i = 0; i < s->param_count; i++)
        if (it->choice[i] >= s->params[i].value_count)
            return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: choice %u out of range for parameter '%s'",
                             it->choice[i], s->params[i].name);
    if (vkat_space_push_size(s) > l->push_size)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: %zu push constants but %u bytes packed",
                         s->push_count, l->push_size);

    vkat_spirv_info *si = malloc(sizeof *si);
    if (!si)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory building the manifest");
    vkat_result sr = vkat_export_spec_info(it, si, err);
    json_object *k = sr ? NULL : json_object_new_object();
    if (!k) {
        free(si);
        return sr ? sr : vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory building the manifest");
    }
    size_t spv_bytes = it->spirv->count * sizeof(uint32_t);
    char hash[17];
    spirv_hash_hex(it->spirv, hash);

    json_object_object_add(k, "kernel", str(s->name ? s->name : row->kernel));
    json_object_object_add(k, "entry_point", str(s->entry ? s->entry : "main"));
    json_object_object_add(k, "spirv", str(file));
    json_object_object_add(k, "spirv_hash", str(hash));
    json_object_object_add(k, "spirv_size_bytes", json_object_new_int64((int64_t)spv_bytes));
    json_object_object_add(k, "device", device_json(it->device, &row->device));

    add_problem_json(k, it);
    add_params_json(k, it, si);
    const char *features[2 * VKAT_FEATURE_COUNT]; /* each known name, in the space and from the SPIR-V */
    size_t feature_count = required_features(s, si, features, VKAT_COUNTOF(features));
    free(si);

    json_object_object_add(k, "local_size", u32_triple(l->local_size));
    json_object_object_add(k, "workgroup_count", u32_triple(l->groups));
    json_object *dispatch = json_object_new_object();
    json_object_object_add(dispatch, "workgroup_count", formulas(s->groups, l->groups));
    json_object_object_add(dispatch, "local_size", formulas(s->local_size, l->local_size));
    json_object_object_add(k, "dispatch", dispatch);

    json_object_object_add(k, "bindings", bindings_json(it));

    /* Values come from the packed block the benchmark pushed, so the manifest cannot disagree with it. */
    json_object_object_add(k, "push_constants", vkat_export_push_json(s, l->push));
    if (it->sequence)
        json_object_object_add(k, "passes", vkat_export_passes_json(it, file));

    json_object *req = json_object_new_object();
    json_object_object_add(req, "extensions", string_array(s->extensions, s->extension_count));
    json_object *fa = json_object_new_array();
    for (size_t i = 0; i < feature_count; i++)
        json_object_array_add(fa, str(features[i]));
    json_object_object_add(req, "features", fa);
    json_object_object_add(k, "requires", req);

    add_measured_json(k, row, l);

    json_object_object_add(k, "template_hash", str(row->template_hash));
    json_object_object_add(k, "space_hash", str(row->space_hash));
    *out = k;
    return VKAT_OK;
}

/* The push-constant block `push` as the manifest lists it. */
json_object *vkat_export_push_json(const vkat_space *s, const uint8_t *block)
{
    uint32_t bits[64];
    size_t n = s->push_count < VKAT_COUNTOF(bits) ? s->push_count : VKAT_COUNTOF(bits);
    for (size_t i = 0; i < n; i++)
        memcpy(&bits[i], block + s->push[i].offset, 4);
    return values_json(s->push, n, bits);
}

/* ---- Export ------------------------------------------------------------------------------------------------- */

vkat_result vkat_export_write(const char *dir, const vkat_export_item *items, size_t count, vkat_error *err)
{
    char (*names)[512] = count ? calloc(count, sizeof *names) : NULL;
    json_object *root = json_object_new_object();
    json_object *kernels = json_object_new_array();
    vkat_result r = VKAT_OK;
    if ((count && !names) || !root || !kernels) {
        json_object_put(kernels);
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory building the manifest");
        goto done;
    }
    json_object_object_add(root, "format", str("vkautotune-manifest"));
    int sequences = 0;
    for (size_t i = 0; i < count; i++)
        sequences |= items[i].sequence != NULL;
    json_object_object_add(root, "version",
                           json_object_new_int(sequences ? MANIFEST_VERSION_SEQUENCES : MANIFEST_VERSION));
    json_object_object_add(root, "generator", str("vkautotune " VKAT_VERSION_STRING));
    json_object_object_add(root, "kernels", kernels);

    /* Check everything before touching the directory, so a bad item leaves no partial export behind. */
    for (size_t i = 0; i < count; i++) {
        const vkat_export_item *it = &items[i];
        if (!it->space || !it->row || !it->spirv || !it->launch ||
            (it->space->param_count && !it->choice)) {
            r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: item %zu is incomplete", i);
            goto done;
        }
        if (it->row->status != VKAT_STATUS_OK) {
            r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: item %zu (%s) has status '%s', not 'ok'", i,
                          it->row->kernel, vkat_status_name(it->row->status));
            goto done;
        }
        spv_name(it, names[i], sizeof names[i]);
        for (size_t j = 0; j < i; j++) {
            if (strcmp(names[i], names[j]) == 0) {
                r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0,
                              "two exported variants would both be written to %s/%s (same kernel, device and "
                              "problem)", dir, names[i]);
                goto done;
            }
        }
        json_object *k;
        if ((r = item_json(it, names[i], &k, err)))
            goto done;
        json_object_array_add(kernels, k);
    }

    if ((r = vkat_make_dirs(dir, err)))
        goto done;
    for (size_t i = 0; i < count; i++) {
        const vkat_spirv *m = items[i].spirv;
        if ((r = write_atomic(dir, names[i], m->words, m->count * sizeof(uint32_t), err)))
            goto done;
        /* A sequence's further modules, named after the first. */
        for (size_t j = 1; items[i].sequence && j < items[i].sequence->module_count; j++) {
            char name[600];
            vkat_export_module_name(names[i], j, name, sizeof name);
            m = &items[i].sequence->modules[j];
            if ((r = write_atomic(dir, name, m->words, m->count * sizeof(uint32_t), err)))
                goto done;
        }
    }
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    if (!text) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the manifest");
        goto done;
    }
    /* A final newline, like any text file; written in the same atomic step. */
    char *with_nl = malloc(len + 1);
    if (!with_nl) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the manifest");
        goto done;
    }
    memcpy(with_nl, text, len);
    with_nl[len] = '\n';
    r = write_atomic(dir, MANIFEST_NAME, with_nl, len + 1, err);
    free(with_nl);
    if (!r) {
        sync_dir(dir);
        vkat_log(VKAT_LOG_INFO, "exported %zu kernel(s) to %s/%s", count, dir, MANIFEST_NAME);
    }
done:
    json_object_put(root);
    free(names);
    return r;
}

/* ---- C header for the runtime library ------------------------------------------------------------------------
 * The same items as the manifest, as C data for runtime/vkautotune_runtime.h. Text is appended to one growing
 * buffer and written atomically at the end. Formulas are the space's expressions lowered by vkat_expr_lower:
 * problem sizes stay variables, parameters (and the measuring device's limits, when it is present) become
 * constants. */

typedef struct text_buf {
    char *data;
    size_t len, cap;
    int failed;
} text_buf;

static void tb_printf(text_buf *b, const char *fmt, ...) VKAT_PRINTF(2, 3);
static void tb_printf(text_buf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->data ? b->data + b->len : NULL, b->data ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = b->cap ? b->cap : 65536;
        while (cap <= b->len + (size_t)n)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
}

/* A C string literal of s (NULL: the literal NULL). */
static void tb_cstr(text_buf *b, const char *s)
{
    if (!s) {
        tb_printf(b, "NULL");
        return;
    }
    tb_printf(b, "\"");
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            tb_printf(b, "\\%c", *c);
        else if (*c < 0x20 || *c >= 0x7f || *c == '?') /* '?' too: no trigraphs */
            tb_printf(b, "\\%03o", *c);
        else
            tb_printf(b, "%c", *c);
    }
    tb_printf(b, "\"");
}

/* Text for a comment: no "*" followed by "/" and no line breaks. */
static void tb_comment_text(text_buf *b, const char *s)
{
    for (const char *c = s; *c; c++)
        tb_printf(b, "%c", (*c == '/' && c > s && c[-1] == '*') || *c == '\n' || *c == '\r' ? ' ' : *c);
}

static double finite_or_zero(double x)
{
    return isfinite(x) ? x : 0.0;
}

/* The C identifier for a header's table: its file name without directories and ".h", every other character
 * than [A-Za-z0-9_] replaced by '_', '_' in front of a leading digit. */
static void table_ident(const char *header_name, char *out, size_t size)
{
    const char *base = strrchr(header_name, '/');
    base = base ? base + 1 : header_name;
    size_t n = strlen(base);
    if (n > 2 && strcmp(base + n - 2, ".h") == 0)
        n -= 2;
    size_t o = 0;
    if (n == 0 || (base[0] >= '0' && base[0] <= '9'))
        out[o++] = '_';
    for (size_t i = 0; i < n && o + 1 < size; i++) {
        char c = base[i];
        out[o++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) ? c : '_';
    }
    out[o] = 0;
}

/* Per-item lowering context: which symbol slots are runtime variables (problem sizes), constants (parameters,
 * and the device's limits when the device is present) or unavailable (limits of an absent device). */
typedef struct lower_ctx {
    const vkat_export_item *it;
    int *var_index;
    text_buf *ops;   /* the item's ops array, as C text */
    size_t op_count; /* ops written so far */
} lower_ctx;

static int *make_var_index(const vkat_export_item *it)
{
    const vkat_space *s = it->space;
    size_t n = vkat_symtab_count(s->symbols);
    int *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        const char *name = vkat_symtab_name(s->symbols, (int)i);
        v[i] = (!it->device && name && strncmp(name, "device.", 7) == 0) ? -2 : -1;
    }
    for (size_t i = 0; i < s->problem_count; i++)
        if (s->problem[i].slot >= 0 && (size_t)s->problem[i].slot < n)
            v[s->problem[i].slot] = (int)i;
    return v;
}

static const char *const rt_op_names[VKAT_RT_OPCODE_COUNT] = {
    "CONST", "VAR", "NEG", "NOT", "BNOT", "BOOL", "ADD", "SUB", "MUL", "DIV", "MOD", "CDIV", "MIN", "MAX",
    "SHL", "SHR", "BAND", "BOR", "BXOR", "LT", "LE", "GT", "GE", "EQ", "NE", "LAND", "LOR",
};

/* Appends the ops to the context's array text; *start and *count say where they are. */
static void put_ops(lower_ctx *c, const vkat_rt_op *ops, size_t count, size_t *start)
{
    *start = c->op_count;
    for (size_t i = 0; i < count; i++) {
        tb_printf(c->ops, "    {VKAT_RT_%s, %lld},\n", rt_op_names[ops[i].op], (long long)ops[i].arg);
        c->op_count++;
    }
}

/* Lowers `e` (NULL: the constant `dflt`) and writes a vkat_rt_formula initializer into `out` referring to the ops
 * array `ops_name`. Returns 1 when there is a formula, 0 when it cannot be expressed (a warning says why). */
static int formula(lower_ctx *c, text_buf *out, const char *ops_name, const vkat_expr *e, int64_t dflt,
                   const char *what)
{
    vkat_rt_op one = {VKAT_RT_CONST, dflt};
    vkat_rt_op *ops = &one;
    size_t count = 1, start;
    if (e) {
        vkat_error lerr = {0};
        if (vkat_expr_lower(e, c->it->env, c->var_index, &ops, &count, &lerr) != VKAT_OK) {
            char msg[1200];
            vkat_log(VKAT_LOG_WARN, "header: %s has no formula, so %s runs only its tuned problem: %s", what,
                     c->it->row->config, vkat_error_format(&lerr, msg, sizeof msg));
            tb_printf(out, "{NULL, 0, ");
            tb_cstr(out, vkat_expr_text(e));
            tb_printf(out, "}");
            return 0;
        }
    }
    put_ops(c, ops, count, &start);
    if (ops != &one)
        free(ops);
    tb_printf(out, "{%s + %zu, %zu, ", ops_name, start, count);
    if (e)
        tb_cstr(out, vkat_expr_text(e));
    else
        tb_printf(out, "\"%lld\"", (long long)dflt);
    tb_printf(out, "}");
    return 1;
}

/* Does the expression read any slot with var_index[slot] == want_kind (-2: unavailable) or >= 0 (want 0)? */
static int reads(const vkat_expr *e, const vkat_space *s, const int *var_index, int want)
{
    size_t n = vkat_symtab_count(s->symbols);
    for (size_t i = 0; i < n; i++)
        if ((want == 0 ? var_index[i] >= 0 : var_index[i] == want) && vkat_expr_uses(e, (int)i))
            return 1;
    return 0;
}


/* "{id, value, " of a spec table's entry: a 32-bit integer as written, a float or a bool constant's value as its
 * type holds it (export_spec.h), in hex. */
static void spec_entry(text_buf *pre, uint32_t id, const vkat_spec_decl *d, uint32_t value)
{
    if (d && (d->is_float || d->is_bool))
        tb_printf(pre, "{%u, 0x%08xu, ", id, vkat_export_spec_bits(d, value));
    else
        tb_printf(pre, "{%u, %uu, ", id, value);
}

/* A sequence's further modules (the first is the variant's own), each pass's spec constants and push block, and
 * the passes table `<id>_passes_<k>`. */
static void header_passes(text_buf *pre, const char *id, size_t k, const vkat_export_item *it)
{
    const vkat_sequence *q = it->sequence;
    for (size_t m = 1; m < q->module_count; m++) {
        tb_printf(pre, "static const uint32_t %s_spirv_%zu_m%zu[%zu] = {", id, k, m, q->modules[m].count);
        for (size_t i = 0; i < q->modules[m].count; i++)
            tb_printf(pre, "%s0x%08xu,", i % 8 ? " " : "\n    ", q->modules[m].words[i]);
        tb_printf(pre, "\n};\n");
    }
    for (size_t i = 0; i < q->step_count; i++) {
        const vkat_step *st = &q->steps[i];
        if (st->spec_count) {
            tb_printf(pre, "static const vkat_rt_spec_constant %s_pass_spec_%zu_%zu[] = {", id, k, i);
            vkat_spirv_info *si = malloc(sizeof *si);
            for (size_t j = 0; j < st->spec_count; j++) {
                spec_entry(pre, st->spec_id[j], si ? vkat_export_step_spec_decl(q, i, j, si) : NULL,
                           st->spec_value[j]);
                tb_printf(pre, "NULL}, ");
            }
            free(si);
            tb_printf(pre, "};\n");
        }
        if (st->remapped) {
            tb_printf(pre, "static const uint32_t %s_pass_binds_%zu_%zu[] = {", id, k, i);
            for (size_t b = 0; b < it->space->buffer_count; b++)
                tb_printf(pre, "%uu, ", b < VKAT_MAX_STEP_BINDINGS ? st->binding_buffer[b] : (uint32_t)b);
            tb_printf(pre, "};\n");
        }
        if (st->push_size) {
            tb_printf(pre, "static const uint32_t %s_pass_push_%zu_%zu[] = {", id, k, i);
            for (uint32_t j = 0; j < st->push_size / 4; j++) {
                uint32_t w;
                memcpy(&w, st->push + 4 * j, 4);
                tb_printf(pre, "0x%08xu, ", w);
            }
            tb_printf(pre, "};\n");
        }
    }
    tb_printf(pre, "static const vkat_rt_pass %s_passes_%zu[] = {\n", id, k);
    for (size_t i = 0; i < q->step_count; i++) {
        const vkat_step *st = &q->steps[i];
        uint32_t m = q->module_of[i];
        char hash[17], words[200];
        if (m)
            snprintf(words, sizeof words, "%s_spirv_%zu_m%u", id, k, m);
        else
            snprintf(words, sizeof words, "%s_spirv_%zu", id, k);
        tb_printf(pre, "    {");
        tb_cstr(pre, st->pass->name);
        tb_printf(pre, ", %u, %s, %zu, \"%s\", ", st->index, words, q->modules[m].count * sizeof(uint32_t),
                  spirv_hash_hex(&q->modules[m], hash));
        if (st->spec_count)
            tb_printf(pre, "%s_pass_spec_%zu_%zu, %zu, ", id, k, i, st->spec_count);
        else
            tb_printf(pre, "NULL, 0, ");
        tb_printf(pre, "{%u, %u, %u}, {%u, %u, %u}, ", q->workgroup_size[i][0], q->workgroup_size[i][1],
                  q->workgroup_size[i][2], st->groups[0], st->groups[1], st->groups[2]);
        if (st->push_size)
            tb_printf(pre, "%s_pass_push_%zu_%zu, %u, ", id, k, i, st->push_size);
        else
            tb_printf(pre, "NULL, 0, ");
        if (st->remapped)
            tb_printf(pre, "%s_pass_binds_%zu_%zu},\n", id, k, i);
        else
            tb_printf(pre, "NULL},\n");
    }
    tb_printf(pre, "};\n");
}

/* ---- One variant in the header ----------------------------------------------------------------------------
 * header_item writes one variant in parts: its conditions, group counts, bindings and push constants as C text
 * (each lowered by `formula`), then its arrays into `pre` and its vkat_rt_variant initializer into `var`. */

/* The item's text, built part by part before it is written out. */
typedef struct item_text {
    lower_ctx c;
    char ops_name[160];
    text_buf ops, conds, binds, push, groups, fields;
    size_t ncond, nspec;
    const vkat_device_key *dk; /* the device's identity: the present device's, else the row's */
    const vkat_spirv_info *si; /* the module's declarations: each spec value's type */
} item_text;

/* Conditions: constraints on problem sizes. Those that read a device limit were checked on the measuring device
 * and those without a problem size hold for this configuration; neither is needed at run time. */
static void header_conditions(item_text *t)
{
    lower_ctx *cx = &t->c;
    const vkat_export_item *it = cx->it;
    const vkat_space *s = it->space;
    const char *ops_name = t->ops_name;
    int pinned = it->sequence != NULL; /* a sequence is replayed as measured: its tuned problem only */
    for (size_t i = 0; !it->sequence && i < s->constraint_count; i++) {
        const vkat_expr *e = s->constraints[i].expr;
        if (!reads(e, s, cx->var_index, 0) || reads(e, s, cx->var_index, -2))
            continue;
        char what[300];
        snprintf(what, sizeof what, "constraint '%s'", s->constraints[i].name);
        text_buf one = {0};
        if (formula(cx, &one, ops_name, e, 0, what)) {
            tb_printf(&t->conds, "    %s,\n", one.data ? one.data : "");
            t->ncond++;
        } else {
            pinned = 1;
        }
        free(one.data);
    }
    /* Sizes compiled into the module: only their tuned values (H == 1000). */
    for (size_t i = 0; !pinned && i < s->problem_count && i < 64; i++) {
        if (!(it->compiled_problem >> i & 1))
            continue;
        const vkat_rt_op pin[3] = {{VKAT_RT_VAR, (int64_t)i}, {VKAT_RT_CONST, problem_value(it, i)}, {VKAT_RT_EQ, 0}};
        size_t start;
        put_ops(cx, pin, 3, &start);
        tb_printf(&t->conds, "    {%s + %zu, 3, \"%s is compiled in\"},\n", ops_name, start, s->problem[i].name);
        t->ncond++;
    }
    if (pinned) {
        /* A condition the runtime cannot check: allow only the tuned problem (M == 256 && N == 256 ...). */
        vkat_rt_op pin[3 * 64];
        size_t np = 0, start;
        for (size_t i = 0; i < s->problem_count && i < 64; i++) {
            pin[np++] = (vkat_rt_op){VKAT_RT_VAR, (int64_t)i};
            pin[np++] = (vkat_rt_op){VKAT_RT_CONST, problem_value(it, i)};
            pin[np++] = (vkat_rt_op){VKAT_RT_EQ, 0};
            if (i > 0)
                pin[np++] = (vkat_rt_op){VKAT_RT_LAND, 0};
        }
        if (np) {
            put_ops(cx, pin, np, &start);
            tb_printf(&t->conds, "    {%s + %zu, %zu, \"the tuned problem only\"},\n", ops_name, start, np);
            t->ncond++;
        }
    }

}

static void header_groups(item_text *t)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
        for (int i = 0; i < 3; i++) {
        char what[64];
        snprintf(what, sizeof what, "the group count %c", "xyz"[i]);
        if (i)
            tb_printf(&t->groups, ", ");
        if (it->sequence)
            tb_printf(&t->groups, "{NULL, 0, NULL}");
        else
            formula(&t->c, &t->groups, t->ops_name, s->groups[i], 1, what);
    }
}

static void header_bindings(item_text *t)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
    const vkat_launch *l = it->launch;
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        char what[300];
        snprintf(what, sizeof what, "the size of buffer '%s'", b->name);
        tb_printf(&t->binds, "    {%u, ", b->binding);
        tb_cstr(&t->binds, b->name);
        tb_printf(&t->binds, ", \"%s\", %zu, VKAT_RT_%s, ", vkat_elem_type_name(b->type), vkat_elem_type_size(b->type),
                  b->dir == VKAT_DIR_IN        ? "IN"
                  : b->dir == VKAT_DIR_OUT     ? "OUT"
                  : b->dir == VKAT_DIR_SCRATCH ? "SCRATCH"
                                               : "INOUT");
        formula(&t->c, &t->binds, t->ops_name, b->count, 0, what);
        tb_printf(&t->binds, ", %lluu", (unsigned long long)(l->buffer_counts ? l->buffer_counts[i] : 0));
        if (b->image) { /* uniform, set, image format, sampled, texel_buffer, VkFormat, extent: left out are 0 */
            tb_printf(&t->binds, ", 0, %uu, \"%s\", %d, 0, %uu, %uu, {", b->set, b->image->name, b->sampled,
                      b->image->vk_format, vkat_image_dims(b));
            for (int d = 0; d < 3; d++) {
                snprintf(what, sizeof what, "the %s of image '%s'", (const char *[]){"width", "height", "depth"}[d],
                         b->name);
                tb_printf(&t->binds, d ? ", " : "");
                formula(&t->c, &t->binds, t->ops_name, b->extent[d], 1, what);
            }
            const uint32_t *x = l->image_extents ? l->image_extents[i] : (const uint32_t[3]){1, 1, 1};
            tb_printf(&t->binds, "}, {%uu, %uu, %uu}", x[0], x[1], x[2]);
        } else if (b->texel) { /* uniform, set, format, sampled 0, texel_buffer 1, VkFormat */
            tb_printf(&t->binds, ", %d, %uu, \"%s\", 0, 1, %uu", b->uniform, b->set, b->texel->name,
                      b->texel->vk_format);
        }
        else if (b->set)
            tb_printf(&t->binds, ", %d, %uu", b->uniform, b->set);
        else if (b->uniform)
            tb_printf(&t->binds, ", 1");
        tb_printf(&t->binds, "},\n");
    }
}

/* 4-byte values (push constants, a buffer's fields) as vkat_rt_push_constant initializers into out: offset, name,
 * type, the formula (a float's bits when it is the same for every problem) and bits[i], the tuned value's. */
static void header_values(item_text *t, text_buf *out, const vkat_push_decl *v, size_t n, const uint32_t *bits,
                          const char *noun)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
    lower_ctx *cx = &t->c;
    const char *ops_name = t->ops_name;
    for (size_t i = 0; i < n; i++) {
        const vkat_push_decl *p = &v[i];
        tb_printf(out, "    {%u, ", p->offset);
        tb_cstr(out, p->name);
        tb_printf(out, ", \"%s\", ", vkat_elem_type_name(p->type));
        char what[300];
        snprintf(what, sizeof what, "%s '%s'", noun, p->name);
        if (p->type == VKAT_FLOAT32 || !p->value) {
            /* The runtime's formulas are integer: a float that is the same for every problem is its bits. */
            if (!p->value || !reads(p->value, s, cx->var_index, 0)) {
                vkat_rt_op bits_op = {VKAT_RT_CONST, (int64_t)bits[i]};
                size_t start;
                put_ops(cx, &bits_op, 1, &start);
                tb_printf(out, "{%s + %zu, 1, ", ops_name, start);
            } else {
                vkat_log(VKAT_LOG_WARN, "header: floating-point %s depends on the problem, so %s runs only its "
                         "tuned problem", what, it->row->config);
                tb_printf(out, "{NULL, 0, ");
            }
            tb_cstr(out, p->value ? vkat_expr_text(p->value) : NULL);
            tb_printf(out, "}");
        } else {
            formula(cx, out, ops_name, p->value, 0, what);
        }
        tb_printf(out, ", 0x%08xu},\n", bits[i]);
    }
}

static void header_push(item_text *t)
{
    const vkat_space *s = t->c.it->space;
    uint32_t bits[VKAT_COUNTOF(t->c.it->launch->push) / 4];
    for (size_t i = 0; i < s->push_count; i++)
        memcpy(&bits[i], t->c.it->launch->push + s->push[i].offset, 4);
    header_values(t, &t->push, s->push, s->push_count, bits, "push constant");
}

/* Each buffer's fields, one array a buffer (`ID_fields_K_B`, written after the ops they use), which the runtime
 * tuner writes over its fill. */
static vkat_result header_fields(item_text *t, vkat_error *err)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
    for (size_t b = 0; b < s->buffer_count; b++) {
        const vkat_buffer_decl *d = &s->buffers[b];
        if (!d->field_count)
            continue;
        uint32_t *words = malloc(d->field_count * sizeof *words);
        if (!words)
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the header");
        uint64_t bytes = it->launch->buffer_counts[b] * vkat_elem_type_size(d->type);
        vkat_result r = vkat_space_field_words(s, b, it->env, bytes, words, err);
        if (r == VKAT_OK) {
            tb_printf(&t->fields, "static const vkat_rt_push_constant %s_fields_%zu[] = {\n", t->ops_name, b);
            header_values(t, &t->fields, d->fields, d->field_count, words, "field");
            tb_printf(&t->fields, "};\n");
        }
        free(words);
        if (r)
            return r;
    }
    return VKAT_OK;
}

/* The variant's arrays: SPIR-V, problem, ops, conditions, spec constants, bindings, push constants, passes,
 * requirements. */
static void header_arrays(text_buf *pre, const char *id, size_t k, item_text *t)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
    const vkat_row *row = it->row;
    const vkat_device_key *dk = t->dk;
    tb_printf(pre, "/* variant %zu: ", k);
    tb_comment_text(pre, row->kernel);
    tb_printf(pre, " on ");
    tb_comment_text(pre, dk->name);
    tb_printf(pre, " (driver ");
    tb_comment_text(pre, dk->driver_version_string);
    tb_printf(pre, "), problem ");
    tb_comment_text(pre, row->problem);
    tb_printf(pre, ", %s, median %.4g ms */\n", row->config, finite_or_zero(row->median_s * 1e3));
    tb_printf(pre, "static const uint32_t %s_spirv_%zu[%zu] = {", id, k, it->spirv->count);
    for (size_t i = 0; i < it->spirv->count; i++)
        tb_printf(pre, "%s0x%08xu,", i % 8 ? " " : "\n    ", it->spirv->words[i]);
    tb_printf(pre, "\n};\n");
    if (s->problem_count) {
        tb_printf(pre, "static const char *const %s_problem_names_%zu[] = {", id, k);
        for (size_t i = 0; i < s->problem_count; i++) {
            tb_printf(pre, i ? ", " : "");
            tb_cstr(pre, s->problem[i].name);
        }
        tb_printf(pre, "};\nstatic const int64_t %s_problem_%zu[] = {", id, k);
        for (size_t i = 0; i < s->problem_count; i++)
            tb_printf(pre, "%s%lld", i ? ", " : "", (long long)problem_value(it, i));
        tb_printf(pre, "};\n");
    }
    if (t->c.op_count)
        tb_printf(pre, "static const vkat_rt_op %s[] = {\n%s};\n", t->ops_name, t->ops.data);
    if (t->ncond)
        tb_printf(pre, "static const vkat_rt_formula %s_conditions_%zu[] = {\n%s};\n", id, k, t->conds.data);
    for (size_t i = 0; i < s->param_count; i++)
        t->nspec += s->params[i].kind == VKAT_PARAM_SPEC;
    for (size_t i = 0; i < s->problem_count; i++)
        t->nspec += s->problem[i].binding == VKAT_SIZE_SPEC;
    if (t->nspec) {
        tb_printf(pre, "static const vkat_rt_spec_constant %s_spec_%zu[] = {\n", id, k);
        for (size_t i = 0; i < s->problem_count; i++) {
            if (s->problem[i].binding != VKAT_SIZE_SPEC)
                continue;
            const vkat_spec_decl *d = vkat_spec_decl_find(t->si, s->problem[i].spec_id);
            tb_printf(pre, "    ");
            spec_entry(pre, s->problem[i].spec_id, d, (uint32_t)problem_value(it, i));
            tb_cstr(pre, s->problem[i].name);
            tb_printf(pre, ", %zu%s},\n", i + 1,
                      d && d->is_float ? ", VKAT_RT_SPEC_FLOAT32" : d && d->is_bool ? ", VKAT_RT_SPEC_BOOL" : "");
        }
        for (size_t i = 0; i < s->param_count; i++) {
            const vkat_param *p = &s->params[i];
            if (p->kind != VKAT_PARAM_SPEC)
                continue;
            tb_printf(pre, "    ");
            spec_entry(pre, p->spec_id, vkat_spec_decl_find(t->si, p->spec_id), (uint32_t)p->values[it->choice[i]]);
            tb_cstr(pre, p->name);
            tb_printf(pre, "},\n");
        }
        tb_printf(pre, "};\n");
    }
    if (s->buffer_count)
        tb_printf(pre, "static const vkat_rt_binding %s_bindings_%zu[] = {\n%s};\n", id, k, t->binds.data);
    if (s->push_count)
        tb_printf(pre, "static const vkat_rt_push_constant %s_push_%zu[] = {\n%s};\n", id, k, t->push.data);
    if (it->sequence)
        header_passes(pre, id, k, it);
    tb_printf(pre, "static const char *const %s_extensions_%zu[] = {", id, k);
    for (size_t i = 0; i < s->extension_count; i++) {
        tb_cstr(pre, s->extensions[i]);
        tb_printf(pre, ", ");
    }
    tb_printf(pre, "NULL};\nstatic const char *const %s_features_%zu[] = {", id, k);
    const char *features[2 * VKAT_FEATURE_COUNT]; /* each known name, in the space and from the SPIR-V */
    size_t feature_count = required_features(s, t->si, features, VKAT_COUNTOF(features));
    for (size_t i = 0; i < feature_count; i++) {
        tb_cstr(pre, features[i]);
        tb_printf(pre, ", ");
    }
    tb_printf(pre, "NULL};\n\n");
}

/* The variant's vkat_rt_variant initializer. */
static void header_variant(text_buf *var, const char *id, size_t k, uint32_t flags, const item_text *t)
{
    const vkat_export_item *it = t->c.it;
    const vkat_space *s = it->space;
    const vkat_row *row = it->row;
    const vkat_launch *l = it->launch;
    const vkat_device_key *dk = t->dk;
    char hash[17];
    char pattern[256];
    snprintf(pattern, sizeof pattern, "%s", dk->name);
    for (char *p = pattern; *p; p++)
        if (*p == '*') /* the name is a glob pattern; a literal '*' matches as any one character */
            *p = '?';
    tb_printf(var, "    {\n        .kernel = ");
    tb_cstr(var, row->kernel);
    tb_printf(var, ",\n        .vendor_id = 0x%x, .device_id = 0x%x,\n", dk->vendor_id, dk->device_id);
    tb_printf(var, "        .driver_version_min = 0x%xu, .driver_version_max = 0x%xu,\n", dk->driver_version,
              dk->driver_version);
    tb_printf(var, "        .device_name = ");
    tb_cstr(var, pattern);
    tb_printf(var, ",\n        .driver_version_string = ");
    tb_cstr(var, dk->driver_version_string);
    tb_printf(var, ",\n        .device_type = ");
    tb_cstr(var, it->device ? it->device->device_type : "unknown");
    tb_printf(var, ",\n        .flags = %s%s%s%s,\n", flags ? "" : "0",
              flags & VKAT_RT_VENDOR_DEFAULT ? "VKAT_RT_VENDOR_DEFAULT" : "",
              flags & VKAT_RT_GENERIC_DEFAULT ? (flags & VKAT_RT_VENDOR_DEFAULT ? " | VKAT_RT_GENERIC_DEFAULT"
                                                                               : "VKAT_RT_GENERIC_DEFAULT") : "",
              flags & VKAT_RT_CANDIDATE_ONLY ? (flags & ~VKAT_RT_CANDIDATE_ONLY ? " | VKAT_RT_CANDIDATE_ONLY"
                                                                              : "VKAT_RT_CANDIDATE_ONLY") : "");
    if (s->problem_count)
        tb_printf(var, "        .problem_count = %zu, .problem_names = %s_problem_names_%zu, .problem = %s_problem_%zu,\n",
                  s->problem_count, id, k, id, k);
    if (t->ncond)
        tb_printf(var, "        .conditions = %s_conditions_%zu, .condition_count = %zu,\n", id, k, t->ncond);
    tb_printf(var, "        .spirv = %s_spirv_%zu, .spirv_size_bytes = %zu, .spirv_hash = \"%s\",\n", id, k,
              it->spirv->count * sizeof(uint32_t), spirv_hash_hex(it->spirv, hash));
    tb_printf(var, "        .entry_point = ");
    tb_cstr(var, s->entry ? s->entry : "main");
    tb_printf(var, ",\n");
    if (t->nspec)
        tb_printf(var, "        .spec_constants = %s_spec_%zu, .spec_constant_count = %zu,\n", id, k, t->nspec);
    const uint32_t *ls = it->sequence ? it->sequence->workgroup_size[0] : l->local_size;
    const uint32_t *tg = it->sequence ? it->sequence->steps[0].groups : l->groups;
    tb_printf(var, "        .local_size = {%u, %u, %u}, .shared_bytes = %u,\n", ls[0], ls[1], ls[2], it->shared_bytes);
    tb_printf(var, "        .groups = {%s},\n", t->groups.data ? t->groups.data : "");
    tb_printf(var, "        .tuned_groups = {%u, %u, %u},\n", tg[0], tg[1], tg[2]);
    if (s->buffer_count)
        tb_printf(var, "        .bindings = %s_bindings_%zu, .binding_count = %zu,\n", id, k, s->buffer_count);
    if (s->push_count)
        tb_printf(var, "        .push_constants = %s_push_%zu, .push_constant_count = %zu,\n", id, k, s->push_count);
    tb_printf(var, "        .extensions = %s_extensions_%zu, .features = %s_features_%zu,\n", id, k, id, k);
    tb_printf(var, "        .config = ");
    tb_cstr(var, row->config);
    tb_printf(var, ",\n        .median_ms = %.17g, .min_ms = %.17g, .mad_ms = %.17g, .samples = %u, .batch = %u,\n",
              finite_or_zero(row->median_s * 1e3), finite_or_zero(row->min_s * 1e3),
              finite_or_zero(row->mad_s * 1e3), row->samples, row->batch ? row->batch : 1);
    if (it->sequence)
        tb_printf(var, "        .passes = %s_passes_%zu, .pass_count = %zu,\n", id, k, it->sequence->step_count);
    tb_printf(var, "    },\n");
}

static vkat_result header_item(text_buf *pre, text_buf *var, const char *id, size_t k, const vkat_export_item *it,
                               uint32_t flags, vkat_error *err)
{
    item_text t = {0};
    vkat_device_key key;
    t.dk = &it->row->device;
    if (it->device) {
        vkat_device_key_from_info(it->device, &key);
        t.dk = &key;
    }
    t.c = (lower_ctx){it, make_var_index(it), &t.ops, 0};
    snprintf(t.ops_name, sizeof t.ops_name, "%s_ops_%zu", id, k);
    vkat_spirv_info *si = t.c.var_index ? malloc(sizeof *si) : NULL;
    if (!si) {
        free(t.c.var_index);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the header");
    }
    vkat_result sr = vkat_export_spec_info(it, si, err);
    if (sr) {
        free(si);
        free(t.c.var_index);
        return sr;
    }
    t.si = si;
    header_conditions(&t);
    header_groups(&t);
    header_bindings(&t);
    header_push(&t);
    vkat_result r = header_fields(&t, err);
    header_arrays(pre, id, k, &t);
    if (t.fields.data)
        tb_printf(pre, "%s", t.fields.data);
    header_variant(var, id, k, flags, &t);
    if (r == VKAT_OK &&
        (t.ops.failed || t.conds.failed || t.binds.failed || t.push.failed || t.groups.failed || t.fields.failed))
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the header");
    free(t.ops.data);
    free(t.conds.data);
    free(t.binds.data);
    free(t.push.data);
    free(t.groups.data);
    free(t.fields.data);
    free(t.c.var_index);
    free(si);
    return r;
}

/* What the runtime tuner needs beside the variant: the space's tolerance and each buffer's fill (its `init`). The
 * fills array goes into `pre`, the vkat_rt_check initializer into `chk`. */
static void header_check(text_buf *pre, text_buf *chk, const char *id, size_t k, const vkat_export_item *it)
{
    const vkat_space *s = it->space;
    static const char *const kinds[] = {"VKAT_RT_FILL_ZERO", "VKAT_RT_FILL_RANDOM", "VKAT_RT_FILL_CONST",
                                        "VKAT_RT_FILL_IOTA"};
    if (s->buffer_count) {
        tb_printf(pre, "static const vkat_rt_fill %s_fills_%zu[] = {", id, k);
        for (size_t i = 0; i < s->buffer_count; i++) {
            const vkat_buffer_decl *b = &s->buffers[i];
            tb_printf(pre, "%s{%s, %.17g, %.17g", i ? ", " : "", kinds[(unsigned)b->init < 4 ? b->init : 0],
                      finite_or_zero(b->init_a), finite_or_zero(b->init_b));
            if (b->field_count) /* header_fields' array of this variant (its ops' name, then _fields_B) */
                tb_printf(pre, ", %s_ops_%zu_fields_%zu, %zu", id, k, i, b->field_count);
            tb_printf(pre, "}");
        }
        tb_printf(pre, "};\n");
    }
    tb_printf(chk, "    {%.17g, %.17g, ", finite_or_zero(s->rel_l2_tolerance),
              isfinite(s->max_abs_tolerance) ? s->max_abs_tolerance : -1.0);
    if (s->buffer_count)
        tb_printf(chk, "%s_fills_%zu},\n", id, k);
    else
        tb_printf(chk, "NULL},\n");
}

/* The portable choice for unknown devices: no extension or feature required, then the fewest invocations. */
static uint64_t portability_cost(const vkat_export_item *it)
{
    const vkat_launch *l = it->launch;
    uint64_t inv = (uint64_t)l->local_size[0] * l->local_size[1] * l->local_size[2];
    return (it->space->extension_count + it->space->feature_count ? (uint64_t)1 << 40 : 0) + inv;
}

static const char *item_kernel(const vkat_export_item *it)
{
    return it->space->name ? it->space->name : it->row->kernel;
}

vkat_result vkat_export_write_header(const char *dir, const char *header_name, const vkat_export_item *items,
                                     size_t count, vkat_error *err)
{
    char id[256];
    table_ident(header_name, id, sizeof id);
    if (strchr(header_name, '/') || !header_name[0])
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "--header '%s': expected a file name (it is written into %s)",
                         header_name, dir);
    text_buf pre = {0}, var = {0}, out = {0}, chk = {0};
    vkat_result r = VKAT_OK;
    for (size_t i = 0; i < count && !r; i++) {
        const vkat_export_item *it = &items[i];
        uint32_t flags = it->candidate_only ? VKAT_RT_CANDIDATE_ONLY : 0;
        /* The vendor default is the kernel's first variant of that vendor; the generic default, the most
         * portable of the kernel's variants (the first of equals). */
        int first_of_vendor = 1, most_portable = 1;
        for (size_t j = 0; j < count; j++) {
            const vkat_export_item *o = &items[j];
            if (strcmp(item_kernel(o), item_kernel(it)) != 0 || o->candidate_only)
                continue;
            if (j < i && o->row->device.vendor_id == it->row->device.vendor_id)
                first_of_vendor = 0;
            uint64_t a = portability_cost(o), b = portability_cost(it);
            if (a < b || (a == b && j < i))
                most_portable = 0;
        }
        if (!it->candidate_only) { /* selection never picks a candidate, so it is no default */
            flags |= first_of_vendor ? VKAT_RT_VENDOR_DEFAULT : 0;
            flags |= most_portable ? VKAT_RT_GENERIC_DEFAULT : 0;
        }
        r = header_item(&pre, &var, id, i, it, flags, err);
        header_check(&pre, &chk, id, i, it);
    }
    if (r)
        goto done;
    char guard[300];
    snprintf(guard, sizeof guard, "VKAT_GENERATED_%s_H", id);
    for (char *g = guard; *g; g++)
        if (*g >= 'a' && *g <= 'z')
            *g = (char)(*g - 'a' + 'A');
    tb_printf(&out,
              "/* %s — generated by vkautotune " VKAT_VERSION_STRING " (vkautotune export --header); do not edit.\n"
              " * %zu tuned variant(s) and their selection table for the vkautotune runtime library\n"
              " * (vkautotune_runtime.h; docs/runtime.md): vkat_rt_select(&%s, kernel, properties, ...).\n"
              " * Static data only: include it in the one C file that selects the kernel. */\n"
              "#ifndef %s\n#define %s\n\n#include \"vkautotune_runtime.h\"\n\n"
              "#if VKAT_RT_TABLE_VERSION != %d\n#error \"%s was generated for table version %d of "
              "vkautotune_runtime.h\"\n#endif\n\n",
              header_name, count, id, guard, guard, VKAT_RT_TABLE_VERSION, header_name, VKAT_RT_TABLE_VERSION);
    tb_printf(&out, "%s", pre.data ? pre.data : "");
    if (count)
        tb_printf(&out, "static const vkat_rt_variant %s_variants[%zu] = {\n%s};\n\n", id, count, var.data);
    if (count)
        tb_printf(&out, "static const vkat_rt_check %s_checks[%zu] = {\n%s};\n\n", id, count, chk.data);
    char variants[300], checks[300];
    snprintf(variants, sizeof variants, "%s_variants", id);
    snprintf(checks, sizeof checks, "%s_checks", id);
    tb_printf(&out, "static const vkat_rt_table %s = {VKAT_RT_TABLE_VERSION, \"vkautotune " VKAT_VERSION_STRING
                    "\", %s, %zu, %s};\n\n#endif\n",
              id, count ? variants : "NULL", count, count ? checks : "NULL");
    if (pre.failed || var.failed || out.failed || chk.failed) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory writing the header");
        goto done;
    }
    if ((r = vkat_make_dirs(dir, err)) || (r = write_atomic(dir, header_name, out.data, out.len, err)))
        goto done;
    sync_dir(dir);
    vkat_log(VKAT_LOG_INFO, "wrote %s/%s (%zu variant(s), table '%s')", dir, header_name, count, id);
done:
    free(pre.data);
    free(var.data);
    free(out.data);
    free(chk.data);
    return r;
}
