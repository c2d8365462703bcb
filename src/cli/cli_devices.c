/* cli_devices.c — `vkautotune devices [--json]`: every Vulkan device and what a tuner needs to know about it. */
#include "cli.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

static void uuid_string(const uint8_t u[16], char out[37])
{
    static const int dash[16] = {0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};
    char *p = out;
    for (int i = 0; i < 16; i++) {
        p += sprintf(p, "%02x", u[i]);
        if (dash[i])
            *p++ = '-';
    }
    *p = 0;
}

static void pci_string(const vkat_device_info *d, char out[32])
{
    if (d->has_pci)
        snprintf(out, 32, "%04x:%02x:%02x.%x", d->pci_domain, d->pci_bus, d->pci_device, d->pci_function);
    else
        snprintf(out, 32, "n/a");
}

static json_object *u32_array(const uint32_t *v, int n)
{
    json_object *a = json_object_new_array();
    for (int i = 0; i < n; i++)
        json_object_array_add(a, json_object_new_int64(v[i]));
    return a;
}

static json_object *device_json(const vkat_device_info *d)
{
    char buf[64];
    json_object *o = json_object_new_object();
    json_object_object_add(o, "index", json_object_new_int64(d->index));
    json_object_object_add(o, "name", json_object_new_string(d->name));
    json_object_object_add(o, "vendor", json_object_new_string(d->vendor));
    json_object_object_add(o, "vendor_id", json_object_new_int64(d->vendor_id));
    json_object_object_add(o, "device_id", json_object_new_int64(d->device_id));
    json_object_object_add(o, "type", json_object_new_string(d->device_type));
    json_object_object_add(o, "driver_name", json_object_new_string(d->driver_name));
    json_object_object_add(o, "driver_info", json_object_new_string(d->driver_info));
    json_object_object_add(o, "driver_version", json_object_new_string(d->driver_version_string));
    json_object_object_add(o, "driver_version_raw", json_object_new_int64(d->driver_version));
    json_object_object_add(o, "vulkan_version", json_object_new_string(d->api_version_string));
    uuid_string(d->device_uuid, buf);
    json_object_object_add(o, "device_uuid", json_object_new_string(buf));
    uuid_string(d->driver_uuid, buf);
    json_object_object_add(o, "driver_uuid", json_object_new_string(buf));
    uuid_string(d->pipeline_cache_uuid, buf);
    json_object_object_add(o, "pipeline_cache_uuid", json_object_new_string(buf));
    if (d->has_pci) {
        pci_string(d, buf);
        json_object_object_add(o, "pci_bus", json_object_new_string(buf));
    } else {
        json_object_object_add(o, "pci_bus", NULL);
    }
    json_object *sg = json_object_new_object();
    json_object_object_add(sg, "default", json_object_new_int64(d->subgroup_size));
    json_object_object_add(sg, "min", json_object_new_int64(d->min_subgroup_size));
    json_object_object_add(sg, "max", json_object_new_int64(d->max_subgroup_size));
    json_object_object_add(o, "subgroup_size", sg);
    if (d->subgroup_operations) {
        json_object *ops = json_object_new_array();
        for (unsigned b = 0; vkat_subgroup_operation_name(b); b++)
            if (d->subgroup_operations >> b & 1)
                json_object_array_add(ops, json_object_new_string(vkat_subgroup_operation_name(b)));
        json_object_object_add(o, "subgroup_operations", ops);
        json_object_object_add(o, "subgroup_in_compute",
                               json_object_new_boolean(d->subgroup_in_compute));
    }
    json_object_object_add(o, "max_workgroup_size", u32_array(d->max_workgroup_size, 3));
    json_object_object_add(o, "max_workgroup_invocations", json_object_new_int64(d->max_workgroup_invocations));
    json_object_object_add(o, "max_workgroup_count", u32_array(d->max_workgroup_count, 3));
    json_object_object_add(o, "max_shared_memory", json_object_new_int64(d->max_shared_memory));
    json_object_object_add(o, "max_storage_buffer_range", json_object_new_int64(d->max_storage_buffer_range));
    json_object_object_add(o, "max_push_constants_size", json_object_new_int64(d->max_push_constants_size));
    json_object_object_add(o, "max_buffer_size", json_object_new_int64((int64_t)d->max_buffer_size));
    json_object_object_add(o, "compute_units", json_object_new_int64(d->compute_units));
    json_object_object_add(o, "timestamp_period_ns", json_object_new_double(d->timestamp_period));
    json_object_object_add(o, "timestamp_valid_bits", json_object_new_int64(d->timestamp_valid_bits));
    json_object_object_add(o, "compute_queue_family", json_object_new_int64(d->compute_queue_family));
    json_object *heaps = json_object_new_array();
    for (uint32_t i = 0; i < d->heap_count; i++) {
        json_object *h = json_object_new_object();
        json_object_object_add(h, "size", json_object_new_int64((int64_t)d->heaps[i].size));
        json_object_object_add(h, "device_local", json_object_new_boolean(d->heaps[i].device_local));
        if (d->heaps[i].budget)
            json_object_object_add(h, "budget", json_object_new_int64((int64_t)d->heaps[i].budget));
        json_object_array_add(heaps, h);
    }
    json_object_object_add(o, "memory_heaps", heaps);
    json_object *f = json_object_new_object();
    for (int i = 0; i < VKAT_FEATURE_COUNT; i++)
        json_object_object_add(f, vkat_feature_names[i], json_object_new_boolean(d->feature[i]));
    json_object_object_add(o, "features", f);
    json_object *cm = json_object_new_array();
    for (uint32_t i = 0; i < d->coopmat_count; i++) {
        const vkat_coopmat_shape *s = &d->coopmat[i];
        json_object *c = json_object_new_object();
        json_object_object_add(c, "m", json_object_new_int64(s->m));
        json_object_object_add(c, "n", json_object_new_int64(s->n));
        json_object_object_add(c, "k", json_object_new_int64(s->k));
        json_object_object_add(c, "a", json_object_new_string(s->a_name));
        json_object_object_add(c, "b", json_object_new_string(s->b_name));
        json_object_object_add(c, "c", json_object_new_string(s->c_name));
        json_object_object_add(c, "result", json_object_new_string(s->result_name));
        json_object_object_add(c, "saturating", json_object_new_boolean(s->saturating));
        json_object_object_add(c, "scope", json_object_new_string(s->scope));
        json_object_array_add(cm, c);
    }
    json_object_object_add(o, "cooperative_matrix_shapes", cm);
    json_object *ex = json_object_new_array();
    for (const char *p = d->extensions; *p; p += strlen(p) + 1)
        json_object_array_add(ex, json_object_new_string(p));
    json_object_object_add(o, "extensions", ex);
    return o;
}

static void print_size(const char *label, uint64_t bytes)
{
    if (bytes >= (1ull << 30))
        printf("  %-26s %.1f GiB\n", label, (double)bytes / (double)(1ull << 30));
    else
        printf("  %-26s %llu KiB\n", label, (unsigned long long)(bytes >> 10));
}

static void device_text(const vkat_device_info *d)
{
    char buf[64];
    printf("device %u: %s\n", d->index, d->name);
    printf("  %-26s %s (0x%04x), device 0x%04x, %s\n", "vendor", d->vendor, d->vendor_id, d->device_id,
           d->device_type);
    printf("  %-26s %s %s (%s)\n", "driver", d->driver_name, d->driver_version_string, d->driver_info);
    printf("  %-26s %s\n", "vulkan", d->api_version_string);
    uuid_string(d->device_uuid, buf);
    printf("  %-26s %s\n", "device uuid", buf);
    uuid_string(d->driver_uuid, buf);
    printf("  %-26s %s\n", "driver uuid", buf);
    pci_string(d, buf);
    printf("  %-26s %s\n", "pci bus", buf);
    printf("  %-26s %u (min %u, max %u)\n", "subgroup size", d->subgroup_size, d->min_subgroup_size,
           d->max_subgroup_size);
    if (d->subgroup_operations) {
        char ops[256] = "";
        size_t used = 0;
        for (unsigned b = 0; vkat_subgroup_operation_name(b) && used < sizeof ops; b++)
            if (d->subgroup_operations >> b & 1)
                used += (size_t)snprintf(ops + used, sizeof ops - used, "%s%s", used ? ", " : "",
                                         vkat_subgroup_operation_name(b));
        printf("  %-26s %s%s\n", "subgroup operations", ops,
               d->subgroup_in_compute ? "" : " (not in compute shaders)");
    }
    printf("  %-26s %u x %u x %u, %u invocations\n", "max workgroup size", d->max_workgroup_size[0],
           d->max_workgroup_size[1], d->max_workgroup_size[2], d->max_workgroup_invocations);
    printf("  %-26s %u x %u x %u\n", "max workgroup count", d->max_workgroup_count[0], d->max_workgroup_count[1],
           d->max_workgroup_count[2]);
    print_size("shared memory", d->max_shared_memory);
    if (d->compute_units)
        printf("  %-26s %u\n", "compute units", d->compute_units);
    print_size("max storage buffer range", d->max_storage_buffer_range);
    printf("  %-26s %u bytes\n", "max push constants", d->max_push_constants_size);
    printf("  %-26s %g ns, %u valid bits (queue family %u)\n", "timestamps", d->timestamp_period,
           d->timestamp_valid_bits, d->compute_queue_family);
    for (uint32_t i = 0; i < d->heap_count; i++) {
        char label[32];
        snprintf(label, sizeof label, "memory heap %u%s", i, d->heaps[i].device_local ? " (local)" : "");
        print_size(label, d->heaps[i].size);
    }
    printf("  %-26s", "features");
    for (int i = 0; i < VKAT_FEATURE_COUNT; i++)
        if (d->feature[i])
            printf(" %s", vkat_feature_names[i]);
    printf("\n");
    if (d->coopmat_count == 0)
        printf("  %-26s none\n", "cooperative matrices");
    for (uint32_t i = 0; i < d->coopmat_count; i++) {
        const vkat_coopmat_shape *s = &d->coopmat[i];
        printf("  %-26s %ux%ux%u %s x %s + %s -> %s (%s%s)\n", i ? "" : "cooperative matrices", s->m, s->n, s->k,
               s->a_name, s->b_name, s->c_name, s->result_name, s->scope, s->saturating ? ", saturating" : "");
    }
    printf("  %-26s", "extensions");
    for (const char *p = d->extensions; *p; p += strlen(p) + 1)
        printf(" %s", p);
    printf("\n");
}

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune devices [--json]\n"
               "Lists every Vulkan device with the limits, features and cooperative-matrix shapes a tuner uses.\n");
}

int vkat_cmd_devices(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else {
            fprintf(stderr, "vkautotune devices: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return VKAT_EXIT_USAGE;
        }
    }
    vkat_instance *inst;
    vkat_error err = {0};
    if (vkat_instance_create(&inst, &err) != VKAT_OK)
        return vkat_cli_report(&err);
    uint32_t n = vkat_instance_device_count(inst);
    if (json) {
        json_object *arr = json_object_new_array();
        for (uint32_t i = 0; i < n; i++)
            json_object_array_add(arr, device_json(vkat_instance_device(inst, i)));
        printf("%s\n", json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(arr);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            if (i)
                printf("\n");
            device_text(vkat_instance_device(inst, i));
        }
    }
    vkat_instance_destroy(inst);
    return VKAT_EXIT_OK;
}
