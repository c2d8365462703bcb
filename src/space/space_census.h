/* space_census.h — internal: how many configurations a space has and how many are valid, within a time bound
 * whatever the space's size (the dry run). Exact where the walk is cheap; otherwise an estimate of the valid
 * fraction from uniform random samples, with its 95% confidence interval. */
#ifndef VKAT_SPACE_CENSUS_H
#define VKAT_SPACE_CENSUS_H

#include "space.h"

typedef struct vkat_space_census {
    int raw_overflows;       /* the raw count is 2^64 or more: `raw` is not meaningful, raw_approx is */
    uint64_t raw;            /* product of the parameters' value counts, when it fits */
    double raw_approx;       /* the same as a double, always (1e24 for four parameters of a million values) */
    int exact;               /* 1: every configuration was checked; 0: sampled */
    uint64_t checked;        /* configurations checked: raw when exact, else the number of samples */
    uint64_t valid;          /* of those, how many pass every constraint */
    double fraction, lo, hi; /* valid / checked and its 95% Wilson interval (exact: lo = hi = fraction) */
    double valid_estimate;   /* fraction * raw_approx (exact: valid) */
} vkat_space_census;

/* Called about every 0.2 s while the census runs (sampling: 0 counting, 1 sampling); may be NULL. */
typedef void (*vkat_space_census_progress_fn)(void *user, int sampling, uint64_t done, uint64_t total);

typedef struct vkat_space_census_opts {
    double exact_seconds;      /* how long the exact walk may take before sampling takes over; 0: 2 s, and no
                                  limit up to 2^27 raw configurations (the same counts on any machine) */
    uint64_t samples;          /* random configurations checked when sampling; 0: 200,000 */
    double sample_seconds;     /* bound on the sampling (fewer samples when it is reached); 0: 2 s */
    uint64_t seed;             /* of the samples: the same seed gives the same estimate */
    vkat_space_visit_fn visit; /* each valid configuration of the exact walk, in index order (may be NULL) */
    void *visit_user;
    vkat_space_census_progress_fn progress;
    void *progress_user;
} vkat_space_census_opts;

/* Counts with `env_template` (vkat_space_env_create). removed_by (constraint_count entries, may be NULL) receives
 * per constraint how many configurations it was the first to reject: exact counts, or counts among the samples.
 * Visits during an exact walk that ran out of time have happened already (the first few valid configurations).
 * Evaluation errors: VKAT_ERR_EXPR with the constraint's line. */
vkat_result vkat_space_census_run(const vkat_space *s, const vkat_value *env_template,
                                  const vkat_space_census_opts *opts, vkat_space_census *out, uint64_t *removed_by,
                                  vkat_error *err);

/* Why a search found nothing to evaluate: when the census (at most about 2 s) finds no valid configuration for
 * `env_template`, VKAT_ERR_EMPTY_SPACE at the line of the constraint that removed most, as the dry run says it,
 * with `where` ("at N=3 on llvmpipe", may be NULL) first and "sampled" when the count was of samples; else VKAT_OK
 * with nothing said (the valid ones are rare, not absent). */
vkat_result vkat_space_explain_empty(const vkat_space *s, const vkat_value *env_template, const char *where,
                                     vkat_error *err);

/* The raw count, or 0 with *approx (may be NULL) set when it overflows 64 bits; *approx is always set. */
uint64_t vkat_space_raw_count_checked(const vkat_space *s, double *approx);

#endif
