/* busy.h — internal: has a measuring lane kept its GPU busy long enough that the next variant needs no minimum
 * warm-up?
 *
 * The minimum warm-up (--warmup-min, 0.02 s) is there because clocks fall while a GPU idles and climb again under
 * load. Between back-to-back variants the GPU hardly idles: the previous variant's samples, its row and this
 * variant's checked run leave gaps of about a millisecond (records/session10-issue-22-pipe.md). So each lane counts
 * the load its GPU has run since it last idled longer than `max_gap_s` (checked runs, warm-ups, samples); once that
 * is at least the minimum, the load has done what the minimum warm-up would do, and the warm-up only has to see the
 * times stop falling (warmup.h, with no minimum). After a longer gap, or before any work, the minimum stays.
 * Pure: no GPU, no clock. */
#ifndef VKAT_BUSY_H
#define VKAT_BUSY_H

/* The longest idle that still counts as busy, as the checked run's cut counts it (race.h check_gap_s). */
#define VKAT_BUSY_GAP_DEFAULT 0.05

/* One lane's stretch of load. Zero-initialised: nothing ran yet. */
typedef struct vkat_busy {
    double load_s; /* seconds of work the GPU ran since it last idled past the gap */
} vkat_busy;

/* Work is about to start after the GPU idled `gap_s`: a gap past max_gap_s (or not a number) ends the stretch. */
void vkat_busy_idle(vkat_busy *b, double gap_s, double max_gap_s);

/* The GPU ran `load_s` seconds of work (not finite or negative: nothing). */
void vkat_busy_ran(vkat_busy *b, double load_s);

/* 1 when the stretch holds at least min_s of load; max_gap_s <= 0 turns the rule off (0). */
int vkat_busy_warm(const vkat_busy *b, double min_s, double max_gap_s);

#endif
