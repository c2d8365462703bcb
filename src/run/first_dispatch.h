/* first_dispatch.h — internal: how much slower a lane's first dispatch of a variant (its checked run) is than a
 * warm one, learned from the variants the lane measured, so that a variant the checked run alone races out
 * (race.h vkat_race_check_cut) needs no confirming dispatch where that first dispatch is known to carry little.
 *
 * The confirming dispatch exists because lavapipe compiles at the first dispatch: a 1.5 ms kernel's checked run
 * took 17.65 ms there (session 8). On the H200 pipelines are compiled when they are created, and the confirming
 * dispatch of a 59 ms loser cost as much as its checked run (records/session9-issue-22-pipe.md). So each measured
 * variant tells its lane what the first dispatch added (the checked run less the warm samples' median); once
 * VKAT_FIRST_DISPATCH_SEEN variants have, a checked run that stays past the cut after the largest such excess is
 * taken off needs no second dispatch. Where the first dispatch compiles, the excess is the compile time and the
 * confirming dispatch stays for all but the slowest losers. Pure: no GPU, no clock. */
#ifndef VKAT_FIRST_DISPATCH_H
#define VKAT_FIRST_DISPATCH_H

#include <stdint.h>

/* Measured variants a lane needs before it trusts what it learned. */
#define VKAT_FIRST_DISPATCH_SEEN 3

/* Zero-initialised: nothing learned. */
typedef struct vkat_first_dispatch {
    uint32_t seen;   /* measured variants noted */
    double excess_s; /* the largest checked run less warm median among them (0 at least) */
} vkat_first_dispatch;

/* A variant measured after its checked run: run_s is that run's dispatch time, median_s its samples' median
 * (either not finite or not positive: ignored), gap_s how long the GPU had idled before the checked run. Only runs
 * after a gap of at most max_gap_s count: the cut is only made after such a gap, and after a longer one the clocks
 * had fallen (on the H200 a 59 ms kernel's checked run took 226 ms after 3.8 s idle, session 10), which says
 * nothing of what the first dispatch itself carries. */
void vkat_first_dispatch_note(vkat_first_dispatch *f, double run_s, double median_s, double gap_s, double max_gap_s);

/* 1 when the checked run alone is enough to race a variant out: at least VKAT_FIRST_DISPATCH_SEEN variants noted,
 * and run_s less the largest excess is still past factor x bound. */
int vkat_first_dispatch_enough(const vkat_first_dispatch *f, double run_s, double factor, double bound);

#endif
