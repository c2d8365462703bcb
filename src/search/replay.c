/* replay.c — recorded tuning spaces as a stand-in for the GPU: loads a Kernel Tuner cache file (json-c) or the
 * project's results database (read-only SQL) into one table, and runs a strategy against it through the same
 * driver as a live run (search_run.c); only the measurement is a table lookup. Nothing here prints. */
#include "replay.h"
#include "store.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* ---- building a table ---------------------------------------------------------------------------------------- */

static vkat_result nomem(vkat_error *err)
{
    return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
}

void vkat_replay_free(vkat_replay_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->param_count; i++) {
        free(t->param_names ? t->param_names[i] : NULL);
        for (size_t j = 0; t->values && t->values[i] && j < t->value_counts[i]; j++)
            free(t->values[i][j]);
        free(t->values ? t->values[i] : NULL);
    }
    free(t->param_names);
    free(t->values);
    free(t->value_counts);
    free(t->categorical);
    free(t->constraints_path);
    free(t->constraint_bits);
    vkat_index_map_free(&t->scores);
    free(t->path);
    free(t->label);
    free(t);
}

static vkat_replay_table *table_new(const char *path, size_t np)
{
    vkat_replay_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->param_count = np;
    t->best_s = INFINITY;
    size_t n = np ? np : 1;
    t->path = vkat_strdup(path);
    t->param_names = calloc(n, sizeof *t->param_names);
    t->values = calloc(n, sizeof *t->values);
    t->value_counts = calloc(n, sizeof *t->value_counts);
    t->categorical = calloc(n, 1);
    if (!t->path || !t->param_names || !t->values || !t->value_counts || !t->categorical) {
        vkat_replay_free(t);
        return NULL;
    }
    return t;
}

static int is_number(const char *s, double *v)
{
    char *end;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    return *end == 0;
}

/* Index of token among parameter p's values, numerically for numeric parameters ("1.0" is "1"); -1 if absent. */
static long value_index(const vkat_replay_table *t, size_t p, const char *token)
{
    double x, y;
    int numeric = !t->categorical[p] && is_number(token, &x);
    for (size_t j = 0; j < t->value_counts[p]; j++) {
        if (numeric ? is_number(t->values[p][j], &y) && x == y : !strcmp(t->values[p][j], token))
            return (long)j;
    }
    return -1;
}

static int add_value(vkat_replay_table *t, size_t p, const char *value)
{
    char **v = realloc(t->values[p], (t->value_counts[p] + 1) * sizeof *v);
    if (!v)
        return 0;
    t->values[p] = v;
    if (!(v[t->value_counts[p]] = vkat_strdup(value)))
        return 0;
    t->value_counts[p]++;
    return 1;
}

/* Splits "v1,v2,..." into choice; 0 when the count or a value does not match. */
static int parse_key(const vkat_replay_table *t, const char *key, uint32_t *choice, int with_names)
{
    char *copy = vkat_strdup(key), *save = NULL;
    if (!copy)
        return 0;
    size_t p = 0;
    int ok = 1;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save), p++) {
        if (with_names) {
            char *eq = strchr(tok, '=');
            ok = eq && p < t->param_count && !strncmp(tok, t->param_names[p], (size_t)(eq - tok)) &&
                 !t->param_names[p][eq - tok];
            tok = eq ? eq + 1 : tok;
        }
        long j = ok && p < t->param_count ? value_index(t, p, tok) : -1;
        ok = j >= 0;
        if (ok)
            choice[p] = (uint32_t)j;
    }
    free(copy);
    return ok && p == t->param_count;
}

static void finish(vkat_replay_table *t)
{
    t->raw_count = 1;
    for (size_t i = 0; i < t->param_count; i++)
        t->raw_count = t->value_counts[i] && t->raw_count > UINT64_MAX / t->value_counts[i]
                           ? UINT64_MAX
                           : t->raw_count * t->value_counts[i];
}

static int put_score(vkat_replay_table *t, const uint32_t *choice, double seconds)
{
    vkat_search_space sp = vkat_replay_space(t);
    int added;
    if (vkat_index_map_put(&t->scores, vkat_search_encode(&sp, choice), seconds, 0, &added) == SIZE_MAX)
        return 0;
    if (added) {
        if (isfinite(seconds)) {
            t->valid++;
            if (seconds < t->best_s)
                t->best_s = seconds;
        } else
            t->failed++;
    }
    return 1;
}

/* ---- Kernel Tuner cache files --------------------------------------------------------------------------------- */

static void json_value_string(json_object *v, char *buf, size_t size)
{
    /* The cache's keys are Python's str() of each value joined by commas. */
    if (json_object_is_type(v, json_type_boolean))
        snprintf(buf, size, "%s", json_object_get_boolean(v) ? "True" : "False");
    else if (json_object_is_type(v, json_type_int))
        snprintf(buf, size, "%lld", (long long)json_object_get_int64(v));
    else if (json_object_is_type(v, json_type_double))
        snprintf(buf, size, "%.17g", json_object_get_double(v));
    else
        snprintf(buf, size, "%s", json_object_get_string(v));
}

static vkat_result load_kt(const char *path, vkat_replay_table **out, vkat_error *err)
{
    json_object *root = json_object_from_file(path);
    if (!root)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "not a JSON file: %s", json_util_get_last_err());
    vkat_replay_table *t = NULL;
    uint32_t *choice = NULL;
    vkat_result r = VKAT_OK;
    json_object *keys, *params, *cache;
    if (!json_object_object_get_ex(root, "tune_params_keys", &keys) || !json_object_is_type(keys, json_type_array) ||
        !json_object_object_get_ex(root, "tune_params", &params) || !json_object_is_type(params, json_type_object) ||
        !json_object_object_get_ex(root, "cache", &cache) || !json_object_is_type(cache, json_type_object)) {
        r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                      "not a Kernel Tuner cache file (needs tune_params_keys, tune_params and cache)");
        goto cleanup;
    }
    size_t np = json_object_array_length(keys);
    if (!(t = table_new(path, np)) || !(choice = calloc(np ? np : 1, sizeof *choice))) {
        r = nomem(err);
        goto cleanup;
    }
    const char *base = strrchr(path, '/');
    if (!(t->label = vkat_strdup(base ? base + 1 : path))) {
        r = nomem(err);
        goto cleanup;
    }
    for (size_t i = 0; i < np; i++) {
        const char *name = json_object_get_string(json_object_array_get_idx(keys, i));
        json_object *list;
        if (!name || !json_object_object_get_ex(params, name, &list) || !json_object_is_type(list, json_type_array) ||
            json_object_array_length(list) == 0) {
            r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "tune_params has no value list for '%s'",
                          name ? name : "?");
            goto cleanup;
        }
        if (!(t->param_names[i] = vkat_strdup(name))) {
            r = nomem(err);
            goto cleanup;
        }
        for (size_t j = 0; j < json_object_array_length(list); j++) {
            json_object *v = json_object_array_get_idx(list, j);
            char buf[256];
            json_value_string(v, buf, sizeof buf);
            if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_double))
                t->categorical[i] = 1;
            if (!add_value(t, i, buf)) {
                r = nomem(err);
                goto cleanup;
            }
        }
    }
    finish(t);
    json_object_object_foreach(cache, key, entry)
    {
        json_object *time;
        if (!parse_key(t, key, choice, 0)) {
            r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "cache key '%s' does not match tune_params", key);
            goto cleanup;
        }
        if (!json_object_object_get_ex(entry, "time", &time))
            continue;
        double seconds = INFINITY;
        if (json_object_is_type(time, json_type_double) || json_object_is_type(time, json_type_int)) {
            double ms = json_object_get_double(time);
            /* Older Kernel Tuner versions wrote 1e20 for a configuration that failed. */
            if (isfinite(ms) && ms > 0 && ms < 1e20)
                seconds = ms * 1e-3;
        } else if (json_object_is_type(time, json_type_string) &&
                   strstr(json_object_get_string(time), "InvalidConfig")) {
            continue; /* failed a constraint: invalid, like an absent entry */
        }
        if (!put_score(t, choice, seconds)) {
            r = nomem(err);
            goto cleanup;
        }
    }
    if (t->valid == 0)
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, path, 0, "the cache has no valid configuration");

cleanup:
    json_object_put(root);
    free(choice);
    if (r != VKAT_OK) {
        vkat_replay_free(t);
        t = NULL;
    }
    *out = t;
    return r;
}

/* ---- the project's results database ------------------------------------------------------------------------- */

/* Parameter names and value lists from the stored configurations ("A=1,B=2"), in order of first appearance;
 * numeric lists are then sorted so that adjacent values are neighbours. */
static int collect_config(vkat_replay_table *t, const char *config)
{
    char *copy = vkat_strdup(config), *save = NULL;
    if (!copy)
        return 0;
    size_t p = 0;
    int ok = 1;
    for (char *tok = strtok_r(copy, ",", &save); tok && ok; tok = strtok_r(NULL, ",", &save), p++) {
        char *eq = strchr(tok, '=');
        ok = eq != NULL && p < t->param_count;
        if (!ok)
            break;
        *eq = 0;
        if (!t->param_names[p] && !(t->param_names[p] = vkat_strdup(tok)))
            ok = 0;
        else if (strcmp(t->param_names[p], tok))
            ok = 0;
        double x;
        if (ok && !is_number(eq + 1, &x))
            t->categorical[p] = 1;
        if (ok && value_index(t, p, eq + 1) < 0)
            ok = add_value(t, p, eq + 1);
    }
    free(copy);
    return ok && p == t->param_count;
}

static int cmp_numeric(const void *a, const void *b)
{
    double x = strtod(*(char *const *)a, NULL), y = strtod(*(char *const *)b, NULL);
    return (x > y) - (x < y);
}

static size_t count_fields(const char *config)
{
    size_t n = 1;
    for (const char *c = config; *c; c++)
        n += *c == ',';
    return n;
}

/* Opens the database read-only and prepares `rows`: every row of its largest series (one device, kernel, template,
 * space and problem; of `kernel` when given), in the order measured. `pick` holds that series' key columns (device
 * name 0, kernel 5, problem 8) for the table's label. */
static vkat_result open_largest_series(const char *path, const char *kernel, sqlite3 **db, sqlite3_stmt **pick,
                                       sqlite3_stmt **rows, vkat_error *err)
{
    const char *key_cols = "device_name, vendor_id, device_id, driver_version, driver_uuid, kernel, template_hash, "
                           "space_hash, problem";
    char sql[1024];
    if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
        return vkat_fail(err, VKAT_ERR_DB, path, 0, "cannot open the database: %s", sqlite3_errmsg(*db));
    snprintf(sql, sizeof sql,
             "SELECT %s, COUNT(*) AS n FROM results WHERE ?1 IS NULL OR kernel = ?1 GROUP BY %s "
             "ORDER BY n DESC, kernel, problem LIMIT 1",
             key_cols, key_cols);
    if (sqlite3_prepare_v2(*db, sql, -1, pick, NULL) != SQLITE_OK ||
        sqlite3_bind_text(*pick, 1, kernel, -1, SQLITE_STATIC) != SQLITE_OK)
        return vkat_fail(err, VKAT_ERR_DB, path, 0, "not a vkautotune results database: %s", sqlite3_errmsg(*db));
    if (sqlite3_step(*pick) != SQLITE_ROW)
        return vkat_fail(err, VKAT_ERR_EMPTY_SPACE, path, 0, "no results%s%s in the database",
                         kernel ? " for kernel " : "", kernel ? kernel : "");
    if (sqlite3_prepare_v2(*db,
                           "SELECT config, status, median_s FROM results WHERE device_name = ?1 AND vendor_id = ?2 "
                           "AND device_id = ?3 AND driver_version = ?4 AND driver_uuid = ?5 AND kernel = ?6 AND "
                           "template_hash = ?7 AND space_hash = ?8 AND problem = ?9 ORDER BY id",
                           -1, rows, NULL) != SQLITE_OK)
        return vkat_fail(err, VKAT_ERR_DB, path, 0, "%s", sqlite3_errmsg(*db));
    for (int i = 0; i < 9; i++)
        sqlite3_bind_value(*rows, i + 1, sqlite3_column_value(*pick, i));
    return VKAT_OK;
}

static vkat_result load_db(const char *path, const char *kernel, vkat_replay_table **out, vkat_error *err)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *pick = NULL, *rows = NULL;
    vkat_replay_table *t = NULL;
    uint32_t *choice = NULL;
    vkat_result r = VKAT_OK;
    if ((r = open_largest_series(path, kernel, &db, &pick, &rows, err)) != VKAT_OK)
        goto cleanup;
    /* Pass 1: parameters and their values; pass 2: scores. */
    for (int pass = 0; pass < 2; pass++) {
        int rc;
        while ((rc = sqlite3_step(rows)) == SQLITE_ROW) {
            const char *config = (const char *)sqlite3_column_text(rows, 0);
            const char *status = (const char *)sqlite3_column_text(rows, 1);
            if (!config || !status)
                continue;
            if (!t) {
                char label[1024];
                snprintf(label, sizeof label, "%s %s on %s", (const char *)sqlite3_column_text(pick, 5),
                         (const char *)sqlite3_column_text(pick, 8), (const char *)sqlite3_column_text(pick, 0));
                if (!(t = table_new(path, count_fields(config))) || !(t->label = vkat_strdup(label)) ||
                    !(choice = calloc(t->param_count, sizeof *choice))) {
                    r = nomem(err);
                    goto cleanup;
                }
            }
            int st = vkat_status_from_name(status);
            if (pass == 0) {
                if (!collect_config(t, config)) {
                    r = vkat_fail(err, VKAT_ERR_DB, path, 0, "configuration '%s' does not match '%s'", config,
                                  t->param_names[0] ? t->param_names[0] : "?");
                    goto cleanup;
                }
                continue;
            }
            if (st == VKAT_STATUS_INVALID || !parse_key(t, config, choice, 1))
                continue;
            double median = sqlite3_column_double(rows, 2);
            /* A raced-out row is correct and known to be behind the best: its partial median scores it (it can
             * never be the table's optimum, which a full measurement sets). */
            int timed = st == VKAT_STATUS_OK || st == VKAT_STATUS_RACED;
            if (!put_score(t, choice, timed && median > 0 ? median : INFINITY)) {
                r = nomem(err);
                goto cleanup;
            }
        }
        if (rc != SQLITE_DONE) {
            r = vkat_fail(err, VKAT_ERR_DB, path, 0, "%s", sqlite3_errmsg(db));
            goto cleanup;
        }
        sqlite3_reset(rows);
        if (pass == 0) {
            for (size_t p = 0; p < t->param_count; p++)
                if (!t->categorical[p])
                    qsort(t->values[p], t->value_counts[p], sizeof *t->values[p], cmp_numeric);
            finish(t);
        }
    }
    if (t->valid == 0)
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, path, 0, "no correct variant in the database for %s", t->label);

cleanup:
    sqlite3_finalize(pick);
    sqlite3_finalize(rows);
    sqlite3_close(db);
    free(choice);
    if (r != VKAT_OK) {
        vkat_replay_free(t);
        t = NULL;
    }
    *out = t;
    return r;
}

vkat_result vkat_replay_load(const char *path, const char *kernel, vkat_replay_table **out, vkat_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot open the table");
    char magic[16] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    if (got == sizeof magic && !memcmp(magic, "SQLite format 3", 16))
        return load_db(path, kernel, out, err);
    return load_kt(path, out, err);
}

/* ---- lookups and the replay run ------------------------------------------------------------------------------- */

/* Free counting's oracle: in the table and within its constraints. */
static int oracle(void *ctx, const uint32_t *choice)
{
    double s;
    return vkat_replay_allowed(ctx, choice) && vkat_replay_lookup(ctx, choice, &s);
}

/* Charged counting's oracle when the table has constraints: only what a live run's space would rule out. */
static int constraints_oracle(void *ctx, const uint32_t *choice)
{
    return vkat_replay_allowed(ctx, choice);
}

vkat_search_space vkat_replay_space(const vkat_replay_table *t)
{
    return (vkat_search_space){t->param_count, t->value_counts, t->raw_count, oracle, (void *)t, t->categorical};
}

int vkat_replay_lookup(const vkat_replay_table *t, const uint32_t *choice, double *seconds)
{
    vkat_search_space sp = {t->param_count, t->value_counts, t->raw_count};
    size_t slot = vkat_index_map_find(&t->scores, vkat_search_encode(&sp, choice));
    if (slot == SIZE_MAX)
        return 0;
    *seconds = t->scores.values[slot];
    return 1;
}

void vkat_replay_format(const vkat_replay_table *t, const uint32_t *choice, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < t->param_count && at < size; i++) {
        int n = snprintf(buf + at, size - at, "%s%s=%s", i ? "," : "", t->param_names[i], t->values[i][choice[i]]);
        if (n < 0)
            break;
        at += (size_t)n;
    }
}

const char *vkat_replay_missing_name(int charge_missing)
{
    return charge_missing ? "charged" : "free";
}

/* The "device": a queue of submitted configurations answered in order from the table. */
typedef struct replay_run {
    const vkat_replay_table *t;
    int charge_missing;
    uint32_t *queue; /* [window][param_count] ring */
    size_t head, count, window;
    const uint64_t *marks;
    size_t mark_count;
    double *best_at;
    size_t next_mark;
    const vkat_replay_opts *opts;
    const vkat_strategy *strategy;
    uint64_t completed;
} replay_run;

/* Whether missing configurations are known yet: never when charged, unless opts->known_after has passed. */
static int missing_known(const replay_run *rr)
{
    return !rr->charge_missing || (rr->opts->known_after && rr->completed >= rr->opts->known_after);
}

static int run_check(void *user, const uint32_t *choice)
{
    replay_run *rr = user;
    /* charged: a missing one fails when evaluated; one that breaks the constraints is never compiled */
    return missing_known(rr) ? oracle((void *)rr->t, choice) : vkat_replay_allowed(rr->t, choice);
}

static vkat_result run_submit(void *user, const uint32_t *choice)
{
    replay_run *rr = user;
    size_t np = rr->t->param_count;
    if (rr->count == rr->window)
        return VKAT_ERR_INTERNAL;
    memcpy(rr->queue + ((rr->head + rr->count++) % rr->window) * np, choice, np * sizeof *choice);
    return VKAT_OK;
}

static vkat_result run_complete(void *user, uint32_t *choice, double *seconds, int *resumed)
{
    replay_run *rr = user;
    size_t np = rr->t->param_count;
    if (!rr->count)
        return VKAT_ERR_INTERNAL;
    memcpy(choice, rr->queue + rr->head * np, np * sizeof *choice);
    rr->head = (rr->head + 1) % rr->window;
    rr->count--;
    *resumed = 0;
    if (!vkat_replay_lookup(rr->t, choice, seconds))
        *seconds = INFINITY;
    rr->completed++;
    if (rr->opts->trace)
        rr->opts->trace(rr->opts->trace_user, rr->completed, choice, *seconds,
                        vkat_strategy_origin(rr->strategy, choice));
    return VKAT_OK;
}

static void run_progress(void *user, const vkat_search_stats *st)
{
    replay_run *rr = user;
    while (rr->next_mark < rr->mark_count && (st->evaluated >= rr->marks[rr->next_mark] || st->stop != VKAT_STOP_NONE))
        rr->best_at[rr->next_mark++] = st->best_s;
}

vkat_result vkat_replay_run(const vkat_replay_table *t, const vkat_replay_opts *opts, const uint64_t *marks,
                            size_t mark_count, double *best_at, vkat_search_stats *stats, vkat_error *err)
{
    vkat_search_space sp = vkat_replay_space(t);
    replay_run rr = {t, opts->charge_missing, NULL, 0, 0, opts->window ? opts->window : 1, marks, mark_count,
                     best_at, 0, opts, NULL, 0};
    if (opts->charge_missing) {
        /* nothing is known of a configuration before it is evaluated, but what the constraints say */
        sp.valid = t->constraint_bits ? constraints_oracle : NULL;
        if (opts->known_after) {
            sp.valid = run_check; /* everything plausible until then, the table after */
            sp.valid_ctx = &rr;
        }
    }
    vkat_strategy *s = NULL;
    vkat_search_stats local = {0};
    if (!stats)
        stats = &local;
    vkat_result r = vkat_strategy_create(opts->strategy ? opts->strategy : "auto", &sp, opts->seed, &s, err);
    if (r != VKAT_OK)
        return r;
    rr.strategy = s;
    if (!(rr.queue = calloc(rr.window * (t->param_count ? t->param_count : 1), sizeof *rr.queue))) {
        vkat_strategy_destroy(s);
        return nomem(err);
    }
    for (size_t k = 0; k < mark_count; k++)
        best_at[k] = INFINITY;
    vkat_search_hooks hooks = {&rr, run_check, run_submit, run_complete, NULL};
    uint64_t raw = t->constraint_bits ? t->constraint_valid : t->raw_count;
    uint64_t table = t->constraint_bits ? t->constrained_valid + t->constrained_failed : t->valid + t->failed;
    vkat_search_limits limits = {opts->budget, 0, rr.window, 0, NULL, opts->charge_missing ? raw : table};
    r = vkat_search_run(s, &hooks, &limits, run_progress, &rr, stats, err);
    free(rr.queue);
    vkat_strategy_destroy(s);
    return r;
}
