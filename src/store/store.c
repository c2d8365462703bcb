/* store.c — the results database: one SQLite row per evaluated variant, keyed by who measured what.
 *
 * Every put is its own committed transaction in a WAL-journaled file with synchronous=FULL, so a crash (even
 * kill -9) loses nothing that was finished, and a busy timeout lets two processes (say two tuning runs on two
 * GPUs) share one file. The schema version lives in PRAGMA user_version so later versions can migrate.
 * This file must not print, exit, or know about Vulkan objects: it stores plain rows. */
#define _POSIX_C_SOURCE 200809L
#include "store.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bump when the schema changes, and add a step to migrate() that brings version N-1 to N. */
#define STORE_SCHEMA_VERSION 5
/* Long enough for another process's put (a few ms) or checkpoint; short enough that a stuck writer is reported. */
#define STORE_BUSY_TIMEOUT_MS 30000

/* ---- Status names ------------------------------------------------------------------------------------------- */

static const char *const status_names[] = {
#define VKAT_X_NAME(name, str) str,
    VKAT_STATUS_LIST(VKAT_X_NAME)
#undef VKAT_X_NAME
};

const char *vkat_status_name(vkat_status s)
{
    return (unsigned)s < VKAT_STATUS_COUNT ? status_names[s] : "unknown";
}

int vkat_status_from_name(const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < VKAT_STATUS_COUNT; i++)
        if (strcmp(status_names[i], name) == 0)
            return i;
    return -1;
}

/* ---- Schema and statements ---------------------------------------------------------------------------------- */

/* Column order of every SELECT; read_row() depends on it. ROW_COLUMNS_V2: what a version-2 file has. */
#define ROW_COLUMNS_V2                                                                                           \
    "id, device_name, vendor, vendor_id, device_id, driver_version, driver_version_string, driver_uuid, "        \
    "pipeline_cache_uuid, kernel, template_hash, space_hash, problem, config, status, reason, median_s, min_s, " \
    "max_s, mad_s, samples, batch, flops, bytes, tflops, gbps, rel_l2, max_abs, spirv_hash, created, "            \
    "pipeline_stats"
#define ROW_COLUMNS ROW_COLUMNS_V2 ", tensor, race_bound_s"

/* The key without config (the "which measurement series" part) and with it (one variant). */
#define WHERE_SERIES                                                                                             \
    "device_name = ?1 AND vendor_id = ?2 AND device_id = ?3 AND driver_version = ?4 AND driver_uuid = ?5 AND "   \
    "kernel = ?6 AND template_hash = ?7 AND space_hash = ?8 AND problem = ?9"
#define WHERE_VARIANT WHERE_SERIES " AND config = ?10"

static const char schema_v1[] =
    "CREATE TABLE results ("
    " id INTEGER PRIMARY KEY,"
    " device_name TEXT NOT NULL, vendor TEXT NOT NULL, vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL,"
    " driver_version INTEGER NOT NULL, driver_version_string TEXT NOT NULL, driver_uuid TEXT NOT NULL,"
    " pipeline_cache_uuid TEXT NOT NULL,"
    " kernel TEXT NOT NULL, template_hash TEXT NOT NULL, space_hash TEXT NOT NULL, problem TEXT NOT NULL,"
    " config TEXT NOT NULL,"
    " status TEXT NOT NULL, reason TEXT NOT NULL,"
    " median_s REAL, min_s REAL, max_s REAL, mad_s REAL, samples INTEGER NOT NULL, batch INTEGER NOT NULL,"
    " flops REAL, bytes REAL, tflops REAL, gbps REAL, rel_l2 REAL, max_abs REAL,"
    " spirv_hash TEXT NOT NULL, created TEXT NOT NULL);"
    "CREATE UNIQUE INDEX results_key ON results (device_name, vendor_id, device_id, driver_version, driver_uuid,"
    " kernel, template_hash, space_hash, problem, config);"
    /* Ranking reads one series' ok rows by median; without this it would sort the whole series each time. */
    "CREATE INDEX results_rank ON results (device_name, vendor_id, device_id, driver_version, driver_uuid,"
    " kernel, template_hash, space_hash, problem, status, median_s);";

/* Version 2: the driver's pipeline statistics (VK_KHR_pipeline_executable_properties) of each variant. */
static const char schema_v2[] = "ALTER TABLE results ADD COLUMN pipeline_stats TEXT NOT NULL DEFAULT '';";
/* Version 3: which peak bounds a row's flops (vkat_row.tensor), and the cooperative-matrix peaks per shape. */
static const char schema_v3[] =
    "ALTER TABLE results ADD COLUMN tensor TEXT NOT NULL DEFAULT '';"
    "CREATE TABLE IF NOT EXISTS coopmat_peaks ("
    " device_name TEXT NOT NULL, vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL,"
    " driver_version INTEGER NOT NULL, driver_uuid TEXT NOT NULL,"
    " m INTEGER NOT NULL, n INTEGER NOT NULL, k INTEGER NOT NULL, a_type TEXT NOT NULL, b_type TEXT NOT NULL,"
    " c_type TEXT NOT NULL, result_type TEXT NOT NULL, tflops REAL, accumulators INTEGER NOT NULL,"
    " subgroups INTEGER NOT NULL,"
    " PRIMARY KEY (device_name, vendor_id, device_id, driver_version, driver_uuid, m, n, k, a_type, b_type,"
    " c_type, result_type));";
/* Version 4: racing (race.c). Rows of older files are full measurements: 0. */
static const char schema_v4[] = "ALTER TABLE results ADD COLUMN race_bound_s REAL NOT NULL DEFAULT 0;";
/* The SPIR-V that was measured, content-addressed by the rows' spirv_hash, so export writes those very bytes. */
static const char schema_v5[] =
    "CREATE TABLE IF NOT EXISTS spirv (hash TEXT PRIMARY KEY NOT NULL, bytes BLOB NOT NULL) WITHOUT ROWID;";
/* Added after schema version 1 without bumping it: an older vkautotune ignores a table it does not know, and
 * this one creates it in any version-1 file it opens. */
static const char schema_peaks[] =
    "CREATE TABLE IF NOT EXISTS peaks ("
    " device_name TEXT NOT NULL, vendor TEXT NOT NULL, vendor_id INTEGER NOT NULL, device_id INTEGER NOT NULL,"
    " driver_version INTEGER NOT NULL, driver_version_string TEXT NOT NULL, driver_uuid TEXT NOT NULL,"
    " pipeline_cache_uuid TEXT NOT NULL,"
    " mem_gbps REAL, fp32_tflops REAL, fp16_tflops REAL, h2d_gbps REAL, d2h_gbps REAL, created TEXT NOT NULL,"
    " PRIMARY KEY (device_name, vendor_id, device_id, driver_version, driver_uuid));";

#define PEAKS_COLUMNS                                                                                            \
    "device_name, vendor, vendor_id, device_id, driver_version, driver_version_string, driver_uuid, "            \
    "pipeline_cache_uuid, mem_gbps, fp32_tflops, fp16_tflops, h2d_gbps, d2h_gbps, created"

/* Listing order: one series after another (kernel, device, problem, hashes), ok rows first by median. */
#define LIST_ORDER                                                                                               \
    " ORDER BY kernel, device_name, vendor_id, device_id, driver_version, driver_uuid, problem, template_hash,"  \
    " space_hash, status <> 'ok', median_s, id"

enum {
    STMT_PUT,
    STMT_GET,
    STMT_BEST,
    STMT_COUNTS,
    STMT_ROWS_OK,
    STMT_ROWS_ALL,
    STMT_LIST_OK,
    STMT_LIST_ALL,
    STMT_PEAKS_PUT,
    STMT_PEAKS_GET,
    STMT_PEAKS_LIST,
    STMT_COUNT_
};

static const char *const stmt_sql[STMT_COUNT_] = {
    [STMT_PUT] =
        "INSERT INTO results (device_name, vendor_id, device_id, driver_version, driver_uuid, kernel, template_hash,"
        " space_hash, problem, config, vendor, driver_version_string, pipeline_cache_uuid, status, reason,"
        " median_s, min_s, max_s, mad_s, samples, batch, flops, bytes, tflops, gbps, rel_l2, max_abs, spirv_hash,"
        " created, pipeline_stats, tensor, race_bound_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
        " ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31,"
        " ?32)"
        " ON CONFLICT (device_name, vendor_id, device_id, driver_version, driver_uuid, kernel, template_hash,"
        " space_hash, problem, config) DO UPDATE SET vendor = excluded.vendor,"
        " driver_version_string = excluded.driver_version_string,"
        " pipeline_cache_uuid = excluded.pipeline_cache_uuid, status = excluded.status, reason = excluded.reason,"
        " median_s = excluded.median_s, min_s = excluded.min_s, max_s = excluded.max_s, mad_s = excluded.mad_s,"
        " samples = excluded.samples, batch = excluded.batch, flops = excluded.flops, bytes = excluded.bytes,"
        " tflops = excluded.tflops, gbps = excluded.gbps, rel_l2 = excluded.rel_l2, max_abs = excluded.max_abs,"
        " spirv_hash = excluded.spirv_hash, created = excluded.created, pipeline_stats = excluded.pipeline_stats,"
        " tensor = excluded.tensor,"
        " race_bound_s = excluded.race_bound_s"
        " RETURNING id",
    [STMT_GET] = "SELECT " ROW_COLUMNS " FROM results WHERE " WHERE_VARIANT,
    /* id breaks ties so equal medians rank the same way on every call. */
    [STMT_BEST] = "SELECT " ROW_COLUMNS " FROM results WHERE " WHERE_SERIES
                  " AND status = 'ok' ORDER BY median_s, id LIMIT ?10",
    [STMT_COUNTS] = "SELECT status, COUNT(*) FROM results WHERE " WHERE_SERIES " GROUP BY status",
    [STMT_ROWS_OK] = "SELECT " ROW_COLUMNS " FROM results WHERE " WHERE_SERIES
                     " AND status = 'ok' ORDER BY median_s, id",
    [STMT_ROWS_ALL] = "SELECT " ROW_COLUMNS " FROM results WHERE " WHERE_SERIES
                      " ORDER BY status <> 'ok', median_s, id",
    [STMT_LIST_OK] = "SELECT " ROW_COLUMNS " FROM results WHERE (?1 IS NULL OR kernel = ?1) AND status = 'ok'"
                     LIST_ORDER,
    [STMT_LIST_ALL] = "SELECT " ROW_COLUMNS " FROM results WHERE (?1 IS NULL OR kernel = ?1)" LIST_ORDER,
    [STMT_PEAKS_PUT] = "INSERT OR REPLACE INTO peaks (" PEAKS_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
                       " ?9, ?10, ?11, ?12, ?13, ?14)",
    [STMT_PEAKS_GET] = "SELECT " PEAKS_COLUMNS " FROM peaks WHERE device_name = ?1 AND vendor_id = ?2 AND"
                       " device_id = ?3 AND driver_version = ?4 AND driver_uuid = ?5",
    [STMT_PEAKS_LIST] = "SELECT " PEAKS_COLUMNS " FROM peaks ORDER BY device_name, driver_version",
};

struct vkat_store {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *stmt[STMT_COUNT_];
};

/* Every database error reads "path: sqlite's message", like "vkautotune.db: database is locked": the path is
 * err->file, so vkat_error_format() puts it in front the way it does for every other user file. */
static vkat_result db_fail(vkat_error *err, sqlite3 *db, const char *path)
{
    return vkat_fail(err, VKAT_ERR_DB, path, 0, "%s", db ? sqlite3_errmsg(db) : "out of memory");
}

static vkat_result exec(vkat_store *st, const char *sql, vkat_error *err)
{
    if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(err, st->db, st->path);
    return VKAT_OK;
}

/* Reads a one-integer pragma such as user_version. */
static vkat_result pragma_int(vkat_store *st, const char *sql, int64_t *out, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, st->db, st->path);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(err, st->db, st->path);
    return VKAT_OK;
}

/* Creates the schema in a fresh file, or brings an older one up to date, inside one immediate transaction so
 * two processes opening a new file at once cannot both create it. */
static vkat_result migrate(vkat_store *st, vkat_error *err)
{
    vkat_result r = exec(st, "BEGIN IMMEDIATE", err);
    if (r)
        return r;
    int64_t version = 0;
    r = pragma_int(st, "PRAGMA user_version", &version, err);
    if (r)
        goto rollback;
    if (version > STORE_SCHEMA_VERSION) {
        r = vkat_fail(err, VKAT_ERR_DB, st->path, 0,
                      "database schema version %lld is newer than this vkautotune's (%d); upgrade vkautotune",
                      (long long)version, STORE_SCHEMA_VERSION);
        goto rollback;
    }
    if (version == 0) {
        int64_t tables = 0;
        r = pragma_int(st, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'", &tables, err);
        if (r)
            goto rollback;
        if (tables != 0) {
            /* Someone else's SQLite file: adding our tables to it would be a surprise. */
            r = vkat_fail(err, VKAT_ERR_DB, st->path, 0, "not a vkautotune results database (it has other tables)");
            goto rollback;
        }
        r = exec(st, schema_v1, err);
        if (r)
            goto rollback;
    }
    /* upgrades[v - 1] takes schema version v to v + 1 (a fresh file is at 1 once schema_v1 ran). */
    static const char *const upgrades[STORE_SCHEMA_VERSION - 1] = {schema_v2, schema_v3, schema_v4, schema_v5};
    for (int64_t v = version < 1 ? 1 : version; v < STORE_SCHEMA_VERSION; v++) {
        r = exec(st, upgrades[v - 1], err);
        if (r)
            goto rollback;
    }
    if (version != STORE_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", STORE_SCHEMA_VERSION);
        r = exec(st, sql, err);
        if (r)
            goto rollback;
    }
    r = exec(st, schema_peaks, err);
    if (r)
        goto rollback;
    return exec(st, "COMMIT", err);
rollback:
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
}

/* Switching a new file to WAL upgrades a shared lock to an exclusive one. When two processes open a new file at
 * once both hold the shared lock, and SQLite breaks that deadlock by answering one SQLITE_BUSY at once, without
 * the busy handler; so this retries for as long as the busy timeout would have waited. */
static vkat_result set_wal(vkat_store *st, int *wal, vkat_error *err)
{
    double start = vkat_now();
    for (;;) {
        sqlite3_stmt *s = NULL;
        int rc = sqlite3_prepare_v2(st->db, "PRAGMA journal_mode = WAL", -1, &s, NULL);
        if (rc == SQLITE_OK) {
            rc = sqlite3_step(s);
            if (rc == SQLITE_ROW)
                *wal = sqlite3_stricmp((const char *)sqlite3_column_text(s, 0), "wal") == 0;
            /* finalize repeats a failed step's code and keeps its message for db_fail */
            int frc = sqlite3_finalize(s);
            if (rc != SQLITE_ROW)
                rc = frc;
        }
        if (rc == SQLITE_ROW)
            return VKAT_OK;
        if ((rc & 0xff) != SQLITE_BUSY || vkat_now() - start > STORE_BUSY_TIMEOUT_MS / 1000.0)
            return db_fail(err, st->db, st->path);
        sqlite3_sleep(5);
    }
}

/* What a file holds before anything is changed: its schema version and whether it has tables, so that a foreign
 * SQLite file is refused before it is switched to WAL, and a read-only open knows whether to migrate a copy. */
static vkat_result probe_schema(vkat_store *st, int64_t *version, int64_t *tables, int64_t *results, vkat_error *err)
{
    /* One statement, so one snapshot: read apart, another process creating the file could commit between the
     * version (0) and the table count (its new tables), and a fresh vkautotune file would look foreign. */
    static const char sql[] = "SELECT (SELECT user_version FROM pragma_user_version), "
                              "(SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'), "
                              "(SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'results')";
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, st->db, st->path);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int64(s, 0);
        *tables = sqlite3_column_int64(s, 1);
        *results = sqlite3_column_int64(s, 2);
    }
    sqlite3_finalize(s);
    vkat_result r = rc == SQLITE_ROW ? VKAT_OK : db_fail(err, st->db, st->path);
    if (!r && *version > STORE_SCHEMA_VERSION)
        r = vkat_fail(err, VKAT_ERR_DB, st->path, 0,
                      "database schema version %lld is newer than this vkautotune's (%d); upgrade vkautotune",
                      (long long)*version, STORE_SCHEMA_VERSION);
    return r;
}

static vkat_result prepare_all(vkat_store *st, vkat_error *err)
{
    for (int i = 0; i < STMT_COUNT_; i++)
        if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i], NULL) != SQLITE_OK)
            return db_fail(err, st->db, st->path);
    return VKAT_OK;
}

/* A database of an older schema, opened read-only, is copied into memory and migrated there: the statements
 * need the current columns, and the file must not change. Results databases are small (a row per variant). */
static vkat_result migrate_in_memory(vkat_store *st, vkat_error *err)
{
    sqlite3 *mem = NULL;
    if (sqlite3_open_v2(":memory:", &mem, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close_v2(mem);
        return vkat_fail(err, VKAT_ERR_NOMEM, st->path, 0, "out of memory copying an older database");
    }
    sqlite3_backup *b = sqlite3_backup_init(mem, "main", st->db, "main");
    int rc = b ? sqlite3_backup_step(b, -1) : SQLITE_ERROR;
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        vkat_result r = db_fail(err, st->db, st->path);
        sqlite3_close_v2(mem);
        return r;
    }
    sqlite3_close_v2(st->db);
    st->db = mem;
    return migrate(st, err);
}

/* Opens for reading only: no WAL switch, no migration of the file, no write of any kind (SQLITE_OPEN_READONLY).
 * A WAL file in a directory this process cannot write (no -shm can be made) is opened immutable. */
static vkat_result open_readonly(vkat_store *st, vkat_error *err)
{
    vkat_result r = VKAT_OK;
    int64_t version = 0, tables = 0, results = 0;
    for (int immutable = 0; immutable < 2; immutable++) {
        char *uri = sqlite3_mprintf("file:%s%s", st->path, immutable ? "?immutable=1" : "");
        sqlite3_close_v2(st->db);
        st->db = NULL;
        int rc = uri ? sqlite3_open_v2(uri, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                                       NULL)
                     : SQLITE_NOMEM;
        sqlite3_free(uri);
        if (rc != SQLITE_OK)
            return db_fail(err, st->db, st->path);
        sqlite3_extended_result_codes(st->db, 1);
        sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
        r = probe_schema(st, &version, &tables, &results, err);
        int code = sqlite3_errcode(st->db) & 0xff;
        if (!r || immutable || (code != SQLITE_CANTOPEN && code != SQLITE_READONLY))
            break;
    }
    if (r)
        return r;
    if (version < 1 || !results)
        return vkat_fail(err, VKAT_ERR_DB, st->path, 0, "not a vkautotune results database%s",
                         tables ? " (it has other tables)" : "");
    if (version < STORE_SCHEMA_VERSION && (r = migrate_in_memory(st, err)))
        return r;
    return prepare_all(st, err);
}

vkat_result vkat_store_open_readonly(const char *path, vkat_store **out, vkat_error *err)
{
    *out = NULL;
    vkat_store *st = calloc(1, sizeof *st);
    if (!st || !(st->path = vkat_strdup(path))) {
        free(st);
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory opening the results database");
    }
    FILE *probe = fopen(path, "rb");
    vkat_result r = VKAT_OK;
    if (!probe)
        r = vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot open: %s", strerror(errno));
    else
        fclose(probe);
    if (!r)
        r = open_readonly(st, err);
    if (r) {
        vkat_store_close(st);
        return r;
    }
    *out = st;
    return VKAT_OK;
}

vkat_result vkat_store_open(const char *path, vkat_store **out, vkat_error *err)
{
    *out = NULL;
    vkat_result r = VKAT_OK;
    vkat_store *st = calloc(1, sizeof *st);
    if (!st || !(st->path = vkat_strdup(path))) {
        free(st);
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory opening the results database");
    }
    int rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        r = db_fail(err, st->db, path);
        goto fail;
    }
    sqlite3_extended_result_codes(st->db, 1);
    sqlite3_busy_timeout(st->db, STORE_BUSY_TIMEOUT_MS);
    /* The first statement reads the header: a file that is not a database fails here, with sqlite's message.
     * journal_mode answers with the mode it got; anything but "wal" (a read-only directory, a network file
     * system without shared memory) would silently lose the two-process guarantee, so it is an error. */
    int64_t version = 0, tables = 0, results = 0;
    if ((r = probe_schema(st, &version, &tables, &results, err)))
        goto fail;
    if (version == 0 && tables != 0) {
        /* Someone else's SQLite file: refused before anything (the journal mode included) is changed. */
        r = vkat_fail(err, VKAT_ERR_DB, path, 0, "not a vkautotune results database (it has other tables)");
        goto fail;
    }
    int wal = 0;
    if ((r = set_wal(st, &wal, err)))
        goto fail;
    if (!wal) {
        r = vkat_fail(err, VKAT_ERR_DB, path, 0, "cannot switch the database to WAL journaling");
        goto fail;
    }
    if ((r = exec(st, "PRAGMA synchronous = FULL", err)))
        goto fail;
    if ((r = migrate(st, err)) || (r = prepare_all(st, err)))
        goto fail;
    *out = st;
    return VKAT_OK;
fail:
    vkat_store_close(st);
    return r;
}

const char *vkat_store_path(const vkat_store *st)
{
    return st->path;
}

void vkat_store_close(vkat_store *st)
{
    if (!st)
        return;
    for (int i = 0; i < STMT_COUNT_; i++)
        sqlite3_finalize(st->stmt[i]);
    /* close_v2 so an unfinalized statement (a bug) cannot leave the handle open and the WAL unmerged. */
    sqlite3_close_v2(st->db);
    free(st->path);
    free(st);
}

/* ---- Binding and reading rows ------------------------------------------------------------------------------- */

/* SQLite turns NaN into NULL; NULL reads back as NaN so "not measured" survives a round trip. */
static double column_double(sqlite3_stmt *s, int col)
{
    return sqlite3_column_type(s, col) == SQLITE_NULL ? NAN : sqlite3_column_double(s, col);
}

static void column_text(sqlite3_stmt *s, int col, char *dst, size_t size)
{
    const unsigned char *t = sqlite3_column_text(s, col);
    snprintf(dst, size, "%s", t ? (const char *)t : "");
}

static void read_row(sqlite3_stmt *s, vkat_row *row)
{
    memset(row, 0, sizeof *row);
    row->id = sqlite3_column_int64(s, 0);
    column_text(s, 1, row->device.name, sizeof row->device.name);
    column_text(s, 2, row->device.vendor, sizeof row->device.vendor);
    row->device.vendor_id = (uint32_t)sqlite3_column_int64(s, 3);
    row->device.device_id = (uint32_t)sqlite3_column_int64(s, 4);
    row->device.driver_version = (uint32_t)sqlite3_column_int64(s, 5);
    column_text(s, 6, row->device.driver_version_string, sizeof row->device.driver_version_string);
    column_text(s, 7, row->device.driver_uuid, sizeof row->device.driver_uuid);
    column_text(s, 8, row->device.pipeline_cache_uuid, sizeof row->device.pipeline_cache_uuid);
    column_text(s, 9, row->kernel, sizeof row->kernel);
    column_text(s, 10, row->template_hash, sizeof row->template_hash);
    column_text(s, 11, row->space_hash, sizeof row->space_hash);
    column_text(s, 12, row->problem, sizeof row->problem);
    column_text(s, 13, row->config, sizeof row->config);
    /* A status written by a newer vkautotune is unknown here; it must not rank, so it reads as an error. */
    int status = vkat_status_from_name((const char *)sqlite3_column_text(s, 14));
    row->status = status < 0 ? VKAT_STATUS_ERROR : (vkat_status)status;
    column_text(s, 15, row->reason, sizeof row->reason);
    row->median_s = column_double(s, 16);
    row->min_s = column_double(s, 17);
    row->max_s = column_double(s, 18);
    row->mad_s = column_double(s, 19);
    row->samples = (uint32_t)sqlite3_column_int64(s, 20);
    row->batch = (uint32_t)sqlite3_column_int64(s, 21);
    row->flops = column_double(s, 22);
    row->bytes = column_double(s, 23);
    row->tflops = column_double(s, 24);
    row->gbps = column_double(s, 25);
    row->rel_l2 = column_double(s, 26);
    row->max_abs = column_double(s, 27);
    column_text(s, 28, row->spirv_hash, sizeof row->spirv_hash);
    column_text(s, 29, row->created, sizeof row->created);
    column_text(s, 30, row->pipeline_stats, sizeof row->pipeline_stats);
    column_text(s, 31, row->tensor, sizeof row->tensor);
    row->race_bound_s = sqlite3_column_double(s, 32);
}

/* Binds ?1..?9 (the series) and, with `config`, ?10. */
static int bind_key(sqlite3_stmt *s, const vkat_row *key, int config)
{
    int rc = SQLITE_OK;
#define B(expr)                                                                                                  \
    if (rc == SQLITE_OK)                                                                                         \
    rc = (expr)
    B(sqlite3_bind_text(s, 1, key->device.name, -1, SQLITE_STATIC));
    B(sqlite3_bind_int64(s, 2, key->device.vendor_id));
    B(sqlite3_bind_int64(s, 3, key->device.device_id));
    B(sqlite3_bind_int64(s, 4, key->device.driver_version));
    B(sqlite3_bind_text(s, 5, key->device.driver_uuid, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 6, key->kernel, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 7, key->template_hash, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 8, key->space_hash, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 9, key->problem, -1, SQLITE_STATIC));
    if (config)
        B(sqlite3_bind_text(s, 10, key->config, -1, SQLITE_STATIC));
#undef B
    return rc;
}

/* Statements are reused: reset and unbind after each use so no SQLITE_STATIC pointer outlives its call. */
static void done(sqlite3_stmt *s)
{
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
}

/* "2026-11-29T23:38:08Z" */
static void now_iso8601(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- Queries ------------------------------------------------------------------------------------------------ */

vkat_result vkat_store_put(vkat_store *st, vkat_row *row, vkat_error *err)
{
    if (row->created[0] == 0)
        now_iso8601(row->created, sizeof row->created);
    sqlite3_stmt *s = st->stmt[STMT_PUT];
    int rc = bind_key(s, row, 1);
#define B(expr)                                                                                                  \
    if (rc == SQLITE_OK)                                                                                         \
    rc = (expr)
    B(sqlite3_bind_text(s, 11, row->device.vendor, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 12, row->device.driver_version_string, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 13, row->device.pipeline_cache_uuid, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 14, vkat_status_name(row->status), -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 15, row->reason, -1, SQLITE_STATIC));
    B(sqlite3_bind_double(s, 16, row->median_s));
    B(sqlite3_bind_double(s, 17, row->min_s));
    B(sqlite3_bind_double(s, 18, row->max_s));
    B(sqlite3_bind_double(s, 19, row->mad_s));
    B(sqlite3_bind_int64(s, 20, row->samples));
    B(sqlite3_bind_int64(s, 21, row->batch));
    B(sqlite3_bind_double(s, 22, row->flops));
    B(sqlite3_bind_double(s, 23, row->bytes));
    B(sqlite3_bind_double(s, 24, row->tflops));
    B(sqlite3_bind_double(s, 25, row->gbps));
    B(sqlite3_bind_double(s, 26, row->rel_l2));
    B(sqlite3_bind_double(s, 27, row->max_abs));
    B(sqlite3_bind_text(s, 28, row->spirv_hash, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 29, row->created, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 30, row->pipeline_stats, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 31, row->tensor, -1, SQLITE_STATIC));
    B(sqlite3_bind_double(s, 32, row->status == VKAT_STATUS_RACED ? row->race_bound_s : 0));
#undef B
    if (rc != SQLITE_OK) {
        done(s);
        return db_fail(err, st->db, st->path);
    }
    /* Outside an explicit transaction this single statement commits by itself (autocommit): one put, one
     * durable transaction. RETURNING gives the id on both the insert and the update path. */
    rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        row->id = sqlite3_column_int64(s, 0);
        rc = sqlite3_step(s);
    }
    if (rc != SQLITE_DONE) {
        vkat_result r = db_fail(err, st->db, st->path);
        done(s);
        return r;
    }
    done(s);
    return VKAT_OK;
}

/* Steps a bound query that returns at most one row; `rc` is the result of binding it. 1: the row is ready to read,
 * 0: there is none, -1: err is filled. The caller reads the row, then resets the statement with done(). */
static int step_one(vkat_store *st, sqlite3_stmt *s, int rc, vkat_error *err)
{
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    db_fail(err, st->db, st->path);
    return -1;
}

int vkat_store_get(vkat_store *st, const vkat_row *key, vkat_row *found, vkat_error *err)
{
    sqlite3_stmt *s = st->stmt[STMT_GET];
    int ret = step_one(st, s, bind_key(s, key, 1), err);
    if (ret == 1)
        read_row(s, found);
    done(s);
    return ret;
}

/* Steps a bound row query into (rows, count, cap): with `grow` the array is realloc'ed as needed, without it
 * reading stops when the caller's cap entries are full. */
static vkat_result collect(vkat_store *st, sqlite3_stmt *s, vkat_row **rows, size_t *count, size_t *cap,
                           int grow, vkat_error *err)
{
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*count == *cap) {
            if (!grow)
                break;
            size_t ncap = *cap ? *cap * 2 : 16;
            vkat_row *n = realloc(*rows, ncap * sizeof *n);
            if (!n)
                return vkat_fail(err, VKAT_ERR_NOMEM, st->path, 0, "out of memory reading results");
            *rows = n;
            *cap = ncap;
        }
        read_row(s, &(*rows)[(*count)++]);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return db_fail(err, st->db, st->path);
    return VKAT_OK;
}

vkat_result vkat_store_best(vkat_store *st, const vkat_row *key, vkat_row *rows, size_t cap, size_t *count,
                            vkat_error *err)
{
    *count = 0;
    if (cap == 0)
        return VKAT_OK;
    sqlite3_stmt *s = st->stmt[STMT_BEST];
    int rc = bind_key(s, key, 0);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s, 10, cap > INT64_MAX ? INT64_MAX : (int64_t)cap);
    vkat_result r;
    if (rc != SQLITE_OK)
        r = db_fail(err, st->db, st->path);
    else
        r = collect(st, s, &rows, count, &cap, 0, err);
    done(s);
    return r;
}

vkat_result vkat_store_rows(vkat_store *st, const vkat_row *key, int include_failed, vkat_row **rows, size_t *count,
                            vkat_error *err)
{
    *rows = NULL;
    *count = 0;
    sqlite3_stmt *s = st->stmt[include_failed ? STMT_ROWS_ALL : STMT_ROWS_OK];
    size_t cap = 0;
    vkat_result r;
    if (bind_key(s, key, 0) != SQLITE_OK)
        r = db_fail(err, st->db, st->path);
    else
        r = collect(st, s, rows, count, &cap, 1, err);
    done(s);
    if (r) {
        free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return r;
}

vkat_result vkat_store_resolve_aborted(vkat_store *st, vkat_status status, const char *reason, const char *claim,
                                       uint64_t *count, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    vkat_result r = VKAT_OK;
    if (sqlite3_prepare_v2(st->db,
                           "UPDATE results SET status = ?1, reason = ?2 WHERE status = 'aborted' AND "
                           "(?3 IS NULL OR instr(reason, ?3) > 0)",
                           -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_text(s, 1, vkat_status_name(status), -1, SQLITE_STATIC) != SQLITE_OK ||
        sqlite3_bind_text(s, 2, reason, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
        (claim ? sqlite3_bind_text(s, 3, claim, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(s, 3)) != SQLITE_OK ||
        sqlite3_step(s) != SQLITE_DONE)
        r = db_fail(err, st->db, st->path);
    else if (count)
        *count = (uint64_t)sqlite3_changes(st->db);
    sqlite3_finalize(s);
    return r;
}

vkat_result vkat_store_counts(vkat_store *st, const vkat_row *key, uint64_t counts[VKAT_STATUS_COUNT],
                              vkat_error *err)
{
    memset(counts, 0, sizeof(uint64_t) * VKAT_STATUS_COUNT);
    sqlite3_stmt *s = st->stmt[STMT_COUNTS];
    int rc = bind_key(s, key, 0);
    if (rc == SQLITE_OK) {
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            int status = vkat_status_from_name((const char *)sqlite3_column_text(s, 0));
            counts[status < 0 ? VKAT_STATUS_ERROR : status] += (uint64_t)sqlite3_column_int64(s, 1);
        }
    }
    vkat_result r = VKAT_OK;
    if (rc != SQLITE_DONE)
        r = db_fail(err, st->db, st->path);
    done(s);
    return r;
}

vkat_result vkat_store_winners(vkat_store *st, const vkat_row *key, vkat_row **rows, size_t *count, vkat_error *err)
{
    /* Window functions (SQLite >= 3.25) pick each series' best row exactly as STMT_BEST ranks one series. */
    static const char sql[] =
        "SELECT " ROW_COLUMNS " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY device_name, vendor_id, device_id,"
        " driver_version, driver_uuid, problem ORDER BY median_s, id) AS rank FROM results"
        " WHERE kernel = ?1 AND template_hash = ?2 AND space_hash = ?3 AND status = 'ok')"
        " WHERE rank = 1 ORDER BY device_name, driver_version, driver_uuid, problem";
    *rows = NULL;
    *count = 0;
    sqlite3_stmt *s = NULL;
    size_t cap = 0;
    vkat_result r;
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK ||
        sqlite3_bind_text(s, 1, key->kernel, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
        sqlite3_bind_text(s, 2, key->template_hash, -1, SQLITE_TRANSIENT) != SQLITE_OK ||
        sqlite3_bind_text(s, 3, key->space_hash, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        r = db_fail(err, st->db, st->path);
    else
        r = collect(st, s, rows, count, &cap, 1, err);
    sqlite3_finalize(s);
    if (r) {
        free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return r;
}

/* ---- Listing ------------------------------------------------------------------------------------------------ */

vkat_result vkat_store_list(vkat_store *st, const char *kernel, int include_failed, vkat_row **rows, size_t *count,
                            vkat_error *err)
{
    *rows = NULL;
    *count = 0;
    sqlite3_stmt *s = st->stmt[include_failed ? STMT_LIST_ALL : STMT_LIST_OK];
    size_t cap = 0;
    vkat_result r;
    int rc = kernel ? sqlite3_bind_text(s, 1, kernel, -1, SQLITE_STATIC) : sqlite3_bind_null(s, 1);
    if (rc != SQLITE_OK)
        r = db_fail(err, st->db, st->path);
    else
        r = collect(st, s, rows, count, &cap, 1, err);
    done(s);
    if (r) {
        free(*rows);
        *rows = NULL;
        *count = 0;
    }
    return r;
}

/* ---- Peaks -------------------------------------------------------------------------------------------------- */

static void read_peaks(sqlite3_stmt *s, vkat_peaks *p)
{
    memset(p, 0, sizeof *p);
    column_text(s, 0, p->device.name, sizeof p->device.name);
    column_text(s, 1, p->device.vendor, sizeof p->device.vendor);
    p->device.vendor_id = (uint32_t)sqlite3_column_int64(s, 2);
    p->device.device_id = (uint32_t)sqlite3_column_int64(s, 3);
    p->device.driver_version = (uint32_t)sqlite3_column_int64(s, 4);
    column_text(s, 5, p->device.driver_version_string, sizeof p->device.driver_version_string);
    column_text(s, 6, p->device.driver_uuid, sizeof p->device.driver_uuid);
    column_text(s, 7, p->device.pipeline_cache_uuid, sizeof p->device.pipeline_cache_uuid);
    p->mem_gbps = column_double(s, 8);
    p->fp32_tflops = column_double(s, 9);
    p->fp16_tflops = column_double(s, 10);
    p->h2d_gbps = column_double(s, 11);
    p->d2h_gbps = column_double(s, 12);
    column_text(s, 13, p->created, sizeof p->created);
}

/* ---- Measured SPIR-V (schema 5): bytes by their hash, written once, never replaced ------------------------- */

vkat_result vkat_store_put_spirv(vkat_store *st, const char *hash, const void *bytes, size_t size, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    /* The same hash is the same content: a second put of it (another configuration, a rerun) changes nothing. */
    if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO spirv (hash, bytes) VALUES (?1, ?2)", -1, &s, NULL) !=
        SQLITE_OK)
        return db_fail(err, st->db, st->path);
    int rc = sqlite3_bind_text(s, 1, hash, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_blob64(s, 2, bytes, size, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    vkat_result r = rc == SQLITE_DONE ? VKAT_OK : db_fail(err, st->db, st->path);
    sqlite3_finalize(s);
    return r;
}

int vkat_store_get_spirv(vkat_store *st, const char *hash, void **bytes, size_t *size, vkat_error *err)
{
    *bytes = NULL;
    *size = 0;
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(st->db, "SELECT bytes FROM spirv WHERE hash = ?1", -1, &s, NULL) != SQLITE_OK) {
        db_fail(err, st->db, st->path);
        return -1;
    }
    int found = -1, rc = sqlite3_bind_text(s, 1, hash, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    if (rc == SQLITE_DONE) {
        found = 0;
    } else if (rc == SQLITE_ROW) {
        size_t n = (size_t)sqlite3_column_bytes(s, 0);
        const void *data = sqlite3_column_blob(s, 0);
        *bytes = malloc(n ? n : 1);
        if (!*bytes) {
            vkat_fail(err, VKAT_ERR_NOMEM, st->path, 0, "out of memory reading stored SPIR-V");
        } else {
            if (n)
                memcpy(*bytes, data, n);
            *size = n;
            found = 1;
        }
    } else {
        db_fail(err, st->db, st->path);
    }
    sqlite3_finalize(s);
    return found;
}

/* Every stored module of the source that the destination lacks (same hash, same bytes: nothing to decide). */
static vkat_result merge_spirv(vkat_store *dst, sqlite3 *src, const char *src_path, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(src, "SELECT hash, bytes FROM spirv", -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, src, src_path);
    vkat_result r = VKAT_OK;
    int rc;
    while (!r && (rc = sqlite3_step(s)) == SQLITE_ROW)
        r = vkat_store_put_spirv(dst, (const char *)sqlite3_column_text(s, 0), sqlite3_column_blob(s, 1),
                                 (size_t)sqlite3_column_bytes(s, 1), err);
    if (!r && rc != SQLITE_DONE)
        r = db_fail(err, src, src_path);
    sqlite3_finalize(s);
    return r;
}

/* ---- Cooperative-matrix peaks (schema 3): one row per shape, replaced as a whole with the device's peaks ---- */

#define COOPMAT_WHERE                                                                                            \
    " WHERE device_name = ?1 AND vendor_id = ?2 AND device_id = ?3 AND driver_version = ?4 AND driver_uuid = ?5"

static int bind_device(sqlite3_stmt *s, const vkat_device_key *d)
{
    int rc = sqlite3_bind_text(s, 1, d->name, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s, 2, d->vendor_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s, 3, d->device_id);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_int64(s, 4, d->driver_version);
    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(s, 5, d->driver_uuid, -1, SQLITE_TRANSIENT);
    return rc;
}

/* Fills p->coopmat with the rows of p->device in `db`, in the order they were written (the device's). */
static vkat_result read_coopmat_peaks(sqlite3 *db, const char *path, vkat_peaks *p, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    p->coopmat_count = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT m, n, k, a_type, b_type, c_type, result_type, tflops, accumulators, subgroups"
                           " FROM coopmat_peaks" COOPMAT_WHERE " ORDER BY rowid",
                           -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, db, path);
    int rc = bind_device(s, &p->device);
    while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        rc = SQLITE_OK;
        if (p->coopmat_count == VKAT_MAX_COOPMAT_PEAKS)
            continue;
        vkat_coopmat_peak *c = &p->coopmat[p->coopmat_count++];
        c->m = (uint32_t)sqlite3_column_int64(s, 0);
        c->n = (uint32_t)sqlite3_column_int64(s, 1);
        c->k = (uint32_t)sqlite3_column_int64(s, 2);
        column_text(s, 3, c->a_type, sizeof c->a_type);
        column_text(s, 4, c->b_type, sizeof c->b_type);
        column_text(s, 5, c->c_type, sizeof c->c_type);
        column_text(s, 6, c->result_type, sizeof c->result_type);
        c->tflops = column_double(s, 7);
        c->accumulators = (uint32_t)sqlite3_column_int64(s, 8);
        c->subgroups = (uint32_t)sqlite3_column_int64(s, 9);
    }
    vkat_result r = rc == SQLITE_DONE ? VKAT_OK : db_fail(err, db, path);
    sqlite3_finalize(s);
    return r;
}

/* Replaces the rows of p->device with p->coopmat; inside the caller's savepoint. */
static vkat_result write_coopmat_peaks(vkat_store *st, const vkat_peaks *p, vkat_error *err)
{
    sqlite3_stmt *del = NULL, *ins = NULL;
    int rc = sqlite3_prepare_v2(st->db, "DELETE FROM coopmat_peaks" COOPMAT_WHERE, -1, &del, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(st->db,
                                "INSERT INTO coopmat_peaks (device_name, vendor_id, device_id, driver_version,"
                                " driver_uuid, m, n, k, a_type, b_type, c_type, result_type, tflops, accumulators,"
                                " subgroups) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                                -1, &ins, NULL);
    if (rc == SQLITE_OK)
        rc = bind_device(del, &p->device);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(del) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    for (uint32_t i = 0; rc == SQLITE_OK && i < p->coopmat_count && i < VKAT_MAX_COOPMAT_PEAKS; i++) {
        const vkat_coopmat_peak *c = &p->coopmat[i];
        sqlite3_reset(ins);
        rc = bind_device(ins, &p->device);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(ins, 6, c->m);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(ins, 7, c->n);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(ins, 8, c->k);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text(ins, 9, c->a_type, -1, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text(ins, 10, c->b_type, -1, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text(ins, 11, c->c_type, -1, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text(ins, 12, c->result_type, -1, SQLITE_TRANSIENT);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_double(ins, 13, c->tflops);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(ins, 14, c->accumulators);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_int64(ins, 15, c->subgroups);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    }
    vkat_result r = rc == SQLITE_OK ? VKAT_OK : db_fail(err, st->db, st->path);
    sqlite3_finalize(del);
    sqlite3_finalize(ins);
    return r;
}

vkat_result vkat_store_put_peaks(vkat_store *st, vkat_peaks *p, vkat_error *err)
{
    if (p->created[0] == 0)
        now_iso8601(p->created, sizeof p->created);
    sqlite3_stmt *s = st->stmt[STMT_PEAKS_PUT];
    int rc = SQLITE_OK;
#define B(expr)                                                                                                  \
    if (rc == SQLITE_OK)                                                                                         \
    rc = (expr)
    B(sqlite3_bind_text(s, 1, p->device.name, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 2, p->device.vendor, -1, SQLITE_STATIC));
    B(sqlite3_bind_int64(s, 3, p->device.vendor_id));
    B(sqlite3_bind_int64(s, 4, p->device.device_id));
    B(sqlite3_bind_int64(s, 5, p->device.driver_version));
    B(sqlite3_bind_text(s, 6, p->device.driver_version_string, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 7, p->device.driver_uuid, -1, SQLITE_STATIC));
    B(sqlite3_bind_text(s, 8, p->device.pipeline_cache_uuid, -1, SQLITE_STATIC));
    B(sqlite3_bind_double(s, 9, p->mem_gbps));
    B(sqlite3_bind_double(s, 10, p->fp32_tflops));
    B(sqlite3_bind_double(s, 11, p->fp16_tflops));
    B(sqlite3_bind_double(s, 12, p->h2d_gbps));
    B(sqlite3_bind_double(s, 13, p->d2h_gbps));
    B(sqlite3_bind_text(s, 14, p->created, -1, SQLITE_STATIC));
#undef B
    /* The scalar peaks and the shapes' rows commit together (a savepoint also nests in merge's transaction). */
    vkat_result r = exec(st, "SAVEPOINT put_peaks", err);
    if (r) {
        done(s);
        return r;
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_step(s);
    r = rc == SQLITE_DONE ? VKAT_OK : db_fail(err, st->db, st->path);
    done(s);
    if (!r)
        r = write_coopmat_peaks(st, p, err);
    if (r) {
        sqlite3_exec(st->db, "ROLLBACK TO put_peaks; RELEASE put_peaks", NULL, NULL, NULL);
        return r;
    }
    return exec(st, "RELEASE put_peaks", err);
}

int vkat_store_get_peaks(vkat_store *st, const vkat_device_key *device, vkat_peaks *out, vkat_error *err)
{
    sqlite3_stmt *s = st->stmt[STMT_PEAKS_GET];
    int rc = bind_device(s, device);
    int ret = step_one(st, s, rc, err);
    if (ret == 1)
        read_peaks(s, out);
    done(s);
    if (ret == 1 && read_coopmat_peaks(st->db, st->path, out, err))
        return -1;
    return ret;
}

/* Reads every row of a prepared peaks query into a growing array. */
static vkat_result collect_peaks(sqlite3 *db, const char *path, sqlite3_stmt *s, vkat_peaks **out, size_t *count,
                                 vkat_error *err)
{
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*count == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            vkat_peaks *n = realloc(*out, ncap * sizeof *n);
            if (!n)
                return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory reading peaks");
            *out = n;
            cap = ncap;
        }
        read_peaks(s, &(*out)[(*count)++]);
    }
    return rc == SQLITE_DONE ? VKAT_OK : db_fail(err, db, path);
}

vkat_result vkat_store_list_peaks(vkat_store *st, vkat_peaks **out, size_t *count, vkat_error *err)
{
    *out = NULL;
    *count = 0;
    vkat_result r = collect_peaks(st->db, st->path, st->stmt[STMT_PEAKS_LIST], out, count, err);
    done(st->stmt[STMT_PEAKS_LIST]);
    for (size_t i = 0; !r && i < *count; i++)
        r = read_coopmat_peaks(st->db, st->path, &(*out)[i], err);
    if (r) {
        free(*out);
        *out = NULL;
        *count = 0;
    }
    return r;
}

/* ---- Merging ------------------------------------------------------------------------------------------------ */

/* Does the source's row win over the destination's (same key)? A total order but for exact ties, which keep the
 * destination's row: that makes a merge idempotent and independent of input order. */
/* How much a row knows: a full measurement, then a raced-out one (checked, partly timed), then a failure. */
static int row_rank(const vkat_row *r)
{
    return r->status == VKAT_STATUS_OK ? 2 : r->status == VKAT_STATUS_RACED ? 1 : 0;
}

static int row_wins(const vkat_row *src, const vkat_row *dst)
{
    int src_rank = row_rank(src), dst_rank = row_rank(dst);
    if (src_rank != dst_rank)
        return src_rank > dst_rank;
    int src_ok = src_rank == 2;
    int c = strcmp(src->created, dst->created);
    if (c != 0)
        return c > 0;
    if (src_ok && src->median_s != dst->median_s)
        return src->median_s < dst->median_s;
    return 0;
}

static vkat_result merge_rows(vkat_store *dst, sqlite3 *src, const char *src_path, int64_t version,
                              vkat_merge_stats *stats, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    /* The source was migrated in memory (vkat_store_open_readonly): every column is there. */
    (void)version;
    const char *sql = "SELECT " ROW_COLUMNS " FROM results ORDER BY id";
    if (sqlite3_prepare_v2(src, sql, -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, src, src_path);
    vkat_result r = VKAT_OK;
    int rc;
    vkat_row row, have;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        read_row(s, &row);
        stats->read++;
        int found = vkat_store_get(dst, &row, &have, err);
        if (found < 0) {
            r = VKAT_ERR_DB;
            break;
        }
        if (found && !row_wins(&row, &have)) {
            stats->kept++;
            continue;
        }
        if ((r = vkat_store_put(dst, &row, err)))
            break;
        if (found)
            stats->replaced++;
        else
            stats->added++;
    }
    if (!r && rc != SQLITE_DONE)
        r = db_fail(err, src, src_path);
    sqlite3_finalize(s);
    return r;
}

static vkat_result merge_peaks(vkat_store *dst, sqlite3 *src, const char *src_path, int64_t version,
                               vkat_merge_stats *stats, vkat_error *err)
{
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(src, "SELECT " PEAKS_COLUMNS " FROM peaks", -1, &s, NULL) != SQLITE_OK)
        return db_fail(err, src, src_path);
    vkat_peaks *all = NULL;
    size_t n = 0;
    vkat_result r = collect_peaks(src, src_path, s, &all, &n, err);
    sqlite3_finalize(s);
    for (size_t i = 0; !r && version >= 3 && i < n; i++)
        r = read_coopmat_peaks(src, src_path, &all[i], err);
    for (size_t i = 0; !r && i < n; i++) {
        vkat_peaks have;
        stats->peaks_read++;
        int found = vkat_store_get_peaks(dst, &all[i].device, &have, err);
        if (found < 0) {
            r = VKAT_ERR_DB;
            break;
        }
        /* The later measurement wins; a tie keeps the destination's. */
        if (found && strcmp(all[i].created, have.created) <= 0) {
            stats->peaks_kept++;
            continue;
        }
        if ((r = vkat_store_put_peaks(dst, &all[i], err)))
            break;
        if (found)
            stats->peaks_replaced++;
        else
            stats->peaks_added++;
    }
    free(all);
    return r;
}

vkat_result vkat_store_merge(vkat_store *dst, const char *src_path, vkat_merge_stats *stats, vkat_error *err)
{
    vkat_merge_stats local = {0};
    if (!stats)
        stats = &local;
    /* Read as compare and report read: nothing in the input changes, a read-only file is fine, an older schema
     * is brought up to date in memory. */
    vkat_store *in = NULL;
    vkat_result r = vkat_store_open_readonly(src_path, &in, err);
    if (r)
        return r;
    sqlite3 *src = in->db;
    int64_t peaks = 0, version = 0; /* an older file is migrated in memory, so this is the current version */
    if ((r = pragma_int(in, "PRAGMA user_version", &version, err)))
        goto done;
    if ((r = pragma_int(in, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'peaks'", &peaks,
                        err)))
        goto done;
    /* One transaction for the whole source: fast (one sync), and a failed merge leaves the destination as it was. */
    if ((r = exec(dst, "BEGIN IMMEDIATE", err)))
        goto done;
    vkat_merge_stats add = {0};
    r = merge_rows(dst, src, src_path, version, &add, err);
    if (!r && peaks)
        r = merge_peaks(dst, src, src_path, version, &add, err);
    if (!r) /* the source is at the current schema (migrated in memory if older): the table exists */
        r = merge_spirv(dst, src, src_path, err);
    if (!r)
        r = exec(dst, "COMMIT", err);
    if (r) {
        sqlite3_exec(dst->db, "ROLLBACK", NULL, NULL, NULL);
        goto done;
    }
    stats->read += add.read;
    stats->added += add.added;
    stats->replaced += add.replaced;
    stats->kept += add.kept;
    stats->peaks_read += add.peaks_read;
    stats->peaks_added += add.peaks_added;
    stats->peaks_replaced += add.peaks_replaced;
    stats->peaks_kept += add.peaks_kept;
done:
    vkat_store_close(in);
    return r;
}
