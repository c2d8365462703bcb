/* export_db.c — from the results database to exported kernels: picks the rows (the best of each series, and the
 * candidates for runtime tuning), turns each into an export item and hands them to export.c's writers.
 *
 * It writes what was measured: each row's module comes from the store (measured_spirv.h), so the .spv bytes and
 * the manifest's hash are those the row was timed with. Nothing is compiled here, with one exception said where
 * it is: a row measured before the store kept modules (schema 4 and older) is compiled again and exported only
 * when that gives its measured hash. Devices are identified by their rows, so a device tuned on another machine
 * (an H200 in CI's database) exports like a local one. */
#include "build.h"
#include "candidates.h"
#include "compiled_problem.h"
#include "device_key.h"
#include "export.h"
#include "measured_spirv.h"
#include "sequence.h"
#include "tune.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Only to compile a row measured before modules were stored, for a device that is not here. */
#define EXPORT_ABSENT_API_VERSION ((1u << 22) | (3u << 12)) /* VK_MAKE_API_VERSION(0, 1, 3, 0) */

typedef struct export_slot {
    vkat_row row;
    vkat_space *space;              /* its problem is set to the row's while the slot is built */
    const vkat_device_info *device; /* NULL when absent */
    vkat_device_info absent;        /* stands in for compiling an older row when absent */
    vkat_spirv spirv;
    vkat_launch launch;
    vkat_value *env;
    uint32_t *choice;
    uint32_t shared_bytes;
    uint64_t compiled_problem; /* see vkat_export_item */
    int candidate_only;        /* see vkat_export_item */
    vkat_sequence sequence;    /* a sequence of dispatches; step_count 0: one dispatch (spirv) */
} export_slot;

/* Does any dispatch, buffer-size, push-constant or pass expression read a device.* name? */
static int launch_reads_device(const vkat_space *s)
{
    size_t n = vkat_symtab_count(s->symbols);
    for (size_t slot = 0; slot < n; slot++) {
        const char *name = vkat_symtab_name(s->symbols, (int)slot);
        if (!name || strncmp(name, "device.", 7) != 0)
            continue;
        for (int i = 0; i < 3; i++)
            if ((s->groups[i] && vkat_expr_uses(s->groups[i], (int)slot)) ||
                (s->local_size[i] && vkat_expr_uses(s->local_size[i], (int)slot)))
                return 1;
        for (size_t i = 0; i < s->buffer_count; i++)
            if (vkat_expr_uses(s->buffers[i].count, (int)slot))
                return 1;
        for (size_t i = 0; i < s->push_count; i++)
            if (s->push[i].value && vkat_expr_uses(s->push[i].value, (int)slot))
                return 1;
        if (vkat_space_passes_use(s, (int)slot))
            return 1;
    }
    return 0;
}

/* The --problem filter as values per problem variable, INT64_MIN where it says nothing. */
static vkat_result problem_filter(vkat_space *s, const char *text, int64_t *want, vkat_error *err)
{
    for (size_t i = 0; i < s->problem_count; i++)
        s->problem[i].value = INT64_MIN;
    vkat_result r = text ? vkat_space_set_problem(s, text, err) : VKAT_OK;
    for (size_t i = 0; i < s->problem_count; i++)
        want[i] = s->problem[i].value;
    return r;
}

/* ---- The measured module ------------------------------------------------------------------------------------ */

/* A row measured before the store kept modules: compiled again through the one build path, and exported only when
 * that gives the hash it was measured with (same words, whatever compiler produced them then). */
static vkat_result compile_older_row(export_slot *x, vkat_error *err)
{
    const vkat_device_info *dev = x->device ? x->device : &x->absent;
    vkat_result r;
    uint64_t hash;
    if (x->sequence.step_count || vkat_space_has_sequence(x->space, 0)) {
        vkat_sequence_free(&x->sequence);
        r = vkat_sequence_compile(x->space, dev, NULL, x->env, 0, &x->sequence, err);
        hash = x->sequence.hash;
    } else {
        vkat_launch launch = {0};
        r = vkat_tune_build(x->space, dev, x->choice, x->env, &launch, &x->spirv, err);
        vkat_launch_free(&launch);
        hash = r == VKAT_OK ? vkat_spirv_hash(&x->spirv) : 0;
    }
    if (r != VKAT_OK)
        return r;
    char h[17];
    vkat_hash_hex(hash, h);
    if (strcmp(h, x->row.spirv_hash) != 0)
        return vkat_fail(err, VKAT_ERR_DB, NULL, 0,
                         "'%s' %s on %s (%s) was measured before vkautotune kept the measured SPIR-V in the database, "
                         "and compiling it again gives SPIR-V %s, not %s as measured%s: export would not write "
                         "what was timed; tune it again into a new database (--db NEW.db) and export from that",
                         x->row.kernel, x->row.config, x->row.device.name, x->row.problem, h,
                         x->row.spirv_hash[0] ? x->row.spirv_hash : "(no hash recorded)",
                         x->device ? "" : " (the device is not here: compiled for Vulkan 1.3)");
    vkat_log(VKAT_LOG_INFO,
             "export: %s on %s (%s) was measured before modules were stored; compiled again, same SPIR-V (%s)",
             x->row.config, x->row.device.name, x->row.problem, h);
    return VKAT_OK;
}

/* The slot's module(s): those stored when the row was measured, else (an older row) compile_older_row. */
static vkat_result measured_module(export_slot *x, vkat_store *store, vkat_error *err)
{
    int found = vkat_space_has_sequence(x->space, 0)
                    ? vkat_measured_get_sequence(store, x->row.spirv_hash, x->space, x->env, &x->sequence, err)
                    : vkat_measured_get_module(store, x->row.spirv_hash, &x->spirv, err);
    if (found < 0)
        return err && err->code ? err->code : VKAT_ERR_DB;
    return found ? VKAT_OK : compile_older_row(x, err);
}

/* Workgroup memory the module(s) declare, for the header's limit check. */
static vkat_result shared_bytes(export_slot *x, vkat_error *err)
{
    uint64_t shared = 0;
    size_t modules = x->sequence.step_count ? x->sequence.step_count : 1;
    for (size_t i = 0; i < modules; i++) {
        vkat_spec_value spec[64];
        size_t n = 0;
        const vkat_spirv *m = &x->spirv;
        if (x->sequence.step_count) {
            n = vkat_sequence_spec(&x->sequence, i, spec);
            m = &x->sequence.modules[x->sequence.module_of[i]];
        } else {
            n = vkat_build_spec_values(x->space, x->env, 0, spec, VKAT_COUNTOF(spec));
        }
        vkat_spirv_info si;
        vkat_result r = vkat_spirv_reflect(m, spec, n, &si, err);
        if (r != VKAT_OK)
            return r;
        shared = si.shared_bytes > shared ? si.shared_bytes : shared;
    }
    x->shared_bytes = shared > UINT32_MAX ? UINT32_MAX : (uint32_t)shared;
    return VKAT_OK;
}

/* Everything an export item needs for the slot's row: its configuration and environment, the evaluated launch,
 * the measured module(s) and their shared memory. (The sizes compiled in are the space's: set by the caller.) */
static vkat_result export_build(export_slot *x, vkat_store *store, vkat_error *err)
{
    vkat_space *space = x->space;
    vkat_result r = vkat_space_set_problem(space, x->row.problem, err);
    if (r)
        return r;
    x->env = vkat_space_env_create(space, x->device);
    x->choice = calloc(space->param_count ? space->param_count : 1, sizeof *x->choice);
    if (!x->env || !x->choice)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if ((r = vkat_space_parse_config(space, x->row.config, 0, x->choice, err)))
        return r;
    vkat_space_env_apply(space, x->choice, x->env);
    if ((r = vkat_space_launch(space, x->env, 0, &x->launch, err)) || (r = measured_module(x, store, err)))
        return r;
    return shared_bytes(x, err);
}

/* ---- Slots and writing -------------------------------------------------------------------------------------- */

/* The last step of both exports: the manifest (and the C header) for built slots. */
static vkat_result write_slots(const export_slot *slots, size_t n, const char *dir, const char *header,
                               vkat_error *err)
{
    vkat_export_item *items = calloc(n ? n : 1, sizeof *items);
    if (!items)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const vkat_sequence *q = slots[i].sequence.step_count ? &slots[i].sequence : NULL;
        items[i] = (vkat_export_item){slots[i].space,
                                      slots[i].device,
                                      &slots[i].row,
                                      q ? &q->modules[0] : &slots[i].spirv,
                                      slots[i].choice,
                                      slots[i].env,
                                      &slots[i].launch,
                                      slots[i].shared_bytes,
                                      slots[i].compiled_problem,
                                      slots[i].candidate_only,
                                      q};
    }
    vkat_result r = vkat_export_write(dir, items, n, err);
    if (r == VKAT_OK && header)
        r = vkat_export_write_header(dir, header, items, n, err);
    free(items);
    return r;
}

static void free_slots(export_slot *slots, size_t n)
{
    for (size_t i = 0; slots && i < n; i++) {
        vkat_sequence_free(&slots[i].sequence);
        vkat_spirv_free(&slots[i].spirv);
        vkat_launch_free(&slots[i].launch);
        free(slots[i].env);
        free(slots[i].choice);
    }
    free(slots);
}

/* A zeroed slot at the end of *slots, grown as needed; NULL when out of memory. */
static export_slot *new_slot(export_slot **slots, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        export_slot *ns = realloc(*slots, ncap * sizeof *ns);
        if (!ns)
            return NULL;
        *slots = ns;
        *cap = ncap;
    }
    export_slot *x = &(*slots)[(*n)++];
    memset(x, 0, sizeof *x);
    return x;
}

/* After one space's winners (slots[first..n)): its extra candidates for runtime tuning, each built for the device of
 * the series it does best on (a device that is present, or its database identity as for that series' winner). */
static vkat_result add_candidates(vkat_store *store, export_slot **slots, size_t *n, size_t *cap, size_t first,
                                  int wanted, vkat_error *err)
{
    size_t nw = *n - first, max = wanted ? (size_t)wanted : VKAT_EXPORT_DEFAULT_CANDIDATES, count = 0;
    vkat_row *winners = calloc(nw ? nw : 1, sizeof *winners);
    vkat_candidate *extra = NULL;
    if (!winners)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < nw; i++)
        winners[i] = (*slots)[first + i].row;
    vkat_result r = vkat_export_candidates(store, winners, nw, max, &extra, &count, err);
    for (size_t i = 0; i < count && !r; i++) {
        export_slot *x = new_slot(slots, n, cap);
        if (!x) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            break;
        }
        const export_slot *w = &(*slots)[first + extra[i].series];
        x->row = extra[i].row;
        x->space = w->space;
        x->device = w->device;
        x->absent = w->absent;
        x->compiled_problem = w->compiled_problem;
        x->candidate_only = 1;
        vkat_log(VKAT_LOG_DEBUG, "export: candidate %s of '%s' (%.0f%% of the winners' speed on average)",
                 x->row.config, x->row.kernel, 100 * extra[i].mean_fraction);
        r = export_build(x, store, err);
    }
    free(winners);
    free(extra);
    return r;
}

/* ---- Export of one tuning run's devices --------------------------------------------------------------------- */

vkat_result vkat_tune_export(vkat_space *space, const vkat_instance *inst, const uint32_t *device_indices,
                             const char *const *problems, size_t device_count, vkat_store *store, const char *dir,
                             vkat_error *err)
{
    size_t n = 0, cap = device_count ? device_count : 1;
    export_slot *slots = calloc(cap, sizeof *slots);
    uint64_t compiled = 0;
    vkat_result r = slots ? vkat_compiled_problem(space, &compiled, err)
                          : vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (r)
        goto cleanup;
    for (size_t d = 0; d < device_count; d++) {
        const vkat_device_info *dev = vkat_instance_device(inst, device_indices[d]);
        export_slot *x = &slots[n];
        vkat_row key;
        size_t count = 0;
        if ((problems && (r = vkat_space_set_problem(space, problems[d], err))) ||
            (r = vkat_tune_key(space, dev, &key, err)) || (r = vkat_store_best(store, &key, &x->row, 1, &count, err)))
            goto cleanup;
        if (count == 0) {
            vkat_log(VKAT_LOG_WARN, "export: no correct variant of '%s' for %s (%s) in the database", space->name,
                     dev->name, key.problem);
            continue;
        }
        x->space = space;
        x->device = dev;
        x->compiled_problem = compiled;
        n++;
        if ((r = export_build(x, store, err)))
            goto cleanup;
    }
    /* The same candidates as `vkautotune export` with its default, so both write the same manifest. */
    if (n == 0)
        r = vkat_fail(err, VKAT_ERR_DB, NULL, 0, "nothing to export: no correct variant of '%s' in the database",
                      space->name);
    else if (!(r = add_candidates(store, &slots, &n, &cap, 0, 0, err)))
        r = write_slots(slots, n, dir, NULL, err);
cleanup:
    free_slots(slots, n);
    return r;
}

/* ---- Export from the database ------------------------------------------------------------------------------- */

/* Which devices a request names: present ones picked like tune's --device (local[], *nlocal), and, for a name,
 * database ones whose name contains it (*by_name). */
typedef struct device_choice {
    uint32_t local[64], nlocal;
    int by_name;
} device_choice;

static vkat_result choose_devices(const vkat_export_request *req, device_choice *dc, vkat_error *err)
{
    memset(dc, 0, sizeof *dc);
    if (req->all_in_db)
        return VKAT_OK;
    int is_name = req->device && req->device[0] && strcmp(req->device, "all") != 0 &&
                  strspn(req->device, "0123456789") != strlen(req->device);
    vkat_error serr = {0};
    if (req->inst && vkat_select_devices(req->inst, req->device, dc->local, 64, &dc->nlocal, &serr) == VKAT_OK) {
        dc->by_name = is_name;
    } else if (is_name) {
        dc->by_name = 1; /* not present here: look for it in the database */
    } else if (!req->inst) {
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0,
                         "no Vulkan device on this machine to export for; name one in the database with --device "
                         "NAME, or use --all-devices-in-db");
    } else {
        *err = serr;
        return serr.code;
    }
    return VKAT_OK;
}

/* Is the row's device one the request chose? *dev: the present device it is, or the request's profile of it, or
 * NULL when it is not here. */
static int row_selected(const vkat_export_request *req, const device_choice *dc, const vkat_row *row,
                        const vkat_device_info **dev)
{
    int selected = req->all_in_db;
    *dev = NULL;
    for (uint32_t d = 0; req->inst && d < vkat_instance_device_count(req->inst); d++) {
        vkat_device_key k;
        vkat_device_key_from_info(vkat_instance_device(req->inst, d), &k);
        if (!vkat_device_key_equal(&k, &row->device))
            continue;
        *dev = vkat_instance_device(req->inst, d);
        for (uint32_t j = 0; j < dc->nlocal; j++)
            selected |= dc->local[j] == d;
    }
    if (!selected && dc->by_name && vkat_contains_nocase(row->device.name, req->device))
        selected = 1;
    if (!*dev && req->profile && !strcmp(req->profile->name, row->device.name) &&
        req->profile->vendor_id == row->device.vendor_id && req->profile->device_id == row->device.device_id)
        *dev = req->profile;
    return selected;
}

typedef struct slot_list {
    export_slot *slots;
    size_t n, cap;
} slot_list;

/* One space's winners that the request selects, then its candidates. */
static vkat_result export_space(const vkat_export_request *req, const device_choice *dc, vkat_space *space,
                                vkat_store *store, slot_list *out, vkat_error *err)
{
    static const vkat_device_info no_device; /* for the key's hashes only */
    vkat_row key, *rows = NULL;
    size_t nrows = 0, matched = 0, first = out->n;
    uint64_t compiled = 0; /* the space's, the same for every row (compiled_problem.h) */
    int64_t *want = calloc(space->problem_count ? space->problem_count : 1, sizeof *want);
    vkat_result r = want ? VKAT_OK : vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!r && !(r = problem_filter(space, req->problem, want, err)) &&
        !(r = vkat_compiled_problem(space, &compiled, err)) &&
        !(r = vkat_tune_key(space, &no_device, &key, err)))
        r = vkat_store_winners(store, &key, &rows, &nrows, err);
    for (size_t i = 0; !r && i < nrows; i++) {
        const vkat_device_info *dev;
        if (!row_selected(req, dc, &rows[i], &dev) || (r = vkat_space_set_problem(space, rows[i].problem, err)))
            continue;
        int keep = 1;
        for (size_t p = 0; p < space->problem_count; p++)
            keep &= want[p] == INT64_MIN || want[p] == space->problem[p].value;
        if (!keep)
            continue;
        matched++;
        if (!dev && launch_reads_device(space)) {
            vkat_log(VKAT_LOG_WARN,
                     "export: skipping '%s' on %s: %s is not present here and the space's dispatch reads its limits "
                     "(device.*)", space->name, rows[i].device.name, rows[i].device.name);
            continue;
        }
        export_slot *x = new_slot(&out->slots, &out->n, &out->cap);
        if (!x) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            break;
        }
        x->row = rows[i];
        x->space = space;
        x->device = dev;
        snprintf(x->absent.name, sizeof x->absent.name, "%s", rows[i].device.name);
        x->absent.api_version = EXPORT_ABSENT_API_VERSION;
        x->compiled_problem = compiled;
        r = export_build(x, store, err);
    }
    if (!r && req->candidates >= 0)
        r = add_candidates(store, &out->slots, &out->n, &out->cap, first, req->candidates, err);
    if (!r && matched == 0)
        vkat_log(VKAT_LOG_WARN, "export: no correct variant of '%s' for the chosen device(s)%s%s in %s", space->name,
                 req->problem ? " and problem " : "", req->problem ? req->problem : "", "the database");
    free(rows);
    free(want);
    return r;
}

vkat_result vkat_tune_export_db(const vkat_export_request *req, vkat_store *store, size_t *exported, vkat_error *err)
{
    if (exported)
        *exported = 0;
    device_choice dc;
    vkat_result r = choose_devices(req, &dc, err);
    if (r)
        return r;
    slot_list list = {0};
    for (size_t si = 0; !r && si < req->space_count; si++)
        r = export_space(req, &dc, req->spaces[si], store, &list, err);
    if (!r && list.n == 0)
        r = vkat_fail(err, VKAT_ERR_DB, NULL, 0,
                      "nothing to export: the database has no correct variant for the chosen spaces, devices and "
                      "problems (tune first, or see --all-devices-in-db)");
    if (!r)
        r = write_slots(list.slots, list.n, req->dir, req->header, err);
    if (!r && exported)
        *exported = list.n;
    free_slots(list.slots, list.n);
    return r;
}
