/* api_report.c — vkat_report_write_file (include/vkautotune.h): the comparison (report/compare.c) and the peaks
 * of a store rendered by report/report.c into one HTML file, written through a temporary file and renamed
 * (atomic_file.c), so a failed run never leaves half a report and a symlink planted at the temporary name is never
 * written through. */
#include "atomic_file.h"
#include "report.h"

#include <stdlib.h>

vkat_result vkat_report_write_file(vkat_store *store, const char *path, const char *kernel, const char *problem,
                                   const vkat_report_opts *opts, size_t *kernels, size_t *devices_with_peaks,
                                   vkat_error *err)
{
    vkat_comparison *cs = NULL;
    vkat_peaks *peaks = NULL;
    size_t nc = 0, np = 0;
    vkat_result r = vkat_compare_build(store, kernel, problem, &cs, &nc, err);
    if (!r)
        r = vkat_store_list_peaks(store, &peaks, &np, err);
    if (r || nc == 0)
        goto done;
    vkat_atomic_file af;
    if ((r = vkat_atomic_open(&af, path, err)) != VKAT_OK)
        goto done;
    r = vkat_report_write(af.f, cs, nc, peaks, np, opts, err);
    if (r)
        vkat_atomic_discard(&af);
    else
        r = vkat_atomic_commit(&af, err);
done:
    if (kernels)
        *kernels = r ? 0 : nc;
    if (devices_with_peaks)
        *devices_with_peaks = np;
    free(peaks);
    vkat_comparisons_free(cs, nc);
    return r;
}
