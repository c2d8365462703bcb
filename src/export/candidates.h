/* candidates.h — internal: which configurations `vkautotune export` writes beside the winners, for the runtime
 * library to time on a device nobody tuned on (`--candidates N`, docs/runtime.md). */
#ifndef VKAT_CANDIDATES_H
#define VKAT_CANDIDATES_H

#include "store.h"

/* VKAT_EXPORT_DEFAULT_CANDIDATES is public: include/vkautotune.h. */

typedef struct vkat_candidate {
    vkat_row row;         /* the configuration's row on the series where it does best */
    size_t series;        /* that series: an index into the winners given */
    double mean_fraction; /* mean over the series of (series winner's median / this configuration's median); a
                             series where it did not run correctly counts 0 */
} vkat_candidate;

/* winners[0..n): one row per measurement series being exported (one kernel, one template and space hash), each
 * the winner of its (device, problem). Reads every series and returns the configurations that are no winner's,
 * best mean fraction first (ties: by configuration text), as many as take the number of distinct configurations
 * (the winners' and these) up to `max`; none when the winners already reach it. This is the portability matrix
 * (compare.h) taken over every measured configuration instead of the winners only. *out is malloc'ed (NULL when
 * *count is 0); the caller frees it. */
vkat_result vkat_export_candidates(vkat_store *st, const vkat_row *winners, size_t n, size_t max, vkat_candidate **out,
                                   size_t *count, vkat_error *err);

#endif
