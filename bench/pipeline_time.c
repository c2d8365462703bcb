/* pipeline_time.c — what one vkCreateComputePipelines costs, per module, with nothing else around it (issue #22).
 *
 *   pipeline_time [--threads N] [--reps R] [--stats] [--dry] [--device I] [--out FILE] JOBS
 *
 * JOBS is a text file, one job a line: `LABEL<TAB>FILE.spv[<TAB>PASSES]`. PASSES are spirv-opt flags run on the
 * module in process before it reaches the driver (SPIRV-Tools, vkat_spirv_run_passes): "--strip-debug",
 * "-O", ...; none or "-" for the module as it is. Each rep creates every job's pipeline once (a pool of N threads
 * taking the jobs in file order; the next rep starts when the last one is done, so no two threads build the same
 * module at once) and destroys it. No pipeline cache is passed; run with the driver's disk cache off
 * (__GL_SHADER_DISK_CACHE=0 on NVIDIA) to time the compiler. --stats adds CAPTURE_STATISTICS to the last rep and
 * prints the driver's statistics (registers, binary size, ...).
 *
 * --dry runs the passes only (no device) and prints each job's words and opt_ms (the passes' host time).
 *
 * Output (stdout, and FILE with --out): one TSV line per job and rep: label, rep, words, opt_ms, wall_ms, cpu_ms (the
 * creating thread's CPU time), stats ("Register Count=...; Binary Size=..."); then a `process` line with the process's
 * CPU seconds against the threads' sum (a driver that compiles on threads of its own would show it there). A benchmark:
 * it prints figures and asserts nothing. */
#include "bench.h"
#include "compile.h"
#include "device.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_JOBS 4096
#define BINDINGS 8     /* storage buffers 0..7 in set 0: a superset of what the GEMM templates declare */
#define PUSH_BYTES 128 /* the guaranteed minimum, enough for any template's push block */

typedef struct job {
    char label[160];
    uint32_t *words;
    size_t count;
    double opt_ms; /* the passes, on the host */
    double wall_ms, cpu_ms;
    char stats[1024];
    int failed;
} job;

typedef struct run {
    vkat_gpu *gpu;
    VkPipelineLayout layout;
    job *jobs;
    size_t count;
    size_t next; /* under lock */
    int capture;
    pthread_mutex_t lock;
} run;

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t *read_words(const char *path, size_t *count)
{
    size_t n = 0;
    char *bytes = vkat_read_file(path, &n);
    *count = n / 4;
    if (bytes && (n < 20 || n % 4)) {
        free(bytes);
        return NULL;
    }
    return (uint32_t *)(void *)bytes;
}

/* The module after spirv-opt's PASSES (space-separated flags; vkat_spirv_run_passes), or NULL. */
static uint32_t *run_passes(const uint32_t *in, size_t n, const char *passes, size_t *out_n)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", passes);
    const char *flags[64];
    size_t nf = 0;
    for (char *t = strtok(buf, " "); t && nf < 64; t = strtok(NULL, " "))
        flags[nf++] = t;
    vkat_spirv m = {(uint32_t *)in, n}, o = {0};
    vkat_error err = {0};
    if (vkat_spirv_run_passes(&m, 0, flags, nf, &o, &err) != VKAT_OK) {
        fprintf(stderr, "pipeline_time: %s\n", err.message);
        return NULL;
    }
    *out_n = o.count;
    return o.words;
}

static void create_one(run *r, job *j)
{
    VkDevice dev = r->gpu->device;
    double c0 = thread_cpu_s(), t0 = vkat_now();
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = j->count * 4;
    smi.pCode = j->words;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipe = VK_NULL_HANDLE;
    if (vkCreateShaderModule(dev, &smi, NULL, &module) != VK_SUCCESS) {
        j->failed = 1;
        return;
    }
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = "main";
    cpi.layout = r->layout;
    if (r->capture)
        cpi.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkResult vr = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe);
    j->wall_ms = (vkat_now() - t0) * 1e3;
    j->cpu_ms = (thread_cpu_s() - c0) * 1e3;
    j->failed = vr != VK_SUCCESS;
    j->stats[0] = 0;
    if (!j->failed && r->capture)
        vkat_pipeline_stats_text(dev, pipe, j->stats, sizeof j->stats);
    if (pipe)
        vkDestroyPipeline(dev, pipe, NULL);
    vkDestroyShaderModule(dev, module, NULL);
}

static void *worker(void *arg)
{
    run *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        size_t i = r->next++;
        pthread_mutex_unlock(&r->lock);
        if (i >= r->count)
            return NULL;
        create_one(r, &r->jobs[i]);
    }
}

static int make_layout(run *r)
{
    VkDevice dev = r->gpu->device;
    VkDescriptorSetLayoutBinding b[BINDINGS];
    for (uint32_t i = 0; i < BINDINGS; i++)
        b[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo dli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = BINDINGS;
    dli.pBindings = b;
    VkDescriptorSetLayout set;
    if (vkCreateDescriptorSetLayout(dev, &dli, NULL, &set) != VK_SUCCESS)
        return -1;
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, PUSH_BYTES};
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &set;
    pli.pushConstantRangeCount = 1;
    pli.pPushConstantRanges = &pcr;
    VkResult vr = vkCreatePipelineLayout(dev, &pli, NULL, &r->layout);
    vkDestroyDescriptorSetLayout(dev, set, NULL); /* the pipeline layout keeps what it needs */
    return vr == VK_SUCCESS ? 0 : -1;
}

/* Reads JOBS; returns the number of jobs, or -1 after a message. */
static long load_jobs(const char *path, job *jobs)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "pipeline_time: cannot open %s\n", path);
        return -1;
    }
    char line[2048];
    long n = 0, ln = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *label = line, *file = strchr(line, '\t'), *passes = NULL;
        if (!file || n >= MAX_JOBS) {
            fprintf(stderr, "%s:%ld: expected LABEL<TAB>FILE.spv[<TAB>PASSES]\n", path, ln);
            fclose(f);
            return -1;
        }
        *file++ = 0;
        if ((passes = strchr(file, '\t')))
            *passes++ = 0;
        job *j = &jobs[n];
        memset(j, 0, sizeof *j);
        snprintf(j->label, sizeof j->label, "%.159s", label);
        size_t count;
        uint32_t *w = read_words(file, &count);
        if (!w || w[0] != 0x07230203u) {
            fprintf(stderr, "%s:%ld: %s is not a SPIR-V module\n", path, ln, file);
            free(w);
            fclose(f);
            return -1;
        }
        if (passes && passes[0] && strcmp(passes, "-")) {
            size_t m = 0;
            double t0 = vkat_now();
            uint32_t *o = run_passes(w, count, passes, &m);
            j->opt_ms = (vkat_now() - t0) * 1e3;
            free(w);
            if (!o) {
                fprintf(stderr, "%s:%ld: spirv-opt %s failed on %s\n", path, ln, passes, file);
                fclose(f);
                return -1;
            }
            w = o;
            count = m;
        }
        j->words = w;
        j->count = count;
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    int threads = 8, reps = 1, stats = 0, dry = 0;
    uint32_t device = 0;
    const char *jobs_path = NULL, *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            device = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "--stats"))
            stats = 1;
        else if (!strcmp(argv[i], "--dry"))
            dry = 1;
        else if (argv[i][0] != '-' && !jobs_path)
            jobs_path = argv[i];
        else {
            fprintf(stderr, "usage: pipeline_time [--threads N] [--reps R] [--stats] [--dry] [--device I] "
                            "[--out FILE] JOBS\n");
            return 2;
        }
    }
    if (!jobs_path || threads < 1 || threads > 256 || reps < 1) {
        fprintf(stderr, "usage: pipeline_time [--threads N] [--reps R] [--stats] [--dry] [--device I] [--out FILE] "
                        "JOBS\n");
        return 2;
    }
    job *jobs = calloc(MAX_JOBS, sizeof *jobs);
    long n = jobs ? load_jobs(jobs_path, jobs) : -1;
    if (n <= 0)
        return 1;
    if (dry) { /* the passes alone: no device */
        printf("label\twords\topt_ms\n");
        for (long i = 0; i < n; i++)
            printf("%s\t%zu\t%.1f\n", jobs[i].label, jobs[i].count, jobs[i].opt_ms);
        return 0;
    }
    vkat_instance *inst = NULL;
    vkat_error err = {0};
    run r = {0};
    if (vkat_instance_create(&inst, &err) || device >= inst->count || vkat_gpu_create(inst, device, &r.gpu, &err) ||
        make_layout(&r)) {
        fprintf(stderr, "pipeline_time: no device %u (%s)\n", device, err.message);
        return 1;
    }
    FILE *out = out_path ? fopen(out_path, "w") : NULL;
    printf("# device %s, driver %s, %ld jobs, %d threads, %d reps\n", inst->info[device].name,
           inst->info[device].driver_info, n, threads, reps);
    printf("label\trep\twords\topt_ms\twall_ms\tcpu_ms\tstats\n");
    if (out)
        fprintf(out, "label\trep\twords\topt_ms\twall_ms\tcpu_ms\tstats\n");
    r.jobs = jobs;
    r.count = (size_t)n;
    pthread_mutex_init(&r.lock, NULL);
    double cpu_threads = 0, p0 = process_cpu_s(), w0 = vkat_now();
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    for (int rep = 0; rep < reps; rep++) {
        r.next = 0;
        r.capture = stats && rep == reps - 1 && r.gpu->pipeline_statistics;
        for (int t = 0; t < threads; t++)
            pthread_create(&tid[t], NULL, worker, &r);
        for (int t = 0; t < threads; t++)
            pthread_join(tid[t], NULL);
        for (long i = 0; i < n; i++) {
            job *j = &jobs[i];
            cpu_threads += j->cpu_ms / 1e3;
            const char *fmt = "%s\t%d\t%zu\t%.1f\t%.1f\t%.1f\t%s\n";
            printf(fmt, j->label, rep, j->count, j->opt_ms, j->failed ? -1.0 : j->wall_ms, j->cpu_ms, j->stats);
            if (out)
                fprintf(out, fmt, j->label, rep, j->count, j->opt_ms, j->failed ? -1.0 : j->wall_ms, j->cpu_ms,
                        j->stats);
        }
        fflush(stdout);
    }
    double pcpu = process_cpu_s() - p0, wall = vkat_now() - w0;
    printf("process\tcpu_s=%.2f\tthreads_cpu_s=%.2f\twall_s=%.2f\n", pcpu, cpu_threads, wall);
    if (out) {
        fprintf(out, "process\tcpu_s=%.2f\tthreads_cpu_s=%.2f\twall_s=%.2f\n", pcpu, cpu_threads, wall);
        fclose(out);
    }
    free(tid);
    vkDestroyPipelineLayout(r.gpu->device, r.layout, NULL);
    vkat_gpu_destroy(r.gpu);
    vkat_instance_destroy(inst);
    for (long i = 0; i < n; i++)
        free(jobs[i].words);
    free(jobs);
    return 0;
}
