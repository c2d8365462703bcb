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

typedef struct vkat_cmp_device {
    vkat_device_key device;
    char problem[256], template_hash[17], space_hash[17];
    vkat_row *rows;       /* this series' rows, ok ones first by median (rows[0] is the winner when ok_count) */
    size_t count, ok_count;
    size_t raced_count;   /* of count, raced out (checked, cut after a few samples: never the winner) */
    size_t other_series;  /* series of this kernel on this device left out */
    int has_peaks;
    vkat_peaks peaks;
} vkat_cmp_device;

/* Portability cell states. */
enum { VKAT_PORT_UNMEASURED = 0, VKAT_PORT_OK = 1, VKAT_PORT_FAILED = 2, VKAT_PORT_RACED = 3 };

typedef struct vkat_comparison {
    char kernel[128];
    vkat_cmp_device *devices; /* by device name, then driver version */
    size_t device_count;
    int same_problem;         /* every device measured the same problem */
    int same_template;        /* and the same template and space hashes */
    /* [i * device_count + j]: device i's winner measured on device j, as j's best median / that config's median
     * on j (1 = as good as j's own winner). state says whether j measured it. Raced out on j (VKAT_PORT_RACED):
     * j's best median / that config's least sample there, an upper bound on the fraction. */
    double *portability;
    int *port_state;
} vkat_comparison;

/* Builds one comparison per kernel (only `kernel` when not NULL; only series of `problem` when not NULL), kernels
 * by name. *out is malloc'ed; free with vkat_comparisons_free. *count 0 when the database holds nothing that
 * matches (not an error). */
vkat_result vkat_compare_build(vkat_store *st, const char *kernel, const char *problem, vkat_comparison **out,
                               size_t *count, vkat_error *err);
void vkat_comparisons_free(vkat_comparison *c, size_t count);

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
