/* replay.c — recorded tuning spaces as a stand-in for the GPU: loads a Kernel Tuner cache file or T4 results
 * (json-c) or the project's results database (read-only SQL) into one table, and runs a strategy against it through
 * the same driver as a live run (search_run.c); only the measurement is a table lookup. Files it has not seen are
 * read as Kernel Tuner reads them or refused with their line, never half-read. Nothing here prints (a repaired
 * file is a warning through the log). */
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
    free(t->objective);
    free(t->format);
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

/* ---- Kernel Tuner's files: the cache and T4 results -------------------------------------------------------------
 * A cache's keys are Python's str() of each value joined by commas, so values are kept as Python writes them
 * ("0.1", "1e-05", "1.0", "True", "None") and keys are matched against those texts; a value may hold a comma. */

/* Python's repr() of a float, which is its str(): the shortest digits that read back as x; fixed notation for
 * exponents -4 .. 15 with ".0" when integral, else "1e-05" (CPython's float_repr_style 'short'). */
static void py_float(double x, char *buf, size_t size)
{
    if (isnan(x) || isinf(x)) {
        snprintf(buf, size, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return;
    }
    char e[48], digits[32];
    for (int prec = 0; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, x);
        if (strtod(e, NULL) == x)
            break;
    }
    const char *c = e;
    int neg = *c == '-';
    c += neg;
    size_t nd = 0;
    for (; *c && *c != 'e' && nd + 1 < sizeof digits; c++)
        if (*c != '.')
            digits[nd++] = *c;
    int exp = *c == 'e' ? atoi(c + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    digits[nd] = 0;
    size_t at = (size_t)snprintf(buf, size, "%s", neg ? "-" : "");
    if (exp < -4 || exp > 15) {
        snprintf(buf + at, size - at, "%c%s%se%c%02d", digits[0], nd > 1 ? "." : "", digits + 1, exp < 0 ? '-' : '+',
                 abs(exp));
    } else if (exp < 0) {
        snprintf(buf + at, size - at, "0.%.*s%s", -exp - 1, "0000", digits);
    } else {
        for (int i = 0; i <= exp && at + 1 < size; i++)
            buf[at++] = (size_t)i < nd ? digits[i] : '0';
        snprintf(buf + at, size - at, ".%s", (size_t)exp + 1 < nd ? digits + exp + 1 : "0");
    }
}

/* Python's str() of a JSON value into buf; 0 for a list or an object (a tuple's str() has commas and spaces that a
 * cache key cannot be split by reliably: refused). */
static int py_str(json_object *v, char *buf, size_t size)
{
    switch (json_object_get_type(v)) {
    case json_type_null: snprintf(buf, size, "None"); return 1;
    case json_type_boolean: snprintf(buf, size, "%s", json_object_get_boolean(v) ? "True" : "False"); return 1;
    case json_type_int: snprintf(buf, size, "%lld", (long long)json_object_get_int64(v)); return 1;
    case json_type_double: py_float(json_object_get_double(v), buf, size); return 1;
    case json_type_string: snprintf(buf, size, "%s", json_object_get_string(v)); return 1;
    default: return 0;
    }
}

static long exact_index(const vkat_replay_table *t, size_t p, const char *text)
{
    for (size_t j = 0; j < t->value_counts[p]; j++)
        if (!strcmp(t->values[p][j], text))
            return (long)j;
    return -1;
}

/* Matches key (from parameter p on) against the values' texts, each followed by a comma or, for the last, the end;
 * a value that holds a comma is tried as a whole, so each candidate is tried in turn. A numeric parameter also takes
 * a token that reads as one of its numbers ("1" for 1.0: files not written by Python). 1 with choice filled. */
static int match_key(const vkat_replay_table *t, const char *key, size_t p, uint32_t *choice)
{
    if (p == t->param_count)
        return !*key;
    int last = p + 1 == t->param_count;
    for (size_t j = 0; j < t->value_counts[p]; j++) {
        const char *v = t->values[p][j];
        size_t n = strlen(v);
        if (strncmp(key, v, n) || (last ? key[n] != 0 : key[n] != ','))
            continue;
        choice[p] = (uint32_t)j;
        if (match_key(t, key + n + !last, p + 1, choice))
            return 1;
    }
    const char *comma = strchr(key, ',');
    size_t len = comma ? (size_t)(comma - key) : strlen(key);
    char token[64];
    double x, y;
    if (t->categorical[p] || len >= sizeof token || (last ? comma != NULL : comma == NULL))
        return 0;
    memcpy(token, key, len);
    token[len] = 0;
    for (size_t j = 0; is_number(token, &x) && j < t->value_counts[p]; j++) {
        if (is_number(t->values[p][j], &y) && x == y) {
            choice[p] = (uint32_t)j;
            return match_key(t, key + len + !last, p + 1, choice);
        }
    }
    return 0;
}

/* The line of offset `at` in text (1-based). */
static int line_of(const char *text, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at && text[i]; i++)
        line += text[i] == '\n';
    return line;
}

/* The line where "key": appears in text, 0 when not found (a key written with escapes). */
static int key_line(const char *text, const char *key)
{
    size_t n = strlen(key);
    for (const char *c = strchr(text, '"'); c; c = strchr(c + 1, '"')) {
        if (!strncmp(c + 1, key, n) && c[n + 1] == '"') {
            const char *after = c + n + 2;
            while (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r')
                after++;
            if (*after == ':')
                return line_of(text, (size_t)(c - text));
        }
    }
    return 0;
}

/* Parses the whole file. Kernel Tuner writes its cache as it goes (the header, then "key": {...}, per line) and
 * closes it at the end, so a run that was stopped leaves a file without its closing braces; Kernel Tuner reads
 * such a file by dropping a trailing comma and closing it (util.read_cache), and so does this (*repaired = 1, and
 * a warning). A file cut inside an entry, or any other error, is refused with its line. */
static vkat_result parse_json(const char *path, const char *text, size_t size, json_object **root, int *repaired,
                              vkat_error *err)
{
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return nomem(err);
    *root = json_tokener_parse_ex(tok, text, (int)size);
    enum json_tokener_error je = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    if (*root) {
        while (end < size && strchr(" \t\r\n", text[end]))
            end++;
        if (end == size)
            return VKAT_OK;
        json_object_put(*root);
        *root = NULL;
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, line_of(text, end), "text after the end of the JSON");
    }
    if (je != json_tokener_continue)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, line_of(text, end), "not a JSON file: %s",
                         json_tokener_error_desc(je));
    size_t n = size;
    while (n && strchr(" \t\r\n", text[n - 1]))
        n--;
    if (!n)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "the file is empty");
    n -= n && text[n - 1] == ',';
    char *closed = malloc(n + 4);
    if (!closed)
        return nomem(err);
    memcpy(closed, text, n);
    memcpy(closed + n, "}\n}", 4);
    *root = json_tokener_parse(closed);
    free(closed);
    if (!*root)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, line_of(text, size),
                         "the file ends inside an entry (cut short); closing it as Kernel Tuner closes a stopped "
                         "run's cache (after its last entry's comma) does not make it JSON");
    *repaired = 1;
    return VKAT_OK;
}

/* What an entry's value of the objective makes it. */
enum { ENTRY_SCORED, ENTRY_FAILED, ENTRY_MARKED_INVALID, ENTRY_NO_OBJECTIVE };

/* Classifies one recorded value of the objective: a positive finite number scores (time in ms to seconds; a
 * maximized objective as its reciprocal, so that the optimum / found is found / best); Kernel Tuner's error strings
 * fail, but "InvalidConfig" (a restriction or an impossible launch), which is missing like an absent entry; 0, a
 * negative number, NaN, infinity and time's old failure value 1e20 fail. */
static int score_value(const vkat_replay_table *t, json_object *v, double unit_s, double *score)
{
    if (json_object_is_type(v, json_type_string))
        return strstr(json_object_get_string(v), "InvalidConfig") ? ENTRY_MARKED_INVALID : ENTRY_FAILED;
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
        return ENTRY_FAILED;
    double x = json_object_get_double(v);
    if (!isfinite(x) || x <= 0 || (t->time && x >= 1e20))
        return ENTRY_FAILED;
    *score = t->time ? x * unit_s : t->higher_is_better ? 1 / x : x;
    return ENTRY_SCORED;
}

static vkat_result count_entry(vkat_replay_table *t, const uint32_t *choice, int kind, double score, vkat_error *err)
{
    t->marked_invalid += kind == ENTRY_MARKED_INVALID;
    t->no_objective += kind == ENTRY_NO_OBJECTIVE;
    if (kind != ENTRY_SCORED && kind != ENTRY_FAILED)
        return VKAT_OK;
    return put_score(t, choice, kind == ENTRY_SCORED ? score : INFINITY) ? VKAT_OK : nomem(err);
}

/* The objective and its direction: the caller's, else the file's "objective" (and "objective_higher_is_better"),
 * else time. Only time has a known direction; another metric without one is refused rather than guessed. */
static vkat_result pick_objective(vkat_replay_table *t, json_object *root, const vkat_replay_load_desc *d,
                                  vkat_error *err)
{
    json_object *o = NULL, *hib = NULL;
    const char *file_obj = json_object_object_get_ex(root, "objective", &o) && json_object_is_type(o, json_type_string)
                               ? json_object_get_string(o)
                               : NULL;
    const char *name = d && d->objective ? d->objective : file_obj ? file_obj : "time";
    int dir = d ? d->higher_is_better : 0;
    if (!dir && file_obj && !strcmp(name, file_obj) &&
        json_object_object_get_ex(root, "objective_higher_is_better", &hib))
        dir = json_object_get_boolean(hib) ? 1 : -1;
    if (!dir && strcmp(name, "time"))
        return vkat_fail(
            err, VKAT_ERR_USAGE, t->path, 0,
            "objective '%s'%s: whether higher is better is not known (the file has no "
            "objective_higher_is_better); say --higher-is-better or --lower-is-better, or --objective time",
            name, d && d->objective ? "" : " (the file's)");
    t->time = !strcmp(name, "time");
    t->higher_is_better = dir > 0;
    if (t->time && t->higher_is_better)
        return vkat_fail(err, VKAT_ERR_USAGE, t->path, 0, "objective time with higher is better: times are minimized");
    return (t->objective = vkat_strdup(name)) ? VKAT_OK : nomem(err);
}

/* schema_version, when there: 1.x is the one version of Kernel Tuner's cache and of T4 read here. */
static vkat_result check_schema(const char *path, json_object *root, const char *format, vkat_error *err)
{
    json_object *v;
    if (!json_object_object_get_ex(root, "schema_version", &v))
        return VKAT_OK;
    const char *s = json_object_get_string(v);
    if (!json_object_is_type(v, json_type_string) || strncmp(s, "1.", 2))
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                         "schema_version '%s' of a %s: replay reads version 1.x only (a newer format may mean "
                         "something else)",
                         s ? s : "?", format);
    return VKAT_OK;
}

static vkat_result label_table(vkat_replay_table *t, const char *path, const char *format, vkat_error *err)
{
    const char *base = strrchr(path, '/');
    return (t->label = vkat_strdup(base ? base + 1 : path)) && (t->format = vkat_strdup(format)) ? VKAT_OK : nomem(err);
}

static vkat_result load_kt_cache(const char *path, const char *text, json_object *root, const vkat_replay_load_desc *d,
                                 vkat_replay_table **out, vkat_error *err)
{
    vkat_replay_table *t = NULL;
    uint32_t *choice = NULL;
    vkat_result r = VKAT_OK;
    json_object *keys, *params, *cache;
    if (!json_object_object_get_ex(root, "tune_params_keys", &keys) || !json_object_is_type(keys, json_type_array) ||
        !json_object_object_get_ex(root, "tune_params", &params) || !json_object_is_type(params, json_type_object) ||
        !json_object_object_get_ex(root, "cache", &cache) || !json_object_is_type(cache, json_type_object))
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                         "not a Kernel Tuner cache file (needs tune_params_keys, tune_params and cache) nor T4 "
                         "results (needs results)");
    size_t np = json_object_array_length(keys);
    if (!(t = table_new(path, np)) || !(choice = calloc(np ? np : 1, sizeof *choice))) {
        r = nomem(err);
        goto cleanup;
    }
    if ((r = label_table(t, path, "Kernel Tuner cache", err)) != VKAT_OK ||
        (r = check_schema(path, root, "Kernel Tuner cache", err)) != VKAT_OK ||
        (r = pick_objective(t, root, d, err)) != VKAT_OK)
        goto cleanup;
    for (size_t i = 0; i < np; i++) {
        const char *name = json_object_get_string(json_object_array_get_idx(keys, i));
        json_object *list;
        if (!name || !json_object_object_get_ex(params, name, &list) || !json_object_is_type(list, json_type_array) ||
            json_object_array_length(list) == 0) {
            r = vkat_fail(err, VKAT_ERR_SYNTAX, path, name ? key_line(text, name) : 0,
                          "tune_params has no value list for '%s'", name ? name : "?");
            goto cleanup;
        }
        if (!(t->param_names[i] = vkat_strdup(name))) {
            r = nomem(err);
            goto cleanup;
        }
        for (size_t j = 0; j < json_object_array_length(list); j++) {
            json_object *val = json_object_array_get_idx(list, j);
            char buf[256];
            if (!py_str(val, buf, sizeof buf)) {
                r = vkat_fail(err, VKAT_ERR_SYNTAX, path, key_line(text, name),
                              "tune_params '%s': value %zu is %s (%s); replay takes numbers, strings, booleans and "
                              "null",
                              name, j + 1, json_object_is_type(val, json_type_array) ? "a list" : "an object",
                              json_object_to_json_string_ext(val, JSON_C_TO_STRING_SPACED));
                goto cleanup;
            }
            if (!json_object_is_type(val, json_type_int) && !json_object_is_type(val, json_type_double))
                t->categorical[i] = 1;
            /* Twice the same str() is one key for two raw configurations (Kernel Tuner measured one): kept once,
             * or the copy's half of the space would count as missing. */
            if (exact_index(t, i, buf) >= 0) {
                vkat_log(VKAT_LOG_WARN, "%s:%d: tune_params '%s' lists '%s' twice; kept once", path,
                         key_line(text, name), name, buf);
                continue;
            }
            if (!add_value(t, i, buf)) {
                r = nomem(err);
                goto cleanup;
            }
        }
    }
    finish(t);
    json_object_object_foreach(cache, key, entry)
    {
        if (!match_key(t, key, 0, choice)) {
            r = vkat_fail(err, VKAT_ERR_SYNTAX, path, key_line(text, key),
                          "cache key '%s' does not match tune_params (expected Python's str() of a value of each "
                          "of the %zu parameters, joined by commas)",
                          key, np);
            goto cleanup;
        }
        if (!json_object_is_type(entry, json_type_object)) {
            r = vkat_fail(err, VKAT_ERR_SYNTAX, path, key_line(text, key),
                          "cache entry '%s' is not an object of results (\"time\": ms, ...)", key);
            goto cleanup;
        }
        json_object *value;
        double score = 0;
        int kind = ENTRY_NO_OBJECTIVE;
        if (json_object_object_get_ex(entry, t->objective, &value))
            kind = score_value(t, value, 1e-3, &score);
        else if (json_object_object_get_ex(entry, "time", &value) && json_object_is_type(value, json_type_string))
            kind = score_value(t, value, 1e-3, &score); /* an error, recorded in time only */
        if ((r = count_entry(t, choice, kind, score, err)) != VKAT_OK)
            goto cleanup;
    }
    if (t->valid == 0)
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, path, 0,
                      "the cache has no valid configuration (no entry with a "
                      "positive number for '%s')",
                      t->objective);

cleanup:
    free(choice);
    if (r != VKAT_OK) {
        vkat_replay_free(t);
        t = NULL;
    }
    *out = t;
    return r;
}

/* T4 results (the shared format of auto-tuning tools; Kernel Tuner writes it with store_output_file): a list of
 * records, each with its "configuration" (name -> value), "invalidity" ("correct", "constraints", "compile",
 * "runtime", "correctness") and "measurements" ({name, value, unit}). The parameters and their values are the
 * records' (numbers in ascending order), so configurations never recorded are missing, as in a cache. */

static double time_unit_s(const char *unit)
{
    static const struct {
        const char *name;
        double s;
    } units[] = {{"ms", 1e-3}, {"s", 1}, {"us", 1e-6}, {"ns", 1e-9}, {"milliseconds", 1e-3}, {"seconds", 1}};
    for (size_t i = 0; unit && i < VKAT_COUNTOF(units); i++)
        if (!strcmp(unit, units[i].name))
            return units[i].s;
    return 0;
}

/* The record's configuration onto choice (pass 1: collects names and values instead). */
static vkat_result t4_config(vkat_replay_table *t, const char *path, size_t rec, json_object *config, int collect,
                             uint32_t *choice, vkat_error *err)
{
    size_t p = 0;
    if (json_object_is_type(config, json_type_object) && json_object_object_length(config) == (int)t->param_count) {
        json_object_object_foreach(config, name, val)
        {
            char buf[256];
            if (strcmp(name, t->param_names[p]))
                break;
            if (!py_str(val, buf, sizeof buf))
                return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                                 "results[%zu]: '%s' is %s; replay takes numbers, strings, booleans and null", rec,
                                 name, json_object_is_type(val, json_type_array) ? "a list" : "an object");
            long j = exact_index(t, p, buf);
            if (collect && j < 0) {
                if (!json_object_is_type(val, json_type_int) && !json_object_is_type(val, json_type_double))
                    t->categorical[p] = 1;
                if (!add_value(t, p, buf))
                    return nomem(err);
            } else if (!collect)
                choice[p] = (uint32_t)j;
            p++;
        }
    }
    if (p != t->param_count)
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                         "results[%zu]: its configuration does not name the first record's %zu parameters in order",
                         rec, t->param_count);
    return VKAT_OK;
}

static vkat_result load_t4(const char *path, json_object *root, json_object *results, const vkat_replay_load_desc *d,
                           vkat_replay_table **out, vkat_error *err)
{
    vkat_replay_table *t = NULL;
    uint32_t *choice = NULL;
    vkat_result r = VKAT_OK;
    size_t n = json_object_array_length(results);
    json_object *first = n ? json_object_array_get_idx(results, 0) : NULL, *config = NULL;
    if (!first || !json_object_object_get_ex(first, "configuration", &config) ||
        !json_object_is_type(config, json_type_object))
        return vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "T4 results without records (results[0] has no configuration)");
    size_t np = (size_t)json_object_object_length(config), p = 0;
    if (!(t = table_new(path, np)) || !(choice = calloc(np ? np : 1, sizeof *choice))) {
        r = nomem(err);
        goto cleanup;
    }
    if ((r = label_table(t, path, "T4 results", err)) != VKAT_OK ||
        (r = check_schema(path, root, "T4 results file", err)) != VKAT_OK ||
        (r = pick_objective(t, root, d, err)) != VKAT_OK)
        goto cleanup;
    json_object_object_foreach(config, name, val)
    {
        (void)val;
        if (!(t->param_names[p++] = vkat_strdup(name))) {
            r = nomem(err);
            goto cleanup;
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            json_object *rec = json_object_array_get_idx(results, i), *c = NULL, *inv = NULL, *ms = NULL;
            json_object_object_get_ex(rec, "configuration", &c);
            if ((r = t4_config(t, path, i, c, pass == 0, choice, err)) != VKAT_OK)
                goto cleanup;
            if (pass == 0)
                continue;
            const char *invalidity =
                json_object_object_get_ex(rec, "invalidity", &inv) ? json_object_get_string(inv) : "correct";
            int kind = ENTRY_NO_OBJECTIVE;
            double score = 0;
            if (!strcmp(invalidity, "constraints"))
                kind = ENTRY_MARKED_INVALID;
            else if (strcmp(invalidity, "correct"))
                kind = ENTRY_FAILED;
            else if (json_object_object_get_ex(rec, "measurements", &ms) && json_object_is_type(ms, json_type_array)) {
                for (size_t k = 0; k < json_object_array_length(ms); k++) {
                    json_object *m = json_object_array_get_idx(ms, k), *mn, *mv, *mu = NULL;
                    if (!json_object_object_get_ex(m, "name", &mn) ||
                        strcmp(json_object_get_string(mn), t->objective) || !json_object_object_get_ex(m, "value", &mv))
                        continue;
                    json_object_object_get_ex(m, "unit", &mu);
                    double unit = t->time ? time_unit_s(mu ? json_object_get_string(mu) : "ms") : 1;
                    if (unit == 0) {
                        r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0,
                                      "results[%zu]: time in unit '%s' (known: ms, s, "
                                      "us, ns)",
                                      i, json_object_get_string(mu));
                        goto cleanup;
                    }
                    kind = score_value(t, mv, unit, &score);
                    break;
                }
            }
            if ((r = count_entry(t, choice, kind, score, err)) != VKAT_OK)
                goto cleanup;
        }
        if (pass == 0) {
            for (size_t q = 0; q < np; q++)
                if (!t->categorical[q])
                    qsort(t->values[q], t->value_counts[q], sizeof *t->values[q], cmp_numeric);
            finish(t);
        }
    }
    if (t->valid == 0)
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, path, 0,
                      "the results have no valid configuration (no correct "
                      "record with a positive '%s' measurement)",
                      t->objective);

cleanup:
    free(choice);
    if (r != VKAT_OK) {
        vkat_replay_free(t);
        t = NULL;
    }
    *out = t;
    return r;
}

static vkat_result load_json(const char *path, const vkat_replay_load_desc *d, vkat_replay_table **out, vkat_error *err)
{
    size_t size = 0;
    char *text = vkat_read_file(path, &size);
    if (!text)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot read the table");
    json_object *root = NULL, *results;
    int repaired = 0;
    vkat_result r = parse_json(path, text, size, &root, &repaired, err);
    if (r == VKAT_OK && !json_object_is_type(root, json_type_object))
        r = vkat_fail(err, VKAT_ERR_SYNTAX, path, 0, "not a Kernel Tuner cache file nor T4 results (not an object)");
    else if (r == VKAT_OK && !json_object_object_get_ex(root, "cache", NULL) &&
             json_object_object_get_ex(root, "results", &results) && json_object_is_type(results, json_type_array))
        r = load_t4(path, root, results, d, out, err);
    else if (r == VKAT_OK)
        r = load_kt_cache(path, text, root, d, out, err);
    if (r == VKAT_OK && repaired) {
        (*out)->repaired = 1;
        vkat_log(VKAT_LOG_WARN,
                 "%s: the file is not closed (a Kernel Tuner run that was stopped?); read as Kernel "
                 "Tuner reads it, closed after its last entry (%llu entries)",
                 path,
                 (unsigned long long)((*out)->valid + (*out)->failed + (*out)->marked_invalid + (*out)->no_objective));
    }
    json_object_put(root);
    free(text);
    return r;
}

vkat_result vkat_replay_open(const char *path, const vkat_replay_load_desc *desc, vkat_replay_table **out,
                             vkat_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot open the table");
    char magic[16] = {0};
    size_t got = fread(magic, 1, sizeof magic, f);
    fclose(f);
    if (got == sizeof magic && !memcmp(magic, "SQLite format 3", 16)) {
        if (desc && ((desc->objective && strcmp(desc->objective, "time")) || desc->higher_is_better > 0))
            return vkat_fail(err, VKAT_ERR_USAGE, path, 0,
                             "a results database is scored by its median times only "
                             "(objective time, lower is better)");
        vkat_result r = load_db(path, desc ? desc->kernel : NULL, out, err);
        if (r == VKAT_OK &&
            (!((*out)->objective = vkat_strdup("time")) || !((*out)->format = vkat_strdup("vkautotune database")))) {
            vkat_replay_free(*out);
            *out = NULL;
            return nomem(err);
        }
        if (r == VKAT_OK)
            (*out)->time = 1;
        return r;
    }
    return load_json(path, desc, out, err);
}

vkat_result vkat_replay_load(const char *path, const char *kernel, vkat_replay_table **out, vkat_error *err)
{
    vkat_replay_load_desc d = {0};
    d.kernel = kernel;
    return vkat_replay_open(path, &d, out, err);
}

double vkat_replay_value(const vkat_replay_table *t, double score)
{
    if (!isfinite(score))
        return score;
    return t->time ? score * 1e3 : t->higher_is_better ? 1 / score : score;
}

const char *vkat_replay_unit(const vkat_replay_table *t)
{
    return t->time ? "ms" : t->objective;
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
