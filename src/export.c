/* export.c — writes the winners for runtimes that do not link vkautotune: one .spv per (kernel, device, problem)
 * and a manifest.json that says how to run each (docs/manifest.md).
 *
 * Every file is written to a temporary name, synced and renamed over the old one, and the .spv files go before
 * the manifest, so a crash leaves either the old manifest or a complete new one pointing at complete files.
 * This file must not measure, compile or evaluate anything: the caller hands it the evaluated launch. JSON is
 * built with json-c, never by hand. */
#define _POSIX_C_SOURCE 200809L
#include "export.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#define MANIFEST_NAME "manifest.json"
#define MANIFEST_VERSION 1

/* ---- Files -------------------------------------------------------------------------------------------------- */

/* mkdir -p: creates every missing component; an existing directory is fine, an existing file is not. */
static vkat_result make_dirs(const char *dir, vkat_error *err)
{
    char *p = vkat_strdup(dir);
    if (!p)
        return vkat_fail(err, VKAT_ERR_NOMEM, dir, 0, "out of memory");
    vkat_result r = VKAT_OK;
    size_t n = strlen(p);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != 0)
            continue;
        char saved = p[i];
        p[i] = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            r = vkat_fail(err, VKAT_ERR_IO, p, 0, "cannot create directory: %s", strerror(errno));
            break;
        }
        p[i] = saved;
    }
    struct stat sb;
    if (!r && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        r = vkat_fail(err, VKAT_ERR_IO, dir, 0, "not a directory");
    free(p);
    return r;
}

/* Writes `size` bytes to dir/name through dir/.name.tmp + fsync + rename, so readers (and a crash) see either
 * the old file or the whole new one. */
static vkat_result write_atomic(const char *dir, const char *name, const void *data, size_t size, vkat_error *err)
{
    char path[4096], tmp[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path ||
        (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name) >= sizeof tmp)
        return vkat_fail(err, VKAT_ERR_IO, dir, 0, "path too long");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return vkat_fail(err, VKAT_ERR_IO, tmp, 0, "cannot create: %s", strerror(errno));
    const char *p = data;
    size_t left = size;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            unlink(tmp);
            return vkat_fail(err, VKAT_ERR_IO, tmp, 0, "cannot write: %s", strerror(e));
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int e = errno;
        unlink(tmp);
        return vkat_fail(err, VKAT_ERR_IO, tmp, 0, "cannot write: %s", strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot replace: %s", strerror(e));
    }
    return VKAT_OK;
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

static void spv_name(const vkat_export_item *it, char *buf, size_t size)
{
    buf[0] = 0;
    append_slug(buf, size, it->space->name ? it->space->name : it->row->kernel);
    append_slug(buf, size, it->device->name);
    for (size_t i = 0; i < it->space->problem_count; i++) {
        char part[320];
        snprintf(part, sizeof part, "%s=%lld", it->space->problem[i].name, (long long)problem_value(it, i));
        append_slug(buf, size, part);
    }
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, ".spv");
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
    }
    return "inout";
}

static json_object *device_json(const vkat_device_info *d)
{
    vkat_device_key key;
    vkat_device_key_from_info(d, &key);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "name", str(key.name));
    json_object_object_add(o, "vendor", str(key.vendor));
    json_object_object_add(o, "vendor_id", json_object_new_int64(key.vendor_id));
    json_object_object_add(o, "device_id", json_object_new_int64(key.device_id));
    json_object_object_add(o, "driver_version", str(key.driver_version_string));
    json_object_object_add(o, "driver_version_raw", json_object_new_int64(key.driver_version));
    json_object_object_add(o, "driver_uuid", str(key.driver_uuid));
    json_object_object_add(o, "pipeline_cache_uuid", str(key.pipeline_cache_uuid));
    json_object_object_add(o, "device_type", str(d->device_type));
    return o;
}

/* ---- One manifest entry ------------------------------------------------------------------------------------- */

static vkat_result item_json(const vkat_export_item *it, const char *file, json_object **out, vkat_error *err)
{
    const vkat_space *s = it->space;
    const vkat_launch *l = it->launch;
    const vkat_row *row = it->row;
    *out = NULL;

    for (size_t i = 0; i < s->param_count; i++)
        if (it->choice[i] >= s->params[i].value_count)
            return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: choice %u out of range for parameter '%s'",
                             it->choice[i], s->params[i].name);
    if (s->push_count * 4 > l->push_size)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "export: %zu push constants but %u bytes packed",
                         s->push_count, l->push_size);

    json_object *k = json_object_new_object();
    if (!k)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory building the manifest");
    size_t spv_bytes = it->spirv->count * sizeof(uint32_t);
    char hash[17];
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)XXH3_64bits(it->spirv->words, spv_bytes));

    json_object_object_add(k, "kernel", str(s->name ? s->name : row->kernel));
    json_object_object_add(k, "entry_point", str(s->entry ? s->entry : "main"));
    json_object_object_add(k, "spirv", str(file));
    json_object_object_add(k, "spirv_hash", str(hash));
    json_object_object_add(k, "spirv_size_bytes", json_object_new_int64((int64_t)spv_bytes));
    json_object_object_add(k, "device", device_json(it->device));

    json_object *problem = json_object_new_object();
    for (size_t i = 0; i < s->problem_count; i++)
        json_object_object_add(problem, s->problem[i].name, json_object_new_int64(problem_value(it, i)));
    json_object_object_add(k, "problem", problem);
    json_object_object_add(k, "config", str(row->config));

    json_object *params = json_object_new_object();
    json_object *spec = json_object_new_array();
    for (size_t i = 0; i < s->param_count; i++) {
        const vkat_param *p = &s->params[i];
        int64_t v = p->values[it->choice[i]];
        json_object *o = json_object_new_object();
        json_object_object_add(o, "value", json_object_new_int64(v));
        json_object_object_add(o, "kind", str(p->kind == VKAT_PARAM_SPEC ? "spec" : "define"));
        json_object_object_add(params, p->name, o);
        if (p->kind == VKAT_PARAM_SPEC) {
            json_object *c = json_object_new_object();
            json_object_object_add(c, "id", json_object_new_int64(p->spec_id));
            json_object_object_add(c, "name", str(p->name));
            json_object_object_add(c, "value", json_object_new_int64(v));
            json_object_array_add(spec, c);
        }
    }
    json_object_object_add(k, "parameters", params);
    json_object_object_add(k, "specialization_constants", spec);

    json_object_object_add(k, "local_size", u32_triple(l->local_size));
    json_object_object_add(k, "workgroup_count", u32_triple(l->groups));
    json_object *dispatch = json_object_new_object();
    json_object_object_add(dispatch, "workgroup_count", formulas(s->groups, l->groups));
    json_object_object_add(dispatch, "local_size", formulas(s->local_size, l->local_size));
    json_object_object_add(k, "dispatch", dispatch);

    json_object *bindings = json_object_new_array();
    for (size_t i = 0; i < s->buffer_count; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        uint64_t elements = l->buffer_counts ? l->buffer_counts[i] : 0;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "binding", json_object_new_int64(b->binding));
        json_object_object_add(o, "set", json_object_new_int64(0));
        json_object_object_add(o, "name", str(b->name));
        json_object_object_add(o, "type", str(vkat_elem_type_name(b->type)));
        json_object_object_add(o, "elements", json_object_new_uint64(elements));
        json_object_object_add(o, "bytes", json_object_new_uint64(elements * vkat_elem_type_size(b->type)));
        json_object_object_add(o, "direction", str(direction_name(b->dir)));
        json_object_array_add(bindings, o);
    }
    json_object_object_add(k, "bindings", bindings);

    /* Values come from the packed block the benchmark pushed, so the manifest cannot disagree with it. */
    json_object *push = json_object_new_array();
    for (size_t i = 0; i < s->push_count; i++) {
        const vkat_push_decl *p = &s->push[i];
        uint32_t bits;
        memcpy(&bits, l->push + 4 * i, 4);
        json_object *value;
        if (p->type == VKAT_FLOAT32) {
            float f;
            memcpy(&f, &bits, 4);
            value = num(f);
        } else if (p->type == VKAT_INT32) {
            value = json_object_new_int64((int32_t)bits);
        } else {
            value = json_object_new_int64(bits);
        }
        json_object *o = json_object_new_object();
        json_object_object_add(o, "offset", json_object_new_int64((int64_t)(4 * i)));
        json_object_object_add(o, "size", json_object_new_int64(4));
        json_object_object_add(o, "name", str(p->name));
        json_object_object_add(o, "type", str(vkat_elem_type_name(p->type)));
        json_object_object_add(o, "value", value);
        json_object_array_add(push, o);
    }
    json_object_object_add(k, "push_constants", push);

    json_object *req = json_object_new_object();
    json_object_object_add(req, "extensions", string_array(s->extensions, s->extension_count));
    json_object_object_add(req, "features", string_array(s->features, s->feature_count));
    json_object_object_add(k, "requires", req);

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

    json_object_object_add(k, "template_hash", str(row->template_hash));
    json_object_object_add(k, "space_hash", str(row->space_hash));
    *out = k;
    return VKAT_OK;
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
    json_object_object_add(root, "version", json_object_new_int(MANIFEST_VERSION));
    json_object_object_add(root, "generator", str("vkautotune " VKAT_VERSION_STRING));
    json_object_object_add(root, "kernels", kernels);

    /* Check everything before touching the directory, so a bad item leaves no partial export behind. */
    for (size_t i = 0; i < count; i++) {
        const vkat_export_item *it = &items[i];
        if (!it->space || !it->device || !it->row || !it->spirv || !it->launch ||
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

    if ((r = make_dirs(dir, err)))
        goto done;
    for (size_t i = 0; i < count; i++) {
        const vkat_spirv *m = items[i].spirv;
        if ((r = write_atomic(dir, names[i], m->words, m->count * sizeof(uint32_t), err)))
            goto done;
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
