/* measure_trace.h — internal: what the measuring threads did, batch by batch and variant by variant, written to a
 * file on request (`VKAT_MEASURE_TRACE=FILE vkautotune ...`), to see the clock ramp and the gaps on a GPU.
 *
 * Tab-separated lines, the first field saying which kind:
 *   batch    lane  batch  dispatches  at_ms  per_dispatch_ms  idle_ms  config
 *     one warm-up batch: its end in ms from the warm-up's start, its ms per dispatch, and how long the queue had
 *     idled before the warm-up began
 *   variant  lane  status  samples  wait_ms  pipeline_ms  check_ms  warmup_ms  measure_ms  store_ms
 *            warm_last_ms  median_ms  gap_ms  seq  ready_ms  taken_ms  check_run_ms  config
 *     one variant done: how long its lane waited for it to be prepared, its pipeline's creation (on a worker),
 *     checked run, warm-up, whole measurement (warm-up included) and the rows written for it; the last warm-up
 *     batch's and the samples' median ms per dispatch (the samples well below the warm-up's end: it ended early);
 *     how long the GPU had idled (since this lane's last submission finished) when its checked run began; its
 *     place in proposal order (0 first), and when, in ms from the search's start, its preparation ended and its
 *     lane took it to measure (lines come in measuring order: a seq out of order is a variant measured ahead of
 *     one still being prepared); the checked run's one dispatch in ms (nan: not timed), what its first dispatch
 *     cost against the samples' median (first_dispatch.h)
 *   setup    lane  device_ms  workspace_ms  reference_ms  check_ms  call_ms  ready_ms
 *     one lane's set-up, written at the run's end: creating the logical device (and loading the pipeline cache),
 *     the buffers with their initial data, the reference's run (its compile and pipeline included) and the device
 *     check's set-up; call_ms is how long after the tuning call began the search began (the strategy's first
 *     proposal); ready_ms when, from the search's start, the lane could measure (negative: before the search; after
 *     it where the reference ran on the measuring thread while the workers prepared the first variants)
 * Lines of several lanes interleave whole. Nothing here decides anything. */
#ifndef VKAT_MEASURE_TRACE_H
#define VKAT_MEASURE_TRACE_H

#include "bench.h"

#include <stdio.h>

/* The environment variable that names the file (appended to). */
#define VKAT_MEASURE_TRACE_ENV "VKAT_MEASURE_TRACE"

/* One variant's warm-up: what vkat_timing_opts.warmup_trace_user points at. */
typedef struct vkat_measure_trace_ctx {
    FILE *file;
    unsigned lane;
    const char *config;
} vkat_measure_trace_ctx;

/* The file the environment names, opened for appending (a header line when it is new); NULL when the variable is
 * unset or empty, or the file cannot be opened (a warning through the log). */
FILE *vkat_measure_trace_open(void);
/* A vkat_timing_opts.warmup_trace: writes one batch line. */
void vkat_measure_trace_batch(void *user, const vkat_warmup_batch *b);

/* One variant's line (times in seconds). */
typedef struct vkat_measure_trace_variant {
    const char *status, *config;
    uint32_t samples;
    double wait_s, pipeline_s, check_s, warmup_s, measure_s, store_s;
    double warm_last_s, median_s; /* per dispatch; 0: not timed */
    double gap_s;                 /* the GPU's idle time before the checked run */
    unsigned long seq;            /* proposal order */
    double ready_s, taken_s;      /* from the search's start: preparation done, taken to measure */
    double check_run_s;           /* the checked run's one dispatch (NAN: not timed) */
} vkat_measure_trace_variant;
void vkat_measure_trace_variant_line(FILE *f, unsigned lane, const vkat_measure_trace_variant *v);

/* One lane's set-up line (seconds): device, workspace, reference, check; the search's start after the call's; the
 * lane's being ready to measure after the search's start. */
void vkat_measure_trace_setup_line(FILE *f, unsigned lane, const double phase_s[4], double call_s, double ready_s);

#endif
