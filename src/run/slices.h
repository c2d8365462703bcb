/* slices.h — internal: one range of work split over threads, for host-side loops on a search's critical path (the
 * workspace's initial data: a 4096^2 GEMM's inputs took 0.4-0.9 s on one thread of the H200's host before its
 * first variant could be measured, records/session11-issue-22-pipe.md). Only for work whose result does not
 * depend on how it is split. */
#ifndef VKAT_SLICES_H
#define VKAT_SLICES_H

#include <stdint.h>

/* Calls fn(user, from, to) over [0, n) in slices on up to VKAT_SLICES_MAX threads (the calling thread takes the
 * first): every boundary but n is a multiple of `align`, no slice is shorter than `min_slice` but the last, and a
 * range too short to split, a single-core machine or a thread that cannot start run on the calling thread. fn
 * must be safe to call concurrently on disjoint slices. Returns when every slice is done. */
#define VKAT_SLICES_MAX 16
void vkat_slices_run(uint64_t n, uint64_t align, uint64_t min_slice, void (*fn)(void *user, uint64_t from, uint64_t to),
                     void *user);

#endif
