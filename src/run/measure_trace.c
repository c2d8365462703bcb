/* measure_trace.c — the measuring threads' trace file (measure_trace.h). */
#include "measure_trace.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

FILE *vkat_measure_trace_open(void)
{
    const char *path = getenv(VKAT_MEASURE_TRACE_ENV);
    if (!path || !*path)
        return NULL;
    FILE *f = fopen(path, "a");
    if (!f) {
        vkat_log(VKAT_LOG_WARN, "%s=%s: %s; no trace", VKAT_MEASURE_TRACE_ENV, path, strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0) /* new or empty (a restarted child appends) */
        fprintf(f, "# batch\tlane\tbatch\tdispatches\tat_ms\tper_dispatch_ms\tidle_ms\tconfig\n"
                   "# variant\tlane\tstatus\tsamples\twait_ms\tpipeline_ms\tcheck_ms\twarmup_ms\tmeasure_ms\tstore_ms"
                   "\twarm_last_ms\tmedian_ms\tgap_ms\tseq\tready_ms\ttaken_ms\tcheck_run_ms\tconfig\n"
                   "# setup\tlane\tdevice_ms\tworkspace_ms\treference_ms\tcheck_ms\tcall_ms\tready_ms\n");
    return f;
}

/* One fprintf per line: stdio locks the stream for the call, so lanes never split each other's lines. */
void vkat_measure_trace_batch(void *user, const vkat_warmup_batch *b)
{
    const vkat_measure_trace_ctx *t = user;
    fprintf(t->file, "batch\t%u\t%u\t%u\t%.4f\t%.6f\t%.4f\t%s\n", t->lane, b->index, b->dispatches, b->at_s * 1e3,
            b->per_dispatch_s * 1e3, b->idle_s * 1e3, t->config);
}

void vkat_measure_trace_variant_line(FILE *f, unsigned lane, const vkat_measure_trace_variant *v)
{
    fprintf(f, "variant\t%u\t%s\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.6f\t%.6f\t%.3f\t%lu\t%.3f\t%.3f\t%.4f\t%s\n",
            lane, v->status, v->samples, v->wait_s * 1e3, v->pipeline_s * 1e3, v->check_s * 1e3, v->warmup_s * 1e3,
            v->measure_s * 1e3, v->store_s * 1e3, v->warm_last_s * 1e3, v->median_s * 1e3, v->gap_s * 1e3, v->seq,
            v->ready_s * 1e3, v->taken_s * 1e3, v->check_run_s * 1e3, v->config);
}

void vkat_measure_trace_setup_line(FILE *f, unsigned lane, const double phase_s[4], double call_s, double ready_s)
{
    fprintf(f, "setup\t%u\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", lane, phase_s[0] * 1e3, phase_s[1] * 1e3,
            phase_s[2] * 1e3, phase_s[3] * 1e3, call_s * 1e3, ready_s * 1e3);
}
