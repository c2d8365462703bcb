/* warmup.h — internal: when a kernel is warm. bench.c times every warm-up batch and asks after each one; the rule
 * is pure (no GPU, no clock) so that tests can feed it made-up ramps.
 *
 * Clocks fall while a GPU idles and climb again under load (../shared/H200.md: a kernel ran 4.5x slower after a
 * pause; records/session6-issue-21.md: 540-1740 MHz between variants). So the warm-up runs until the kernel's own
 * times stop falling: once at least `min_s` has passed, the fastest batch of the last window (min_s / 2 of wall
 * time, one batch at least) must be no faster than the fastest of the window before it, within `tolerance`. A
 * kernel whose times still fall, or whose noise keeps beating the window before, is warmed up to the maximum. */
#ifndef VKAT_WARMUP_H
#define VKAT_WARMUP_H

#include <stdint.h>

/* Relative tolerance of the comparison: a window's best at most this much faster than the one before still counts
 * as not falling (timestamp noise of a batch of a few milliseconds is well under it; the last steps of a clock
 * ramp are several per cent). */
#define VKAT_WARMUP_TOLERANCE 0.005

/* 1 when the warm-up may stop after batch n-1: per[i] is batch i's seconds per dispatch, at[i] the seconds from the
 * warm-up's start to batch i's end (increasing), min_s the minimum warm-up. 0 with fewer than 2 batches, before
 * min_s, or while the last window's best is faster than the one before by more than the tolerance. */
int vkat_warmup_settled(const double *per, const double *at, uint32_t n, double min_s);

/* A warm-up can stop on a plateau: on the H200 a kernel ran flat at 4.6x its warm time for a whole 24 ms warm-up,
 * then warm in its samples (records/session7-issue-22.md). Samples whose median is more than this much below the
 * warm-up's last batch say the warm-up ended early. */
#define VKAT_WARMUP_EARLY 0.02

/* 1 when the median of the n >= 1 samples (seconds per dispatch, any order; at most 4096 are looked at) is below
 * the warm-up's last batch, warm_last_s, by more than VKAT_WARMUP_EARLY. */
int vkat_warmup_ended_early(double warm_last_s, const double *samples, uint32_t n);

#endif
