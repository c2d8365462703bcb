/* compare.h — internal: devices side by side for one kernel, from the results database (compare, report).
 *
 * Per kernel, each device contributes one measurement series: its rows for one (problem, template hash, space
 * hash). Devices often tune different problem sizes (a CPU device takes the space's [problem.cpu]), so a
 * comparison is by kernel, each device with its own problem: times are not comparable across columns then, the
 * fractions (of peak, of a device's own best) are. When a device has several series, the one with the most
 * correct variants is taken (ties: the latest), or the one of the requested problem. */
#ifndef VKAT_COMPARE_H
#define VKAT_COMPARE_H

#include "store.h"

/* vkat_cmp_device, vkat_comparison, VKAT_PORT_*, vkat_compare_build and vkat_comparisons_free are public:
 * include/vkautotune.h. */

/* One portability cell: how `config` does on one series (rows ok first by median, so rows[0] is its winner when
 * ok_count > 0): the winner's median over the config's, 1 = as good as the winner. *state is VKAT_PORT_OK; VKAT_PORT_RACED
 * (raced out: an upper bound is returned); or VKAT_PORT_FAILED / VKAT_PORT_UNMEASURED with NaN returned. The matrix above and export's candidates use it. */
double vkat_portability_fraction(const vkat_row *rows, size_t count, size_t ok_count, const char *config, int *state);

/* The value of parameter `name` in a "K=V,..." config; returns 1 and sets *value when present. */
int vkat_config_value(const char *config, const char *name, long long *value);
/* The name of the i-th parameter of a config into buf; returns 0 when there is none. */
int vkat_config_param_name(const char *config, size_t i, char *buf, size_t size);

/* A row's throughput in its natural unit: TFLOP/s when it has flops, else GB/s, else 1/ms. */
double vkat_row_throughput(const vkat_row *r, const char **unit);

#endif
