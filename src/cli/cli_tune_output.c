/* cli_tune_output.c — what a tuning run prints on stdout, per device group and in device order: the ranked table
 * (with peaks, transfers and --stats), --json or --csv, and on stderr why a group found nothing. */
#include "cli_tune.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- Output ------------------------------------------------------------------------------------------------------ */

/* What a device's table shows beyond the rows: its peaks (when known) and the transfer cost (with
 * --include-transfers; NaN otherwise). */
typedef struct table_extra {
    const vkat_peaks *peaks; /* NULL: unknown */
    double transfer_s;       /* NaN: not asked or unknown */
    double bytes_in, bytes_out;
    int stats; /* --stats: the driver's pipeline statistics after each row */
    uint32_t shard_index, shard_count; /* --shard */
} table_extra;

/* Variants that keep values in memory instead of registers (vkat_stats_spills), said only when some did: the usual
 * cause of a variant far slower than its neighbours, and a sign that the space or the template needs a look. */
static void print_spills(FILE *o, const vkat_tune_times *tm, const vkat_row *best)
{
    if (!tm->spilled)
        return;
    char what[96] = "";
    int best_spills = vkat_stats_spills(best->pipeline_stats, what, sizeof what);
    fprintf(o,
            "spills: %llu of %llu variants keep values in memory, not registers (driver statistics: spills or "
            "arrays indexed at run time; --stats shows which); ",
            (unsigned long long)tm->spilled, (unsigned long long)tm->spill_known);
    if (best_spills == 1)
        fprintf(o, "rank 1 does too (%s)\n", what);
    else
        fprintf(o, "rank 1 does not\n");
}

static void print_table(FILE *o, const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                        size_t n, const table_extra *x)
{
    const vkat_tune_progress *t = &rep->totals;
    fprintf(o, "\n%s — kernel %s, problem %s\n", dev->name, rep->key.kernel, rep->key.problem);
    if (x->shard_count > 1)
        fprintf(o, "shard %u/%u: %llu configurations of other shards skipped\n", x->shard_index, x->shard_count,
                (unsigned long long)t->other_shard);
    char raced[48] = ""; /* only when racing cut some: runs without any print as before */
    if (t->raced)
        snprintf(raced, sizeof raced, ", %llu raced out", (unsigned long long)t->raced);
    fprintf(o, "strategy %s: %llu evaluated (%llu from the database), %llu failed%s, %llu invalid skipped, %.1f s\n",
            rep->strategy, (unsigned long long)t->evaluated, (unsigned long long)t->resumed,
            (unsigned long long)t->failed, raced, (unsigned long long)t->invalid, t->elapsed_s);
    const vkat_tune_times *tm = &rep->times;
    if (t->evaluated > t->resumed)
        fprintf(o,
                "time: instantiate %.2f s, compile %.2f s (%llu from cache), validate %.2f s, pipeline %.2f s on %u "
                "thread(s); check %.2f s, measure %.2f s (warm-up %.2f s), waiting %.2f s, storing %.2f s\n",
                tm->instantiate, tm->compile, (unsigned long long)tm->compile_hits, tm->validate, tm->pipeline,
                tm->jobs, tm->check, tm->measure, tm->warmup, tm->wait, tm->store);
    if (x->stats && tm->checked)
        fprintf(o, "check: %.4f s per variant over %llu checked run(s), %llu passed on the device\n",
                tm->check / (double)tm->checked, (unsigned long long)tm->checked, (unsigned long long)tm->checked_gpu);
    if (n == 0) {
        fprintf(o, "no correct variant found\n");
        return;
    }
    int xfer = !isnan(x->transfer_s);
    if (xfer)
        fprintf(o, "transfers: %.4g MB in (host->device), %.4g MB out (device->host): %.4f ms at the measured link\n",
                x->bytes_in / 1e6, x->bytes_out / 1e6, x->transfer_s * 1e3);
    fprintf(o, "%4s  %10s  %10s  %8s  %9s  %9s  %6s  ", "rank", "median ms", "min ms", "mad %", "TFLOP/s", "GB/s",
            "% peak");
    if (xfer)
        fprintf(o, "%10s  ", "+xfer ms");
    fprintf(o, "configuration\n");
    for (size_t i = 0; i < n; i++) {
        const vkat_row *r = &rows[i];
        char frac[16] = "-";
        double f = vkat_peaks_fraction(x->peaks, r);
        if (!isnan(f))
            snprintf(frac, sizeof frac, "%.1f", 100 * f);
        fprintf(o, "%4zu  %10.4f  %10.4f  %8.2f  %9.4g  %9.4g  %6s  ", i + 1, r->median_s * 1e3, r->min_s * 1e3,
                r->median_s > 0 ? 100.0 * r->mad_s / r->median_s : 0.0, r->tflops, r->gbps, frac);
        if (xfer)
            fprintf(o, "%10.4f  ", (r->median_s + x->transfer_s) * 1e3);
        fprintf(o, "%s", r->config);
        if (x->stats)
            fprintf(o, "  [%s]", r->pipeline_stats[0] ? r->pipeline_stats : "no driver statistics");
        fprintf(o, "\n");
    }
    if (xfer && x->transfer_s > rows[0].median_s)
        fprintf(o, "the link dominates: moving the buffers (%.4f ms) takes longer than the best kernel (%.4f ms)\n",
                x->transfer_s * 1e3, rows[0].median_s * 1e3);
    print_spills(o, tm, &rows[0]);
    if (!x->peaks)
        fprintf(o, "%% peak: no measured peaks for this device yet (vkautotune peaks --db DB measures them)\n");
    else if (rows[0].tensor[0] && isnan(vkat_peaks_tensor_tflops(x->peaks, rows[0].tensor)))
        fprintf(o, "%% peak: no tensor-core peak for '%s' on this device (vkautotune peaks --db DB --refresh)\n",
                rows[0].tensor);
}

static json_object *row_json(const vkat_row *r, int rank)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "rank", json_object_new_int(rank));
    json_object_object_add(o, "config", json_object_new_string(r->config));
    json_object_object_add(o, "median_ms", json_object_new_double(r->median_s * 1e3));
    json_object_object_add(o, "min_ms", json_object_new_double(r->min_s * 1e3));
    json_object_object_add(o, "max_ms", json_object_new_double(r->max_s * 1e3));
    json_object_object_add(o, "mad_ms", json_object_new_double(r->mad_s * 1e3));
    json_object_object_add(o, "samples", json_object_new_int64(r->samples));
    json_object_object_add(o, "tflops", json_object_new_double(r->tflops));
    json_object_object_add(o, "gbps", json_object_new_double(r->gbps));
    json_object_object_add(o, "rel_l2", json_object_new_double(r->rel_l2));
    json_object_object_add(o, "spirv_hash", json_object_new_string(r->spirv_hash));
    json_object_object_add(o, "pipeline_stats", json_object_new_string(r->pipeline_stats));
    int spills = vkat_stats_spills(r->pipeline_stats, NULL, 0);
    json_object_object_add(o, "spills", spills == VKAT_SPILLS_UNKNOWN ? NULL : json_object_new_boolean(spills));
    return o;
}

static json_object *run_json(const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                             size_t n)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "device", json_object_new_string(dev->name));
    json_object_object_add(o, "device_index", json_object_new_int64(dev->index));
    json_object_object_add(o, "driver", json_object_new_string(dev->driver_version_string));
    json_object_object_add(o, "kernel", json_object_new_string(rep->key.kernel));
    json_object_object_add(o, "problem", json_object_new_string(rep->key.problem));
    if (rep->skipped) {
        json_object_object_add(o, "skipped", json_object_new_string(rep->skip_reason));
        return o;
    }
    json_object_object_add(o, "strategy", json_object_new_string(rep->strategy));
    json_object_object_add(o, "evaluated", json_object_new_int64((int64_t)rep->totals.evaluated));
    json_object_object_add(o, "resumed", json_object_new_int64((int64_t)rep->totals.resumed));
    json_object_object_add(o, "failed", json_object_new_int64((int64_t)rep->totals.failed));
    json_object_object_add(o, "raced_out", json_object_new_int64((int64_t)rep->totals.raced));
    json_object_object_add(o, "race", json_object_new_boolean(rep->race));
    const vkat_tune_progress *tp = &rep->totals;
    json_object_object_add(o, "variants_per_s",
                           json_object_new_double(tp->elapsed_s > 0 ? (double)(tp->evaluated - tp->resumed) /
                                                                          tp->elapsed_s
                                                                    : 0));
    json_object_object_add(o, "invalid", json_object_new_int64((int64_t)rep->totals.invalid));
    if (rep->totals.other_shard)
        json_object_object_add(o, "other_shard", json_object_new_int64((int64_t)rep->totals.other_shard));
    json_object_object_add(o, "seconds", json_object_new_double(rep->totals.elapsed_s));
    json_object *t = json_object_new_object();
    json_object_object_add(t, "jobs", json_object_new_int64(rep->times.jobs));
    json_object_object_add(t, "instantiate", json_object_new_double(rep->times.instantiate));
    json_object_object_add(t, "compile", json_object_new_double(rep->times.compile));
    json_object_object_add(t, "compile_cache_hits", json_object_new_int64((int64_t)rep->times.compile_hits));
    json_object_object_add(t, "validate", json_object_new_double(rep->times.validate));
    json_object_object_add(t, "pipeline", json_object_new_double(rep->times.pipeline));
    json_object_object_add(t, "check", json_object_new_double(rep->times.check));
    json_object_object_add(t, "measure", json_object_new_double(rep->times.measure));
    json_object_object_add(t, "checked", json_object_new_int64((int64_t)rep->times.checked));
    json_object_object_add(t, "checked_on_gpu", json_object_new_int64((int64_t)rep->times.checked_gpu));
    json_object_object_add(t, "warmup", json_object_new_double(rep->times.warmup));
    json_object_object_add(t, "warmup_capped", json_object_new_int64((int64_t)rep->times.warmup_capped));
    json_object_object_add(t, "warmup_retaken", json_object_new_int64((int64_t)rep->times.warmup_retaken));
    json_object_object_add(t, "warmup_busy", json_object_new_int64((int64_t)rep->times.warmup_busy));
    json_object_object_add(t, "wait", json_object_new_double(rep->times.wait));
    json_object_object_add(t, "store", json_object_new_double(rep->times.store));
    json_object_object_add(o, "time_split_s", t);
    json_object *sp = json_object_new_object(); /* variants with statistics that tell, and of those, spilling */
    json_object_object_add(sp, "known", json_object_new_int64((int64_t)rep->times.spill_known));
    json_object_object_add(sp, "spilled", json_object_new_int64((int64_t)rep->times.spilled));
    json_object_object_add(o, "spills", sp);
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(arr, row_json(&rows[i], (int)i + 1));
    json_object_object_add(o, "best", arr);
    return o;
}

static void csv_field(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', o);
        fputc(*s, o);
    }
    fputc('"', o);
}

static void print_csv(FILE *o, const vkat_device_info *dev, const vkat_tune_report *rep, const vkat_row *rows,
                      size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const vkat_row *r = &rows[i];
        csv_field(o, dev->name);
        fputc(',', o);
        csv_field(o, rep->key.kernel);
        fputc(',', o);
        csv_field(o, rep->key.problem);
        fprintf(o, ",%zu,%.6g,%.6g,%.6g,%.6g,%.6g,", i + 1, r->median_s * 1e3, r->min_s * 1e3, r->mad_s * 1e3,
                r->tflops, r->gbps);
        csv_field(o, r->config);
        fputc('\n', o);
    }
}

/* When no variant passed, the table alone does not say why: show the reason of the first variant evaluated
 * (often the same for all, e.g. a GLSL error at the template's line). */
static void report_first_failure(vkat_store *store, const vkat_row *key)
{
    vkat_row *rows = NULL;
    size_t n = 0;
    vkat_error err = {0};
    if (vkat_store_rows(store, key, 1, &rows, &n, &err) != VKAT_OK || n == 0) {
        free(rows);
        return;
    }
    const vkat_row *first = &rows[0];
    for (size_t i = 1; i < n; i++)
        if (rows[i].id < first->id)
            first = &rows[i];
    vkat_cli_log(VKAT_LOG_WARN, "every variant failed; the first, %s: %s: %s%s", first->config,
             vkat_status_name(first->status), first->reason,
             first->status == VKAT_STATUS_TIMEOUT ? " (--kernel-timeout SECONDS sets the limit)" : "");
    free(rows);
}

/* ---- One group's output ------------------------------------------------------------------------------------------
 * After the run: each group's table, JSON or CSV (buffered, so that the groups print in device order), and why it
 * found nothing when it did not. */

typedef struct group_output {
    int code;    /* exit code of this group's run */
    char *text;  /* buffered stdout (table or CSV), malloc'ed */
    size_t text_size;
    json_object *json; /* --json */
} group_output;

/* The table's extras: cached peaks (free to show), measured when --include-transfers needs the link bandwidth
 * (seconds of work, after the tuning, on a quiet device), and the transfers' cost. Returns an exit code. */
static int table_extras(const tune_args *a, vkat_store *store, const vkat_tune_group *g, vkat_peaks *peaks,
                        table_extra *x)
{
    vkat_error err = {0};
    int have = a->transfers ? vkat_device_peaks(store, a->d.inst, g->devices[0], 0, peaks, &err)
                            : vkat_store_get_peaks(store, &g->report.key.device, peaks, &err);
    if (have < 0)
        return vkat_cli_report(&err);
    if (have > 0 || a->transfers)
        x->peaks = peaks;
    if (a->transfers) {
        if (vkat_space_transfer_bytes(g->space, NULL, &x->bytes_in, &x->bytes_out, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        x->transfer_s = vkat_peaks_transfer_s(peaks, x->bytes_in, x->bytes_out);
    }
    return VKAT_EXIT_OK;
}

/* Writes the group's result into `o` (or its JSON) and returns the exit code. */
static int print_group(const tune_args *a, vkat_store *store, const vkat_tune_group *g, FILE *o, group_output *out)
{
    const vkat_device_info *dev = vkat_instance_device(a->d.inst, g->devices[0]);
    const vkat_tune_report *rep = &g->report;
    if (g->result != VKAT_OK)
        return vkat_cli_report(&g->error);
    if (rep->skipped) {
        if (a->json)
            out->json = run_json(dev, rep, NULL, 0);
        return VKAT_EXIT_OK;
    }
    vkat_error err = {0};
    vkat_row *rows = calloc((size_t)a->top, sizeof *rows);
    size_t n = 0;
    int code = VKAT_EXIT_OK;
    if (!rows)
        return VKAT_EXIT_FAILURE;
    if (vkat_store_best(store, &rep->key, rows, (size_t)a->top, &n, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
        goto done;
    }
    vkat_peaks peaks;
    table_extra x = {NULL, NAN, 0, 0, a->stats, a->d.shard_index, a->d.shard_count};
    if ((code = table_extras(a, store, g, &peaks, &x)) != VKAT_EXIT_OK)
        goto done;
    if (a->json)
        out->json = run_json(dev, rep, rows, n);
    else if (a->csv)
        print_csv(o, dev, rep, rows, n);
    else
        print_table(o, dev, rep, rows, n, &x);
    if (n == 0 && rep->totals.evaluated == 0 && rep->totals.proposed >= vkat_space_raw_count(g->space))
        code = vkat_cli_tune_explain_empty(g->space, dev, a);
    else if (n == 0) {
        report_first_failure(store, &rep->key);
        code = VKAT_EXIT_FAILURE;
    }
    if (rep->interrupted) {
        vkat_cli_log(VKAT_LOG_WARN, "%s: interrupted: stopped after the variant in flight; everything measured is in "
                     "%s and a rerun resumes from it", dev->name, a->d.db_path);
        code = vkat_cli_stop_exit_code();
        goto done;
    }
    uint64_t raw = vkat_space_raw_count(g->space);
    char raw_text[96];
    if (!a->quiet && !a->json && !a->csv && rep->totals.proposed < raw && !a->d.budget_s)
        fprintf(o,
                "searched %llu of %s raw configurations; for a larger search use --budget N or --budget 10m "
                "(reruns resume from %s)\n",
                (unsigned long long)rep->totals.proposed, vkat_space_format_raw(g->space, raw_text, sizeof raw_text),
                a->d.db_path);
done:
    free(rows);
    return code;
}

/* Prints every group's output in device order, whatever order they finished in; returns the run's exit code. */
int vkat_cli_tune_print_groups(const tune_args *a, vkat_tune_run *run, json_object *out)
{
    size_t ng = vkat_tune_run_group_count(run);
    int code = VKAT_EXIT_OK;
    for (size_t k = 0; k < ng; k++) {
        group_output g = {0};
        FILE *o = open_memstream(&g.text, &g.text_size);
        g.code = o ? print_group(a, vkat_tune_run_store(run), vkat_tune_run_group(run, k), o, &g)
                   : VKAT_EXIT_FAILURE;
        if (o)
            fclose(o);
        if (g.text)
            fwrite(g.text, 1, g.text_size, stdout);
        free(g.text);
        if (out && g.json)
            json_object_array_add(out, g.json);
        if (code == VKAT_EXIT_OK || g.code == vkat_cli_stop_exit_code())
            code = g.code;
    }
    return code;
}
