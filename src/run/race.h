/* race.h — internal: racing, deciding after each timed sample whether a variant is still worth measuring.
 *
 * A variant is raced out when its best case is already behind the best so far: its lower bound (least sample less
 * its spread) exceeds the least upper bound (median plus spread) of any variant measured in full and checked.
 * Spreads are measured (k median absolute deviations), with a relative floor so that a run of equal samples is not
 * taken for certainty. A variant that is not raced out (a contender) takes samples until its median is stable to
 * `tolerance`, or until a cap. Only variants that passed the check, measured in full, set the bound: tune.c checks
 * every variant before timing it, so a wrong kernel never reaches the timed runs at all.
 * Pure decisions plus one shared bound; nothing here runs a GPU, prints or stores. */
#ifndef VKAT_RACE_H
#define VKAT_RACE_H

#include <pthread.h>
#include <stdint.h>

/* Zero fields mean their default. */
typedef struct vkat_race_opts {
    int disabled;             /* 1: every variant gets its full repetitions (--no-race) */
    uint32_t min_samples;     /* samples before the spread-based cut; default 2 */
    double spread_k;          /* MADs each side of a median; default 3 */
    double margin;            /* relative floor of each side's spread; default 0.02 */
    double first_factor;      /* with fewer than min_samples: cut when sample > this x bound; default 1.5 */
    double tolerance;         /* contenders: until the median's standard error <= this x median; default 0.01 */
    uint32_t max_repetitions; /* contenders' cap on samples; default 3 x the repetitions */
    double check_factor;      /* the checked run alone cuts when its dispatch took > this x bound; default 10; <0: off */
    double check_gap_s;       /* ... and the GPU had idled at most this long before it; default 0.05 */
} vkat_race_opts;

/* The defaults filled in; `repetitions` is the run's timed samples per variant. */
vkat_race_opts vkat_race_defaults(const vkat_race_opts *opts, uint32_t repetitions);

typedef enum vkat_race_verdict {
    VKAT_RACE_CONTINUE = 0, /* take the next sample (repetitions not reached, or a contender not yet stable) */
    VKAT_RACE_DONE = 1,     /* enough: a full measurement */
    VKAT_RACE_CUT = 2,      /* raced out */
} vkat_race_verdict;

/* Summary of samples (any order, n >= 1; n <= 4096). */
typedef struct vkat_race_sample_stats {
    double min_s, median_s, mad_s;
} vkat_race_sample_stats;
void vkat_race_stats(const double *samples, uint32_t n, vkat_race_sample_stats *out);

/* A variant's lower bound after n samples, and a measured variant's upper bound (o: filled defaults). */
double vkat_race_lower(const vkat_race_opts *o, const double *samples, uint32_t n);
double vkat_race_upper(const vkat_race_opts *o, double median_s, double mad_s);

/* The verdict after n samples against `bound` (INFINITY: nothing measured yet, so nothing is cut) for a run of
 * `repetitions` samples per variant. */
vkat_race_verdict vkat_race_decide(const vkat_race_opts *o, double bound, const double *samples, uint32_t n,
                                   uint32_t repetitions);

/* Before any warm-up: does the checked run alone race the variant out? `run_s` is its one dispatch's GPU time,
 * `gap_s` how long the GPU had idled before it. That dispatch ran cold, and cold is slower than warm, never much
 * faster; but clocks that fell during an idle slow a dispatch several-fold (on the H200 a dispatch after 2.4 s idle
 * ran 5.0x slower than warm, records/session7-issue-22.md). So only a GPU busy just before (gap_s <= check_gap_s)
 * and a dispatch past check_factor x the bound count: such a variant is far behind, and its warm-up and samples
 * would only say so again (sgemm_wt at 4096^3: 1 variant in 3, 20x the best, 40% of the measuring time). */
int vkat_race_check_cut(const vkat_race_opts *o, double bound, double run_s, double gap_s);

/* The bound shared by a run's measuring lanes: the least upper bound of its checked full measurements. */
typedef struct vkat_race_bound {
    pthread_mutex_t lock;
    double upper_s;
} vkat_race_bound;

void vkat_race_bound_init(vkat_race_bound *b);
void vkat_race_bound_destroy(vkat_race_bound *b);
double vkat_race_bound_get(vkat_race_bound *b);
/* A checked, fully measured variant (one measured now, or an "ok" row found on resume). */
void vkat_race_bound_offer(vkat_race_bound *b, const vkat_race_opts *o, double median_s, double mad_s);

#endif
