/* cli_peaks.c — `vkautotune peaks [--device SPEC] [--db PATH] [--refresh] [--json]`: each device's measured peaks,
 * from the database's cache or measured now and cached there (vkat_device_peaks). */
#include "cli.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_DB "vkautotune.db"

void vkat_cli_format_figure(double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.4g", v);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune peaks [--device SPEC] [--db PATH] [--refresh] [--json]\n"
               "\n"
               "Prints each device's peaks measured by vkautotune itself: device-memory bandwidth (a copy kernel),\n"
               "fp32 and fp16 FMA throughput, host<->device transfer bandwidth (staging copies), and the\n"
               "tensor-core peak of every cooperative-matrix shape the device lists (a shader that only chains\n"
               "coopMatMulAdd, searched over 1-8 accumulators per subgroup and 1-8 subgroups per workgroup).\n"
               "Kernels whose space needs a cooperative matrix get their '%% peak' from that peak. They are\n"
               "cached in the results database per device and driver; --refresh measures again.\n"
               "\n"
               "options:\n"
               "  --device SPEC   index, name substring or 'all' (default: every device)\n"
               "  --db PATH       results database holding the cache (default ./" DEFAULT_DB ")\n"
               "  --refresh       measure even when cached\n"
               "  --json          machine-readable output\n"
               "  -q, --quiet     no info messages\n");
}

static json_object *num(double v)
{
    return isnan(v) ? NULL : json_object_new_double(v);
}

/* One device's peaks as --json writes them. */
static json_object *peaks_json(const vkat_peaks *pk)
{
    const vkat_peaks p = *pk;
    json_object *o = json_object_new_object();
    json_object_object_add(o, "device", json_object_new_string(p.device.name));
    json_object_object_add(o, "driver", json_object_new_string(p.device.driver_version_string));
    json_object_object_add(o, "mem_gbps", num(p.mem_gbps));
    json_object_object_add(o, "fp32_tflops", num(p.fp32_tflops));
    json_object_object_add(o, "fp16_tflops", num(p.fp16_tflops));
    json_object_object_add(o, "h2d_gbps", num(p.h2d_gbps));
    json_object_object_add(o, "d2h_gbps", num(p.d2h_gbps));
    json_object *cm = json_object_new_array();
    for (uint32_t k = 0; k < p.coopmat_count && k < VKAT_MAX_COOPMAT_PEAKS; k++) {
        const vkat_coopmat_peak *c = &p.coopmat[k];
        json_object *e = json_object_new_object();
        json_object_object_add(e, "m", json_object_new_int64(c->m));
        json_object_object_add(e, "n", json_object_new_int64(c->n));
        json_object_object_add(e, "k", json_object_new_int64(c->k));
        json_object_object_add(e, "a_type", json_object_new_string(c->a_type));
        json_object_object_add(e, "b_type", json_object_new_string(c->b_type));
        json_object_object_add(e, "c_type", json_object_new_string(c->c_type));
        json_object_object_add(e, "result_type", json_object_new_string(c->result_type));
        json_object_object_add(e, "tflops", num(c->tflops));
        json_object_object_add(e, "accumulators", json_object_new_int64(c->accumulators));
        json_object_object_add(e, "subgroups", json_object_new_int64(c->subgroups));
        json_object_array_add(cm, e);
    }
    json_object_object_add(o, "coopmat", cm);
    json_object_object_add(o, "measured", json_object_new_string(p.created));
    return o;
}

int vkat_cmd_peaks(int argc, char **argv)
{
    const char *device = "all", *db = DEFAULT_DB;
    int refresh = 0, json = 0, quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if ((!strcmp(o, "--device") || !strcmp(o, "--db")) && i + 1 < argc) {
            *(!strcmp(o, "--db") ? &db : &device) = argv[++i];
        } else if (!strcmp(o, "--device") || !strcmp(o, "--db")) {
            fprintf(stderr, "vkautotune: %s needs a value\n", o);
            return VKAT_EXIT_USAGE;
        } else if (!strcmp(o, "--refresh")) {
            refresh = 1;
        } else if (!strcmp(o, "--json")) {
            json = 1;
        } else if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
            quiet = 1;
        } else {
            fprintf(stderr, "vkautotune: peaks: unexpected argument '%s' (see vkautotune peaks --help)\n", o);
            return VKAT_EXIT_USAGE;
        }
    }
    vkat_cli_setup_log(0, quiet || json);
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_store *store = NULL;
    json_object *out = json ? json_object_new_array() : NULL;
    int code = VKAT_EXIT_OK;
    uint32_t devices[64], ndev = 0;
    if (vkat_instance_create(&inst, &err) || vkat_select_devices(inst, device, devices, 64, &ndev, &err) ||
        vkat_store_open(db, &store, &err)) {
        code = vkat_cli_report(&err);
        goto done;
    }
    /* Measure everything first so that progress messages on stderr do not cut through the table. */
    vkat_peaks all[64];
    for (uint32_t d = 0; d < ndev; d++) {
        if (vkat_device_peaks(store, inst, devices[d], refresh, &all[d], &err) < 0) {
            code = vkat_cli_report(&err);
            goto done;
        }
    }
    if (!json)
        printf("%-40s %-22s %10s %10s %10s %10s %10s  %s\n", "device", "driver", "mem GB/s", "fp32 TF/s",
               "fp16 TF/s", "H2D GB/s", "D2H GB/s", "measured");
    for (uint32_t d = 0; d < ndev; d++) {
        const vkat_peaks p = all[d];
        if (json) {
            json_object_array_add(out, peaks_json(&all[d]));
            continue;
        }
        char f[5][32];
        vkat_cli_format_figure(p.mem_gbps, f[0], sizeof f[0]);
        vkat_cli_format_figure(p.fp32_tflops, f[1], sizeof f[1]);
        vkat_cli_format_figure(p.fp16_tflops, f[2], sizeof f[2]);
        vkat_cli_format_figure(p.h2d_gbps, f[3], sizeof f[3]);
        vkat_cli_format_figure(p.d2h_gbps, f[4], sizeof f[4]);
        printf("%-40.40s %-22.22s %10s %10s %10s %10s %10s  %s\n", p.device.name, p.device.driver_version_string,
               f[0], f[1], f[2], f[3], f[4], p.created);
    }
    /* Tensor-core peaks, one line per shape under each device (TFLOP/s; tera-ops for integer types). */
    for (uint32_t d = 0; !json && d < ndev; d++) {
        const vkat_device_info *dev = vkat_instance_device(inst, devices[d]);
        if (all[d].coopmat_count == 0) {
            printf("%s: no tensor-core peak: %s\n", all[d].device.name,
                   dev->coopmat_count == 0 ? "the device lists no cooperative-matrix shapes (VK_KHR_cooperative_matrix)"
                                           : "none of its cooperative-matrix shapes has a peak shader here");
            continue;
        }
        printf("%s: tensor-core peaks, TFLOP/s (TOPS for integers):\n", all[d].device.name);
        for (uint32_t k = 0; k < all[d].coopmat_count && k < VKAT_MAX_COOPMAT_PEAKS; k++) {
            char line[160];
            vkat_coopmat_peak_format(&all[d].coopmat[k], line, sizeof line);
            printf("  %s\n", line);
        }
    }
done:
    if (out) {
        if (code == VKAT_EXIT_OK)
            printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
        json_object_put(out);
    }
    vkat_store_close(store);
    vkat_instance_destroy(inst);
    return code;
}
