/* report.h — internal: one self-contained HTML report of a comparison (inline SVG and CSS; no script, no
 * external resource, so it opens anywhere with nothing fetched at view time). */
#ifndef VKAT_REPORT_H
#define VKAT_REPORT_H

#include "compare.h"

#include <stdio.h>

/* vkat_report_opts is public: include/vkautotune.h. */

/* Writes the report for `cs` (from vkat_compare_build) and the device table from `peaks` (every device the
 * database has peaks for) to `f`. Per kernel: the device table (best variant, time, throughput, fraction of
 * peak, winner), per-device bars of the best variants, every measured variant against the parameter, a heat map
 * of two parameters per device, and the portability matrix. VKAT_ERR_IO when writing fails. */
vkat_result vkat_report_write(FILE *f, const vkat_comparison *cs, size_t count, const vkat_peaks *peaks,
                              size_t peak_count, const vkat_report_opts *opts, vkat_error *err);

#endif
