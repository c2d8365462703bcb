/* space.c — reads a search space (docs/space-format.md) with inih, checks it, and answers questions about it:
 * decoding configuration indices, filling environments, checking constraints, counting valid configurations and
 * evaluating what one run needs (dispatch, buffer sizes, push constants, metrics).
 *
 * Loading runs in two passes: inih collects every `key = value` with its line, then the sections are processed in
 * a fixed order (problem and parameters before anything that names them), so sections may come in any order in
 * the file. Every user mistake becomes `file:line: message`. It must not touch Vulkan, print, or materialise the
 * space: a space of 10^12 configurations is walked by index. */
#define _POSIX_C_SOURCE 200809L
#include "space.h"
#include "device.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Bounds that keep a typo from asking for gigabytes: values of one parameter, and the push-constant block. */
#define MAX_PARAM_VALUES (1u << 20)
#define MAX_PUSH_BYTES 256 /* NVIDIA's, AMD's and Intel's maxPushConstantsSize; a device with less refuses more */
#define MAX_FIELD_BYTES 65536 /* a [fields.NAME] section: four times Vulkan's least maxUniformBufferRange */

/* ---- Device names ------------------------------------------------------------------------------------------------
 * Always the first symbols of a space, in this order, so their slots are 0..DEV_COUNT-1. */
enum {
    DEV_MAX_SHARED_MEMORY, DEV_MAX_WORKGROUP_INVOCATIONS, DEV_MAX_WORKGROUP_SIZE_X, DEV_MAX_WORKGROUP_SIZE_Y,
    DEV_MAX_WORKGROUP_SIZE_Z, DEV_MAX_WORKGROUP_COUNT_X, DEV_MAX_WORKGROUP_COUNT_Y, DEV_MAX_WORKGROUP_COUNT_Z,
    DEV_SUBGROUP_SIZE, DEV_MIN_SUBGROUP_SIZE, DEV_MAX_SUBGROUP_SIZE, DEV_MAX_PUSH_CONSTANTS,
    DEV_MAX_STORAGE_BUFFER_RANGE, DEV_VENDOR_ID, DEV_IS_NVIDIA, DEV_IS_AMD, DEV_IS_INTEL, DEV_IS_CPU, DEV_COOPMAT,
    DEV_COOPMAT_F16_M, DEV_COOPMAT_F16_N, DEV_COOPMAT_F16_K, DEV_COOPMAT_BF16_M, DEV_COOPMAT_BF16_N,
    DEV_COOPMAT_BF16_K, DEV_COMPUTE_UNITS, DEV_COOPMAT_S8_M, DEV_COOPMAT_S8_N, DEV_COOPMAT_S8_K,
    DEV_SUBGROUP_OPS, /* device.subgroup_basic ... device.subgroup_quad: one per VkSubgroupFeatureFlagBits bit */
    DEV_COUNT = DEV_SUBGROUP_OPS + 8
};

static const char *const device_names[DEV_COUNT] = {
    "device.max_shared_memory", "device.max_workgroup_invocations", "device.max_workgroup_size_x",
    "device.max_workgroup_size_y", "device.max_workgroup_size_z", "device.max_workgroup_count_x",
    "device.max_workgroup_count_y", "device.max_workgroup_count_z", "device.subgroup_size",
    "device.min_subgroup_size", "device.max_subgroup_size", "device.max_push_constants",
    "device.max_storage_buffer_range", "device.vendor_id", "device.is_nvidia", "device.is_amd", "device.is_intel",
    "device.is_cpu", "device.coopmat", "device.coopmat_f16_m", "device.coopmat_f16_n", "device.coopmat_f16_k",
    "device.coopmat_bf16_m", "device.coopmat_bf16_n", "device.coopmat_bf16_k", "device.compute_units",
    "device.coopmat_s8_m", "device.coopmat_s8_n", "device.coopmat_s8_k", "device.subgroup_basic",
    "device.subgroup_vote", "device.subgroup_arithmetic", "device.subgroup_ballot", "device.subgroup_shuffle",
    "device.subgroup_shuffle_relative", "device.subgroup_clustered", "device.subgroup_quad",
};

/* Vulkan 1.3's required minimum limits: what every conforming device offers, so a space checked without a device
 * keeps only configurations that run anywhere. */
static void device_defaults(int64_t *v)
{
    memset(v, 0, DEV_COUNT * sizeof *v);
    v[DEV_MAX_SHARED_MEMORY] = 16384;
    v[DEV_MAX_WORKGROUP_INVOCATIONS] = 128;
    v[DEV_MAX_WORKGROUP_SIZE_X] = 128;
    v[DEV_MAX_WORKGROUP_SIZE_Y] = 128;
    v[DEV_MAX_WORKGROUP_SIZE_Z] = 64;
    v[DEV_MAX_WORKGROUP_COUNT_X] = v[DEV_MAX_WORKGROUP_COUNT_Y] = v[DEV_MAX_WORKGROUP_COUNT_Z] = 65535;
    v[DEV_SUBGROUP_SIZE] = v[DEV_MIN_SUBGROUP_SIZE] = v[DEV_MAX_SUBGROUP_SIZE] = 32;
    v[DEV_MAX_PUSH_CONSTANTS] = 128;
    v[DEV_MAX_STORAGE_BUFFER_RANGE] = 134217728;
    v[DEV_SUBGROUP_OPS] = 1; /* basic operations, in compute shaders */
}

/* The first subgroup-scope shape the device lists with A and B of type `ab` and accumulators of type `acc`. */
static const vkat_coopmat_shape *find_coopmat(const vkat_device_info *d, vkat_elem_type ab, vkat_elem_type acc)
{
    for (uint32_t i = 0; i < d->coopmat_count && i < VKAT_MAX_COOPMAT_SHAPES; i++) {
        const vkat_coopmat_shape *c = &d->coopmat[i];
        if (c->a_type == ab && c->b_type == ab && c->c_type == acc && !c->saturating && c->scope &&
            strcmp(c->scope, "subgroup") == 0)
            return c;
    }
    return NULL;
}

static void device_values(const vkat_device_info *d, int64_t *v)
{
    device_defaults(v);
    if (!d)
        return;
    v[DEV_MAX_SHARED_MEMORY] = d->max_shared_memory;
    v[DEV_MAX_WORKGROUP_INVOCATIONS] = d->max_workgroup_invocations;
    for (int i = 0; i < 3; i++) {
        v[DEV_MAX_WORKGROUP_SIZE_X + i] = d->max_workgroup_size[i];
        v[DEV_MAX_WORKGROUP_COUNT_X + i] = d->max_workgroup_count[i];
    }
    v[DEV_SUBGROUP_SIZE] = d->subgroup_size;
    v[DEV_MIN_SUBGROUP_SIZE] = d->min_subgroup_size;
    v[DEV_MAX_SUBGROUP_SIZE] = d->max_subgroup_size;
    v[DEV_MAX_PUSH_CONSTANTS] = d->max_push_constants_size;
    v[DEV_MAX_STORAGE_BUFFER_RANGE] = d->max_storage_buffer_range;
    v[DEV_VENDOR_ID] = d->vendor_id;
    v[DEV_IS_NVIDIA] = d->vendor_id == 0x10DE;
    v[DEV_IS_AMD] = d->vendor_id == 0x1002;
    v[DEV_IS_INTEL] = d->vendor_id == 0x8086;
    v[DEV_IS_CPU] = d->device_type && strcmp(d->device_type, "cpu") == 0;
    v[DEV_COOPMAT] = d->feature[VKAT_FEATURE_COOPMAT] && d->coopmat_count > 0;
    v[DEV_COMPUTE_UNITS] = d->compute_units;
    /* Unknown (0: a device profile without them) counts as listed, as in the pipeline's own check (bench.c). */
    for (int i = 0; i < 8; i++)
        v[DEV_SUBGROUP_OPS + i] = !d->subgroup_operations || (d->subgroup_operations >> i & 1);
    const vkat_coopmat_shape *f16 = find_coopmat(d, VKAT_FLOAT16, VKAT_FLOAT32),
                             *bf16 = find_coopmat(d, VKAT_BFLOAT16, VKAT_FLOAT32),
                             *s8 = find_coopmat(d, VKAT_INT8, VKAT_INT32);
    if (s8) {
        v[DEV_COOPMAT_S8_M] = s8->m;
        v[DEV_COOPMAT_S8_N] = s8->n;
        v[DEV_COOPMAT_S8_K] = s8->k;
    }
    if (f16) {
        v[DEV_COOPMAT_F16_M] = f16->m;
        v[DEV_COOPMAT_F16_N] = f16->n;
        v[DEV_COOPMAT_F16_K] = f16->k;
    }
    if (bf16) {
        v[DEV_COOPMAT_BF16_M] = bf16->m;
        v[DEV_COOPMAT_BF16_N] = bf16->n;
        v[DEV_COOPMAT_BF16_K] = bf16->k;
    }
}

/* ---- Pass 1: inih collects entries ------------------------------------------------------------------------------ */

enum { SEC_KERNEL, SEC_PROBLEM, SEC_PARAMS, SEC_CONSTRAINTS, SEC_BUFFERS, SEC_PUSH, SEC_DISPATCH, SEC_METRICS,
       SEC_CHECK, SEC_PROBLEM_CPU, SEC_DEFINES, SEC_COUNT };
static const char *const section_names[SEC_COUNT] = {"kernel",  "problem",  "params",  "constraints", "buffers",
                                                      "push",    "dispatch", "metrics", "check",       "problem.cpu",
                                                      "defines"};
/* [pass.NAME] and [check.pass.NAME]: many sections each, told apart by entry.pass (space_pass.c evaluates them);
 * [fields.NAME], one per buffer, told apart by entry.pass too (an index in loader.fields_sections). */
enum { SEC_PASS = SEC_COUNT, SEC_CHECK_PASS, SEC_FIELDS };
#define MAX_PASS_SECTIONS 64

typedef struct entry {
    int section;
    char *key, *value;
    int line;
    int pass; /* SEC_PASS, SEC_CHECK_PASS: index in loader.pass_sections; SEC_FIELDS: in loader.fields_sections */
} entry;

typedef struct pass_section {
    char *name; /* "pass.NAME" or "check.pass.NAME", as written */
    int section, line;
} pass_section;

typedef struct loader {
    vkat_space *s;
    const char *path; /* for messages */
    const char *template_override; /* the caller's template, replacing [kernel] template; NULL: none */
    int kernel_optional;           /* vkat_space_load_constraints: a file without [kernel] is one */
    vkat_error *err;
    vkat_result failed;
    const char *pos, *end; /* unread text */
    int line;              /* of the line inih is working on */
    char *long_value;      /* the value of that line when it is longer than inih's buffer (line_reader) */
    int section_line[SEC_COUNT];
    entry *entries;
    size_t count, cap;
    pass_section pass_sections[MAX_PASS_SECTIONS];
    size_t pass_section_count;
    pass_section fields_sections[MAX_PASS_SECTIONS];
    size_t fields_section_count;
} loader;

static vkat_result lfail(loader *ld, vkat_result code, int line, const char *fmt, ...) VKAT_PRINTF(4, 5);
static vkat_result lfail(loader *ld, vkat_result code, int line, const char *fmt, ...)
{
    if (ld->failed)
        return ld->failed;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ld->failed = vkat_fail(ld->err, code, ld->path, line, "%s", msg);
    return ld->failed;
}

static int section_id(const char *name, size_t len)
{
    if (len > 5 && strncmp(name, "pass.", 5) == 0)
        return SEC_PASS;
    if (len > 11 && strncmp(name, "check.pass.", 11) == 0)
        return SEC_CHECK_PASS;
    if (len > 7 && strncmp(name, "fields.", 7) == 0)
        return SEC_FIELDS;
    for (int i = 0; i < SEC_COUNT; i++)
        if (strlen(section_names[i]) == len && strncmp(section_names[i], name, len) == 0)
            return i;
    return -1;
}

/* Adds section `name` (the header as written) to list[0..*count) with its header line, unless it is there already.
 * `what` names such sections for the limit's message. 0 on a mistake. */
static int add_section(loader *ld, pass_section *list, size_t *count, int id, const char *name, size_t len,
                       const char *what)
{
    for (size_t i = 0; i < *count; i++)
        if (strlen(list[i].name) == len && !strncmp(list[i].name, name, len)) {
            lfail(ld, VKAT_ERR_SPACE, ld->line, "duplicate section [%.*s] (first at line %d)", (int)len, name,
                  list[i].line);
            return 0;
        }
    if (*count == MAX_PASS_SECTIONS) {
        lfail(ld, VKAT_ERR_SPACE, ld->line, "more than %d %s", MAX_PASS_SECTIONS, what);
        return 0;
    }
    pass_section *p = &list[*count];
    if (!(p->name = vkat_strndup(name, len))) {
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        return 0;
    }
    p->section = id;
    p->line = ld->line;
    (*count)++;
    return 1;
}

/* Remembers a pass section's header line, in file order (the order of the sequence). 0 on a mistake. */
static int note_pass_section(loader *ld, int id, const char *name, size_t len)
{
    const char *pass = id == SEC_PASS ? name + 5 : name + 11;
    size_t plen = len - (size_t)(pass - name);
    for (size_t i = 0; i < plen; i++)
        if (!isalnum((unsigned char)pass[i]) && pass[i] != '_') {
            lfail(ld, VKAT_ERR_SPACE, ld->line, "bad pass name '%.*s' in [%.*s] (letters, digits and '_')", (int)plen,
                  pass, (int)len, name);
            return 0;
        }
    return add_section(ld, ld->pass_sections, &ld->pass_section_count, id, name, len, "pass sections");
}

/* inih's buffer holds 200 characters a line (INI_MAX_LINE, fixed when the packaged library was built), but a
 * parameter's values or a constraint may be longer. Such a line reaches inih as its name and a one-byte marker,
 * with the value kept here as inih would give it (from the first '=' or ':', up to a ';' after a space, both
 * ends trimmed); entry_handler takes it from there. A long comment becomes an empty one. */
static const char LONG_VALUE_MARK[] = "\x01";

static char *long_line(loader *ld, const char *start, size_t len, char *str, int num)
{
    if (*start == ';' || *start == '#') {
        snprintf(str, (size_t)num, ";\n");
        return str;
    }
    const char *eq = start, *stop = start + len;
    while (eq < stop && *eq != '=' && *eq != ':')
        eq++;
    size_t name_len = (size_t)(eq - start);
    if (*start == '[' || eq == stop || name_len + 4 > (size_t)num) {
        lfail(ld, VKAT_ERR_SYNTAX, ld->line, "line is longer than %d characters and is not 'name = value'",
              num - 2);
        return NULL;
    }
    const char *v = eq + 1, *end = v;
    while (end < stop && !(*end == ';' && end > v && isspace((unsigned char)end[-1])))
        end++;
    while (v < end && isspace((unsigned char)*v))
        v++;
    while (end > v && isspace((unsigned char)end[-1]))
        end--;
    ld->long_value = vkat_strndup(v, (size_t)(end - v));
    if (!ld->long_value) {
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    snprintf(str, (size_t)num, "%.*s=%s\n", (int)name_len, start, LONG_VALUE_MARK);
    return str;
}

/* inih's fgets-like reader. Counting lines here gives every key its line (Debian's inih is built without
 * INI_HANDLER_LINENO); stripping indentation turns off inih's multi-line continuation, which would otherwise
 * silently glue an indented line onto the previous value; and lines inih would truncate or reject are reported
 * here with a clear message rather than inih's bare line number. */
static char *line_reader(char *str, int num, void *stream)
{
    loader *ld = stream;
    if (ld->failed || ld->pos >= ld->end)
        return NULL;
    const char *start = ld->pos, *nl = memchr(start, '\n', (size_t)(ld->end - start));
    const char *stop = nl ? nl : ld->end;
    ld->pos = nl ? nl + 1 : ld->end;
    ld->line++;
    if (ld->line == 1 && stop - start >= 3 && memcmp(start, "\xEF\xBB\xBF", 3) == 0)
        start += 3;
    while (start < stop && (*start == ' ' || *start == '\t'))
        start++;
    size_t len = (size_t)(stop - start);
    if (len && start[len - 1] == '\r')
        len--;
    if (memchr(start, 0, len)) {
        lfail(ld, VKAT_ERR_SYNTAX, ld->line, "NUL byte in line");
        return NULL;
    }
    free(ld->long_value);
    ld->long_value = NULL;
    if (len + 2 > (size_t)num)
        return long_line(ld, start, len, str, num);
    memcpy(str, start, len);
    str[len] = '\n';
    str[len + 1] = 0;
    if (len == 0 || *start == ';' || *start == '#')
        return str;
    if (*start == '[') {
        const char *close = memchr(start, ']', len);
        if (!close) {
            lfail(ld, VKAT_ERR_SYNTAX, ld->line, "expected ']' after section name");
            return NULL;
        }
        const char *a = start + 1, *b = close;
        while (a < b && isspace((unsigned char)*a))
            a++;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        int id = section_id(a, (size_t)(b - a));
        if (id < 0) {
            lfail(ld, VKAT_ERR_SPACE, ld->line, "unknown section [%.*s] (known: kernel, problem, problem.cpu, params, "
                  "defines, constraints, buffers, push, fields.NAME, dispatch, metrics, check, pass.NAME, "
                  "check.pass.NAME)", (int)(b - a), a);
            return NULL;
        }
        if (id == SEC_FIELDS)
            return add_section(ld, ld->fields_sections, &ld->fields_section_count, id, a, (size_t)(b - a),
                               "[fields.NAME] sections") ? str : NULL;
        if (id >= SEC_COUNT)
            return note_pass_section(ld, id, a, (size_t)(b - a)) ? str : NULL;
        if (!ld->section_line[id])
            ld->section_line[id] = ld->line;
        return str;
    }
    if (!memchr(start, '=', len) && !memchr(start, ':', len)) {
        lfail(ld, VKAT_ERR_SYNTAX, ld->line, "expected 'name = value' or '[section]'");
        return NULL;
    }
    return str;
}

static int entry_handler(void *user, const char *section, const char *name, const char *value)
{
    loader *ld = user;
    if (ld->failed)
        return 0;
    int id = section_id(section, strlen(section));
    if (id < 0) {
        lfail(ld, VKAT_ERR_SPACE, ld->line, "'%s' is outside any section", name);
        return 0;
    }
    if (!name[0]) {
        lfail(ld, VKAT_ERR_SYNTAX, ld->line, "missing name before '='");
        return 0;
    }
    if (ld->count == ld->cap) {
        size_t cap = ld->cap ? ld->cap * 2 : 32;
        entry *e = realloc(ld->entries, cap * sizeof *e);
        if (!e) {
            lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
            return 0;
        }
        ld->entries = e;
        ld->cap = cap;
    }
    entry *e = &ld->entries[ld->count];
    e->section = id;
    e->line = ld->line;
    e->pass = -1;
    for (size_t i = 0; (id == SEC_PASS || id == SEC_CHECK_PASS) && i < ld->pass_section_count; i++)
        if (strcmp(ld->pass_sections[i].name, section) == 0)
            e->pass = (int)i;
    for (size_t i = 0; id == SEC_FIELDS && i < ld->fields_section_count; i++)
        if (strcmp(ld->fields_sections[i].name, section) == 0)
            e->pass = (int)i;
    e->key = vkat_strdup(name);
    e->value = vkat_strdup(ld->long_value && strcmp(value, LONG_VALUE_MARK) == 0 ? ld->long_value : value);
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        return 0;
    }
    ld->count++;
    return 1;
}

/* ---- Small parsing helpers --------------------------------------------------------------------------------------- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static bool is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* Splits `s` in place at commas outside parentheses into at most `cap` trimmed fields; returns how many fields
 * there are (more than cap: the rest were not split off). cap 0 only counts. */
static size_t split_fields(char *s, char **fields, size_t cap)
{
    size_t n = 0;
    int depth = 0;
    char *start = s;
    for (char *p = s;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        if (*p == 0 || (*p == ',' && depth <= 0)) {
            bool last = *p == 0;
            if (n < cap) { /* counting (cap 0) leaves the text alone */
                *p = 0;
                fields[n] = trim(start);
            }
            n++;
            if (last)
                break;
            start = p + 1;
        }
    }
    return n;
}

/* A whole-string integer: decimal or 0x hex, optional sign. */
static bool parse_i64(const char *s, int64_t *out)
{
    const char *p = s;
    bool neg = false;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
        return false;
    int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;
    if (base == 16)
        p += 2;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (end == p || *end || errno || v > (unsigned long long)INT64_MAX + neg)
        return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static bool parse_f64(const char *s, double *out)
{
    char *end;
    if (!*s)
        return false;
    errno = 0;
    *out = strtod(s, &end);
    return *end == 0 && !errno;
}

/* "name(args)" -> name length and args text; false when there are no parentheses. */
static bool split_call(char *s, char **args)
{
    char *open = strchr(s, '(');
    size_t n = strlen(s);
    if (!open || n == 0 || s[n - 1] != ')')
        return false;
    *open = 0;
    s[n - 1] = 0;
    *args = open + 1;
    trim(s);
    return true;
}

/* Expands ${NAME} from the environment, so that a space can name a shader in the user's own checkout
 * (template = ${GGML_SHADERS}/mul_mm.comp). NULL with *missing set to the name's start when a variable is unset;
 * NULL with *missing NULL when out of memory. */
static char *expand_env(const char *text, const char **missing)
{
    *missing = NULL;
    size_t cap = strlen(text) + 1, len = 0;
    char *out = malloc(cap);
    for (const char *p = text; out && *p;) {
        const char *close = p[0] == '$' && p[1] == '{' ? strchr(p + 2, '}') : NULL;
        const char *piece = p;
        size_t n = 1;
        if (close) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(close - p - 2), p + 2);
            piece = getenv(name);
            if (!piece || !*piece) {
                *missing = p + 2;
                free(out);
                return NULL;
            }
            n = strlen(piece);
            p = close + 1;
        } else {
            p++;
        }
        if (len + n + 1 > cap) {
            char *grown = realloc(out, cap = 2 * (len + n + 1));
            if (!grown)
                free(out);
            out = grown;
            if (!out)
                break;
        }
        memcpy(out + len, piece, n);
        out[len += n] = 0;
    }
    if (out)
        out[len] = 0;
    return out;
}

static char *resolve_path(const vkat_space *s, const char *rel)
{
    if (rel[0] == '/' || strcmp(s->dir, ".") == 0)
        return vkat_strdup(rel);
    size_t n = strlen(s->dir) + strlen(rel) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", s->dir, rel);
    return p;
}

/* A path the user wrote: ${NAME} expanded from the environment, then resolved from the space's directory. NULL
 * with ld->failed set on error. */
static char *user_path(loader *ld, const char *text, int line)
{
    const char *missing;
    char *expanded = expand_env(text, &missing);
    if (!expanded) {
        if (missing)
            lfail(ld, VKAT_ERR_SPACE, line, "environment variable %.*s is not set (in '%s')",
                  (int)strcspn(missing, "}"), missing, text);
        else
            lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    char *path = resolve_path(ld->s, expanded);
    free(expanded);
    if (!path)
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    return path;
}

static vkat_result parse_expr(loader *ld, const char *text, int line, vkat_expr **out)
{
    if (ld->failed)
        return ld->failed;
    vkat_result r = vkat_expr_parse(text, ld->s->symbols, ld->path, line, out, ld->err);
    if (r)
        ld->failed = r;
    return r;
}

/* The keys whose values are lists that may continue on further lines of the same key (a long list of features
 * would not fit inih's line buffer); section_keys lets them repeat and returns the first. */
static bool is_list_key(int sec, const char *key)
{
    return sec == SEC_KERNEL &&
           (strcmp(key, "extensions") == 0 || strcmp(key, "features") == 0 || strcmp(key, "include_dirs") == 0);
}

/* Checks a single-keyed section's keys against `allowed` (NULL-terminated) and fills found[i] with the entry of
 * allowed[i] or NULL. */
static vkat_result section_keys(loader *ld, int sec, const char *const *allowed, const entry **found)
{
    size_t n = 0;
    while (allowed[n])
        found[n++] = NULL;
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != sec || (sec == SEC_CHECK && strncmp(e->key, "compare.", 8) == 0))
            continue;
        size_t k = 0;
        while (allowed[k] && strcmp(allowed[k], e->key) != 0)
            k++;
        if (!allowed[k]) {
            char known[256] = "";
            for (size_t j = 0; allowed[j]; j++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", j ? ", " : "", allowed[j]);
            return lfail(ld, VKAT_ERR_SPACE, e->line, "unknown key '%s' in [%s] (known: %s)", e->key,
                         section_names[sec], known);
        }
        if (found[k] && is_list_key(sec, e->key))
            continue;
        if (found[k])
            return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate key '%s' in [%s] (first at line %d)", e->key,
                         section_names[sec], found[k]->line);
        found[k] = e;
    }
    return VKAT_OK;
}

/* A comma list of plain words ("VK_KHR_a, VK_KHR_b"), appended to *out; empty items are errors. */
static vkat_result word_list(loader *ld, const entry *e, char ***out, size_t *count)
{
    char *copy = vkat_strdup(e->value);
    if (!copy)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    size_t n = split_fields(copy, NULL, 0);
    char **fields = calloc(n, sizeof *fields), **words = calloc(n, sizeof *words);
    vkat_result r = VKAT_OK;
    if (!fields || !words) {
        r = lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    split_fields(copy, fields, n);
    if (n == 1 && !fields[0][0]) {
        n = 0; /* "extensions =" means none */
    }
    for (size_t i = 0; i < n; i++) {
        if (!fields[i][0]) {
            r = lfail(ld, VKAT_ERR_SYNTAX, e->line, "empty item in the list of %s", e->key);
            goto done;
        }
        words[i] = vkat_strdup(fields[i]);
        if (!words[i]) {
            r = lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
    }
    if (n) {
        char **all = realloc(*out, (*count + n) * sizeof *all);
        if (!all) {
            r = lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
        memcpy(all + *count, words, n * sizeof *words);
        *out = all;
        *count += n;
    }
    free(words);
    words = NULL;
done:
    if (words)
        for (size_t i = 0; i < n; i++)
            free(words[i]);
    free(words);
    free(fields);
    free(copy);
    return r;
}

/* ---- Pass 2: sections --------------------------------------------------------------------------------------------- */

static vkat_result load_kernel(loader *ld)
{
    vkat_space *s = ld->s;
    static const char *const keys[] = {"name",         "template",           "entry",           "extensions",
                                       "features",     "include_dirs",       "replace_local_size", "replace_defines",
                                       "glsl_version", "opengl_rules",       NULL};
    const entry *f[10];
    if (section_keys(ld, SEC_KERNEL, keys, f))
        return ld->failed;
    int kline = ld->section_line[SEC_KERNEL];
    if (!kline)
        return lfail(ld, VKAT_ERR_SPACE, 1, "missing [kernel] section (it names the kernel and its template)");
    if (!f[0] || !f[0]->value[0])
        return lfail(ld, VKAT_ERR_SPACE, f[0] ? f[0]->line : kline, "[kernel] needs a name");
    if (!ld->template_override && (!f[1] || !f[1]->value[0]))
        return lfail(ld, VKAT_ERR_SPACE, f[1] ? f[1]->line : kline, "[kernel] needs a template");
    s->name = vkat_strdup(f[0]->value);
    if (ld->template_override)
        s->template_path = vkat_strdup(ld->template_override);
    else if (!(s->template_path = user_path(ld, f[1]->value, f[1]->line)))
        return ld->failed;
    if (!s->template_path)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    s->entry = vkat_strdup(f[2] && f[2]->value[0] ? f[2]->value : "main");
    if (!s->name || !s->entry)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    if (f[6]) {
        int on = !strcmp(f[6]->value, "true");
        if (!on && strcmp(f[6]->value, "false"))
            return lfail(ld, VKAT_ERR_SPACE, f[6]->line, "replace_local_size must be true or false, got '%s'",
                         f[6]->value);
        s->replace_local_size = on;
        s->replace_local_size_line = f[6]->line;
    }
    if (f[9]) {
        static const char *const rules[] = {"false", "true", "separate_bindings"};
        int k = 0;
        while (k < 3 && strcmp(f[9]->value, rules[k]))
            k++;
        if (k == 3)
            return lfail(ld, VKAT_ERR_SPACE, f[9]->line,
                         "opengl_rules must be true, false or separate_bindings, got '%s'", f[9]->value);
        s->opengl_rules = k; /* VKAT_RULES_VULKAN, _OPENGL, _OPENGL_APART */
        s->opengl_rules_line = f[9]->line;
    }
    if (f[7] && word_list(ld, f[7], &s->replace_defines, &s->replace_define_count))
        return ld->failed;
    s->replace_defines_line = f[7] ? f[7]->line : 0;
    if (f[8]) { /* the versions with compute shaders */
        char *end = NULL;
        long v = strtol(f[8]->value, &end, 10);
        if (end == f[8]->value || *end || (v != 430 && v != 440 && v != 450 && v != 460))
            return lfail(ld, VKAT_ERR_SPACE, f[8]->line, "glsl_version must be 430, 440, 450 or 460, got '%s'",
                         f[8]->value);
        s->glsl_version = (int)v;
        s->glsl_version_line = f[8]->line;
    }
    FILE *t = fopen(s->template_path, "rb");
    if (!t)
        return lfail(ld, VKAT_ERR_IO, f[1] ? f[1]->line : kline, "cannot open template '%s': %s", s->template_path,
                     strerror(errno));
    fclose(t);
    for (size_t i = 0; i < ld->count; i++) {  /* every line of a list key, in order */
        const entry *e = &ld->entries[i];
        if (e->section != SEC_KERNEL)
            continue;
        if (strcmp(e->key, "extensions") == 0 && word_list(ld, e, &s->extensions, &s->extension_count))
            return ld->failed;
        if (strcmp(e->key, "include_dirs") == 0) {
            size_t from = s->include_dir_count;
            if (word_list(ld, e, &s->include_dirs, &s->include_dir_count))
                return ld->failed;
            for (size_t k = from; k < s->include_dir_count; k++) {
                char *dir = user_path(ld, s->include_dirs[k], e->line);
                if (!dir)
                    return ld->failed;
                free(s->include_dirs[k]);
                s->include_dirs[k] = dir;
            }
        }
        if (strcmp(e->key, "features") != 0)
            continue;
        size_t from = s->feature_count;
        if (word_list(ld, e, &s->features, &s->feature_count))
            return ld->failed;
        for (size_t k = from; k < s->feature_count; k++) {
            if (vkat_feature_index(s->features[k]) < 0) {
                char known[1024] = "";
                for (size_t j = 0; vkat_feature_names[j]; j++)
                    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", j ? ", " : "",
                             vkat_feature_names[j]);
                return lfail(ld, VKAT_ERR_SPACE, e->line, "unknown feature '%s' (known: %s)", s->features[k], known);
            }
        }
    }
    return VKAT_OK;
}

/* Says where a clashing name was first defined. */
static vkat_result name_clash(loader *ld, const char *name, int line)
{
    const vkat_space *s = ld->s;
    for (size_t i = 0; i < s->problem_count; i++)
        if (strcmp(s->problem[i].name, name) == 0)
            return lfail(ld, VKAT_ERR_SPACE, line, "'%s' is already defined as a problem size (line %d)", name,
                         s->problem[i].line);
    for (size_t i = 0; i < s->param_count; i++)
        if (strcmp(s->params[i].name, name) == 0)
            return lfail(ld, VKAT_ERR_SPACE, line, "duplicate parameter '%s' (first at line %d)", name,
                         s->params[i].line);
    return lfail(ld, VKAT_ERR_SPACE, line, "'%s' is a reserved name", name);
}

static int add_symbol(loader *ld, const char *name, int line)
{
    if (!is_identifier(name)) {
        lfail(ld, VKAT_ERR_SPACE, line, "'%s' is not a valid name (letters, digits and '_', not starting with a digit)",
              name);
        return -1;
    }
    if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
        lfail(ld, VKAT_ERR_SPACE, line, "'%s' is a reserved name", name);
        return -1;
    }
    if (vkat_symtab_find(ld->s->symbols, name) >= 0) {
        name_clash(ld, name, line);
        return -1;
    }
    int slot = vkat_symtab_add(ld->s->symbols, name);
    if (slot < 0)
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    return slot;
}

static size_t section_count(const loader *ld, int sec)
{
    size_t n = 0;
    for (size_t i = 0; i < ld->count; i++)
        n += ld->entries[i].section == sec;
    return n;
}

/* Is constant_id `id` already taken by a problem size or parameter other than `self`? Fails with both lines. */
static vkat_result spec_id_free(loader *ld, const entry *e, uint32_t id)
{
    const vkat_space *s = ld->s;
    for (size_t i = 0; i < s->problem_count; i++)
        if (s->problem[i].binding == VKAT_SIZE_SPEC && s->problem[i].spec_id == id && strcmp(s->problem[i].name, e->key))
            return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s' and '%s' (line %d) both use @spec(%u)", e->key,
                         s->problem[i].name, s->problem[i].line, id);
    for (size_t i = 0; i < s->param_count; i++)
        if (s->params[i].kind == VKAT_PARAM_SPEC && s->params[i].spec_id == id && strcmp(s->params[i].name, e->key))
            return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s' and '%s' (line %d) both use @spec(%u)", e->key,
                         s->params[i].name, s->params[i].line, id);
    return VKAT_OK;
}

/* "spec(N)" after '@': *id = N. */
static bool parse_spec_suffix(char *text, uint32_t *id)
{
    char *spec = trim(text), *args;
    int64_t v;
    if (!split_call(spec, &args) || strcmp(spec, "spec") != 0 || !parse_i64(trim(args), &v) || v < 0 ||
        v > UINT32_MAX)
        return false;
    *id = (uint32_t)v;
    return true;
}

/* What follows '@' in a problem size: define, spec(N), push or none. */
static vkat_result size_binding(loader *ld, const entry *e, char *text, vkat_size_binding *binding, uint32_t *id)
{
    char *word = trim(text);
    if (strcmp(word, "define") == 0)
        *binding = VKAT_SIZE_DEFINE;
    else if (strcmp(word, "push") == 0)
        *binding = VKAT_SIZE_PUSH;
    else if (strcmp(word, "none") == 0)
        *binding = VKAT_SIZE_NONE;
    else if (parse_spec_suffix(word, id))
        *binding = VKAT_SIZE_SPEC;
    else
        return lfail(ld, VKAT_ERR_SYNTAX, e->line,
                     "expected '@define', '@spec(N)', '@push' or '@none' after the value of problem size '%s'", e->key);
    return *binding == VKAT_SIZE_SPEC ? spec_id_free(ld, e, *id) : VKAT_OK;
}

static vkat_result load_problem(loader *ld)
{
    vkat_space *s = ld->s;
    size_t n = section_count(ld, SEC_PROBLEM);
    s->problem = calloc(n ? n : 1, sizeof *s->problem);
    if (!s->problem)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_PROBLEM)
            continue;
        int64_t v;
        vkat_size_binding binding = VKAT_SIZE_DEFINE;
        uint32_t spec_id = 0;
        char *value = vkat_strdup(e->value); /* whole: a value of any length */
        if (!value)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        char *at = strchr(value, '@');
        if (at) {
            *at = 0;
            trim(value);
        }
        int bad = at && size_binding(ld, e, at + 1, &binding, &spec_id);
        if (!bad && !parse_i64(value, &v))
            lfail(ld, VKAT_ERR_SPACE, e->line, "problem size '%s' must be an integer, got '%s'", e->key, value);
        free(value);
        if (ld->failed)
            return ld->failed;
        int slot = add_symbol(ld, e->key, e->line);
        if (slot < 0)
            return ld->failed;
        vkat_problem_var *p = &s->problem[s->problem_count];
        p->binding = binding;
        p->spec_id = spec_id;
        p->name = vkat_strdup(e->key);
        if (!p->name)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        p->value = p->file_value = v;
        p->slot = slot;
        p->line = e->line;
        s->problem_count++;
    }
    /* [problem.cpu]: smaller sizes for CPU devices (lavapipe), so a first run without a GPU stays quick. */
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_PROBLEM_CPU)
            continue;
        vkat_problem_var *p = NULL;
        for (size_t j = 0; j < s->problem_count; j++)
            if (!strcmp(s->problem[j].name, e->key))
                p = &s->problem[j];
        if (!p)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "[problem.cpu] names '%s', which [problem] does not define",
                         e->key);
        int64_t v;
        if (!parse_i64(e->value, &v))
            return lfail(ld, VKAT_ERR_SPACE, e->line, "problem size '%s' must be an integer, got '%s'", e->key,
                         e->value);
        p->cpu_value = v;
        p->has_cpu_value = 1;
        p->cpu_line = e->line;
    }
    return VKAT_OK;
}

void vkat_space_problem_for_device(vkat_space *s, const vkat_device_info *device)
{
    int cpu = device && device->device_type && !strcmp(device->device_type, "cpu");
    for (size_t i = 0; i < s->problem_count; i++) {
        vkat_problem_var *p = &s->problem[i];
        p->value = cpu && p->has_cpu_value ? p->cpu_value : p->file_value;
        p->from_option = 0;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static vkat_result push_value(loader *ld, const entry *e, vkat_param *p, size_t *cap, int64_t v)
{
    if (p->value_count == MAX_PARAM_VALUES)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "parameter '%s' has more than %u values", e->key,
                     MAX_PARAM_VALUES);
    if (p->value_count == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        int64_t *vals = realloc(p->values, c * sizeof *vals);
        if (!vals)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        p->values = vals;
        *cap = c;
    }
    p->values[p->value_count++] = v;
    return VKAT_OK;
}

/* One item of a value list: 4, -1, 0x10, pow2(a, b), range(a, b[, step]). */
static vkat_result param_item(loader *ld, const entry *e, vkat_param *p, size_t *cap, char *item)
{
    int64_t v;
    if (parse_i64(item, &v))
        return push_value(ld, e, p, cap, v);
    char *args;
    char form[32];
    snprintf(form, sizeof form, "%s", item);
    if (!split_call(item, &args) || (strcmp(item, "pow2") != 0 && strcmp(item, "range") != 0))
        return lfail(ld, VKAT_ERR_SYNTAX, e->line,
                     "bad value '%s' for parameter '%s' (expected integers, pow2(a, b) or range(a, b[, step]))", form,
                     e->key);
    char *a[4];
    size_t n = split_fields(args, a, 4);
    int64_t x[3] = {0, 0, 1};
    bool is_pow2 = strcmp(item, "pow2") == 0;
    if (n < 2 || n > (is_pow2 ? 2u : 3u))
        return lfail(ld, VKAT_ERR_SYNTAX, e->line, "%s takes %s in parameter '%s'", item,
                     is_pow2 ? "2 arguments: pow2(first, last)" : "2 or 3 arguments: range(first, last[, step])",
                     e->key);
    for (size_t i = 0; i < n; i++)
        if (!parse_i64(a[i], &x[i]))
            return lfail(ld, VKAT_ERR_SYNTAX, e->line, "%s(...) argument '%s' is not an integer in parameter '%s'",
                         item, a[i], e->key);
    if (is_pow2) {
        if (x[0] < 1 || x[1] < x[0] || (x[0] & (x[0] - 1)) || (x[1] & (x[1] - 1)))
            return lfail(ld, VKAT_ERR_SPACE, e->line,
                         "pow2(%lld, %lld) needs powers of two with first <= last in parameter '%s'",
                         (long long)x[0], (long long)x[1], e->key);
        for (int64_t v2 = x[0];; v2 *= 2) {
            if (push_value(ld, e, p, cap, v2))
                return ld->failed;
            if (v2 >= x[1])
                break;
        }
        return VKAT_OK;
    }
    if (x[2] <= 0 || x[1] < x[0])
        return lfail(ld, VKAT_ERR_SPACE, e->line,
                     "range(%lld, %lld, %lld) needs first <= last and a positive step in parameter '%s'",
                     (long long)x[0], (long long)x[1], (long long)x[2], e->key);
    uint64_t steps = ((uint64_t)x[1] - (uint64_t)x[0]) / (uint64_t)x[2];
    if (steps >= MAX_PARAM_VALUES)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "parameter '%s' has more than %u values", e->key, MAX_PARAM_VALUES);
    for (uint64_t i = 0; i <= steps; i++)
        if (push_value(ld, e, p, cap, x[0] + (int64_t)(i * (uint64_t)x[2])))
            return ld->failed;
    return VKAT_OK;
}

/* A list whose every item is a word that is not a number nor pow2/range ("float, vec2, vec4") holds text values. */
static bool text_values(char *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        if (!items[i][0] || parse_i64(items[i], &v) || strchr(items[i], '(') || isdigit((unsigned char)items[i][0]) ||
            items[i][0] == '-')
            return false;
    }
    return true;
}

/* Text values: texts[k] is what the template gets, values[k] = k (the value in expressions: its position). */
static vkat_result load_text_values(loader *ld, const entry *e, vkat_param *p, char *const *items, size_t n)
{
    if (p->kind == VKAT_PARAM_SPEC)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "parameter '%s' has text values; @spec needs integers", e->key);
    if (n > MAX_PARAM_VALUES)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "parameter '%s' has more than %u values", e->key, MAX_PARAM_VALUES);
    p->texts = calloc(n, sizeof *p->texts);
    p->values = calloc(n, sizeof *p->values);
    if (!p->texts || !p->values)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (strpbrk(items[i], "=;\"") || strlen(items[i]) > 63)
            return lfail(ld, VKAT_ERR_SPACE, e->line,
                         "bad text value '%s' for parameter '%s' (at most 63 characters, no '=', ';' or '\"')",
                         items[i], e->key);
        for (size_t j = 0; j < i; j++)
            if (strcmp(items[i], items[j]) == 0)
                return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate value %s in parameter '%s'", items[i], e->key);
        if (!(p->texts[i] = vkat_strdup(items[i])))
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        p->values[i] = (int64_t)i;
        p->value_count++;
    }
    return VKAT_OK;
}

static vkat_result load_param(loader *ld, const entry *e, vkat_param *p)
{
    p->line = e->line;
    p->kind = VKAT_PARAM_DEFINE;
    char *text = vkat_strdup(e->value);
    vkat_result r = VKAT_OK;
    if (!text)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    /* "values @spec(N)": a specialization constant with constant_id N. */
    char *at = strchr(text, '@');
    if (at) {
        *at = 0;
        if (!parse_spec_suffix(at + 1, &p->spec_id)) {
            r = lfail(ld, VKAT_ERR_SYNTAX, e->line,
                      "expected '@spec(N)' with a constant_id N >= 0 after the values of '%s'", e->key);
            goto done;
        }
        p->kind = VKAT_PARAM_SPEC;
        if ((r = spec_id_free(ld, e, p->spec_id)))
            goto done;
    }
    size_t n = split_fields(text, NULL, 0), cap = 0;
    char **items = calloc(n, sizeof *items);
    if (!items) {
        r = lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    split_fields(text, items, n);
    if (n == 1 && !items[0][0]) {
        free(items);
        r = lfail(ld, VKAT_ERR_SPACE, e->line, "parameter '%s' has no values", e->key);
        goto done;
    }
    if (text_values(items, n)) {
        r = load_text_values(ld, e, p, items, n);
        free(items);
        goto done;
    }
    for (size_t i = 0; i < n && !r; i++) {
        if (!items[i][0])
            r = lfail(ld, VKAT_ERR_SYNTAX, e->line, "empty value in the list of parameter '%s'", e->key);
        else
            r = param_item(ld, e, p, &cap, items[i]);
    }
    free(items);
    if (r)
        goto done;
    int64_t *sorted = malloc(p->value_count * sizeof *sorted);
    if (!sorted) {
        r = lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    memcpy(sorted, p->values, p->value_count * sizeof *sorted);
    qsort(sorted, p->value_count, sizeof *sorted, cmp_i64);
    for (size_t i = 1; i < p->value_count && !r; i++)
        if (sorted[i] == sorted[i - 1])
            r = lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate value %lld in parameter '%s'", (long long)sorted[i],
                      e->key);
    free(sorted);
done:
    free(text);
    return r;
}

static vkat_result load_params(loader *ld)
{
    vkat_space *s = ld->s;
    size_t n = section_count(ld, SEC_PARAMS);
    s->params = calloc(n ? n : 1, sizeof *s->params);
    if (!s->params)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_PARAMS)
            continue;
        int slot = add_symbol(ld, e->key, e->line);
        if (slot < 0)
            return ld->failed;
        vkat_param *p = &s->params[s->param_count];
        p->name = vkat_strdup(e->key);
        p->slot = slot;
        s->param_count++; /* counted before filling so destroy frees what load_param allocated */
        if (!p->name)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        if (load_param(ld, e, p))
            return ld->failed;
    }
    return VKAT_OK;
}

/* A [defines] name: a macro's identifier, or a function-like macro's `NAME(a, b)` (ncnn's shaders take their loads
 * and stores as `buffer_ld1(buf, i)`), whose parameters are identifiers or `...`. Returns the identifier's length
 * (0: not a macro name). */
static size_t macro_name(const char *s)
{
    size_t n = 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_')
        n++;
    if (!s[n])
        return n;
    if (s[n] != '(')
        return 0;
    const char *p = s + n + 1;
    for (int first = 1;; first = 0) {
        while (*p == ' ')
            p++;
        if (first && *p == ')')
            break;
        if (strncmp(p, "...", 3) == 0)
            p += 3;
        else if (isalpha((unsigned char)*p) || *p == '_')
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
        else
            return 0;
        while (*p == ' ')
            p++;
        if (*p == ')')
            break;
        if (*p++ != ',')
            return 0;
    }
    return p[1] ? 0 : n;
}

/* [defines]: fixed text macros ("A_TYPE = float16_t", "LOAD(b, i) = b[i]"). Their names must not be problem sizes
 * or parameters. */
/* Each replace_defines name is a parameter the template gets as a #define (not a specialization constant). */
static vkat_result check_replace_defines(loader *ld)
{
    const vkat_space *s = ld->s;
    for (size_t i = 0; i < s->replace_define_count; i++) {
        const vkat_param *p = NULL;
        for (size_t k = 0; k < s->param_count && !p; k++)
            if (!strcmp(s->params[k].name, s->replace_defines[i]))
                p = &s->params[k];
        if (!p)
            return lfail(ld, VKAT_ERR_SPACE, s->replace_defines_line,
                         "replace_defines: '%s' is not a parameter in [params] (each name is one whose values replace "
                         "the template's own `#define %s ...`)", s->replace_defines[i], s->replace_defines[i]);
        if (p->kind != VKAT_PARAM_DEFINE)
            return lfail(ld, VKAT_ERR_SPACE, s->replace_defines_line,
                         "replace_defines: '%s' is a specialization constant (@spec), not a #define", p->name);
    }
    return VKAT_OK;
}

static vkat_result load_defines(loader *ld)
{
    vkat_space *s = ld->s;
    size_t n = section_count(ld, SEC_DEFINES);
    s->defines = calloc(n ? n : 1, sizeof *s->defines);
    if (!s->defines)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_DEFINES)
            continue;
        size_t id_len = macro_name(e->key);
        if (!id_len)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s' is not a valid macro name (letters, digits and '_', not "
                         "starting with a digit; a function-like macro as NAME(a, b))", e->key);
        char id[128];
        snprintf(id, sizeof id, "%.*s", (int)(id_len < sizeof id ? id_len : sizeof id - 1), e->key);
        if (vkat_symtab_find(s->symbols, id) >= 0)
            return name_clash(ld, id, e->line);
        for (size_t j = 0; j < s->define_count; j++)
            if (strcmp(s->defines[j].name, e->key) == 0)
                return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate define '%s' (first at line %d)", e->key,
                             s->defines[j].line);
        vkat_text_define *d = &s->defines[s->define_count++];
        d->name = vkat_strdup(e->key);
        d->value = vkat_strdup(e->value);
        d->line = e->line;
        if (!d->name || !d->value)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    }
    return VKAT_OK;
}

/* A problem size bound to a push constant must be carried by some [push] value, or the shader never sees it. */
static vkat_result check_push_sizes(loader *ld)
{
    const vkat_space *s = ld->s;
    for (size_t i = 0; i < s->problem_count; i++) {
        if (s->problem[i].binding != VKAT_SIZE_PUSH)
            continue;
        int used = 0;
        for (size_t j = 0; j < s->push_count && !used; j++)
            used = s->push[j].value && vkat_expr_uses(s->push[j].value, s->problem[i].slot);
        if (!used)
            return lfail(ld, VKAT_ERR_SPACE, s->problem[i].line,
                         "problem size '%s' is @push, but no [push] value uses it (e.g. '%s = uint32, %s')",
                         s->problem[i].name, s->problem[i].name, s->problem[i].name);
    }
    return VKAT_OK;
}

/* Buffer sizes must not depend on parameters: one workspace serves every variant. Checked at load, so that
 * `compile` and `--dry-run` say it too, not only a tuning run. */
static vkat_result check_buffer_sizes(loader *ld)
{
    const vkat_space *s = ld->s;
    for (size_t b = 0; b < s->buffer_count; b++)
        for (size_t p = 0; p < s->param_count; p++)
            if (vkat_expr_uses(s->buffers[b].count, s->params[p].slot))
                return lfail(ld, VKAT_ERR_SPACE, s->buffers[b].line,
                             "the size of buffer '%s' depends on parameter '%s'; buffer sizes may depend only on "
                             "problem sizes and device limits",
                             s->buffers[b].name, s->params[p].name);
    return VKAT_OK;
}

static vkat_result load_constraints(loader *ld)
{
    vkat_space *s = ld->s;
    size_t n = section_count(ld, SEC_CONSTRAINTS);
    s->constraints = calloc(n ? n : 1, sizeof *s->constraints);
    if (!s->constraints)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_CONSTRAINTS)
            continue;
        for (size_t j = 0; j < s->constraint_count; j++)
            if (strcmp(s->constraints[j].name, e->key) == 0)
                return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate constraint '%s' (first at line %d)", e->key,
                             s->constraints[j].line);
        vkat_named_expr *c = &s->constraints[s->constraint_count];
        c->name = vkat_strdup(e->key);
        c->line = e->line;
        if (!c->name)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        s->constraint_count++;
        if (parse_expr(ld, e->value, e->line, &c->expr))
            return ld->failed;
    }
    return VKAT_OK;
}

/* "@set(S) @binding(N)" after a buffer's direction, either or both, in any order: where a shader that numbers its
 * descriptors its own way (another set, gaps) declares the buffer. Cuts the annotations off `text`. */
static vkat_result parse_placement(loader *ld, const entry *e, char *text, vkat_buffer_decl *b)
{
    char *at = strchr(text, '@');
    if (!at)
        return VKAT_OK;
    *at = 0;
    b->placed_line = e->line;
    int have_set = 0, have_binding = 0;
    for (char *tok = at + 1; tok;) {
        char *next = strchr(tok, '@'), *args;
        if (next)
            *next++ = 0;
        char *word = trim(tok);
        int64_t v;
        bool call = split_call(word, &args);
        int is_set = call && strcmp(word, "set") == 0, is_binding = call && strcmp(word, "binding") == 0;
        int *seen = is_set ? &have_set : &have_binding;
        if ((!is_set && !is_binding) || !parse_i64(trim(args), &v) || v < 0 ||
            v > (is_set ? VKAT_MAX_SETS - 1 : 65535) || (*seen)++)
            return lfail(ld, VKAT_ERR_SYNTAX, e->line,
                         "expected '@set(S)' (S 0..%d) and/or '@binding(N)' (N 0..65535), each once, after the "
                         "direction of buffer '%s'",
                         VKAT_MAX_SETS - 1, e->key);
        if (is_set)
            b->set = (uint32_t)v;
        else
            b->binding = (uint32_t)v;
        tok = next;
    }
    return VKAT_OK;
}

/* No two buffers in one descriptor slot (an explicit placement may meet another buffer's position). */
static vkat_result check_placements(loader *ld)
{
    const vkat_space *s = ld->s;
    for (size_t i = 0; i < s->buffer_count; i++)
        for (size_t j = 0; j < i; j++)
            if (s->buffers[i].set == s->buffers[j].set && s->buffers[i].binding == s->buffers[j].binding)
                return lfail(ld, VKAT_ERR_SPACE, s->buffers[i].line,
                             "buffers '%s' and '%s' (line %d) both take set %u, binding %u%s", s->buffers[i].name,
                             s->buffers[j].name, s->buffers[j].line, s->buffers[i].set, s->buffers[i].binding,
                             s->buffers[i].placed_line || s->buffers[j].placed_line
                                 ? " (a buffer without @binding takes its position among [buffers])"
                                 : "");
    return VKAT_OK;
}

static vkat_result parse_init(loader *ld, const entry *e, char *text, vkat_buffer_decl *b)
{
    char *args = NULL;
    bool call = split_call(text, &args);
    char *a[3];
    size_t n = call ? split_fields(args, a, 3) : 0;
    if (call && n == 1 && !a[0][0])
        n = 0;
    double x[2] = {0, 0};
    for (size_t i = 0; i < n && i < 2; i++)
        if (!parse_f64(a[i], &x[i]))
            return lfail(ld, VKAT_ERR_SYNTAX, e->line, "%s(...) argument '%s' is not a number in buffer '%s'", text,
                         a[i], e->key);
    if (strcmp(text, "zero") == 0 && n == 0) {
        b->init = VKAT_INIT_ZERO;
    } else if (strcmp(text, "random") == 0 && call && n == 2 && x[0] <= x[1]) {
        b->init = VKAT_INIT_RANDOM;
        b->init_a = x[0];
        b->init_b = x[1];
    } else if (strcmp(text, "const") == 0 && call && n == 1) {
        b->init = VKAT_INIT_CONST;
        b->init_a = x[0];
    } else if (strcmp(text, "iota") == 0 && n <= 2) {
        b->init = VKAT_INIT_IOTA;
        b->init_a = x[0];
        b->init_b = n == 2 ? x[1] : 1.0;
    } else if (strcmp(text, "random") == 0 && call && n == 2) {
        return lfail(ld, VKAT_ERR_SPACE, e->line, "random(%s, %s) for buffer '%s': lo is above hi", a[0], a[1],
                     e->key);
    } else {
        /* a known init with the wrong arguments says what it takes; another name lists them all */
        static const struct { const char *name, *form; } forms[] = {
            {"zero", "zero, no arguments"}, {"random", "random(lo, hi), two numbers"},
            {"const", "const(v), one number"}, {"iota", "iota or iota(start, step)"}};
        for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
            if (strcmp(text, forms[i].name) == 0)
                return lfail(ld, VKAT_ERR_SPACE, e->line, "init '%s%s' for buffer '%s' takes %s; got %s%zu argument%s",
                             text, call ? "(...)" : "", e->key, forms[i].form, n > 2 ? "more than " : "",
                             n > 2 ? (size_t)2 : n, n == 1 ? "" : "s");
        return lfail(ld, VKAT_ERR_SPACE, e->line,
                     "bad init '%s%s' for buffer '%s' (expected zero, random(lo, hi), const(v), iota or "
                     "iota(start, step))", text, call ? "(...)" : "", e->key);
    }
    return VKAT_OK;
}

/* Is a [buffers] entry's count field a call of `what` (image(W[, H[, D]]), texels(COUNT))? */
static bool is_call_of(const char *count, const char *what)
{
    size_t n = strlen(what);
    if (strncmp(count, what, n))
        return false;
    count += n;
    while (*count == ' ' || *count == '\t')
        count++;
    return *count == '(';
}

/* `FORMAT, texels(COUNT), ...`: the format and, as the buffer's count, COUNT * channels (the components, which is
 * how the workspace fills and reads them). */
static vkat_result parse_texels(loader *ld, const entry *e, char **f, vkat_buffer_decl *b)
{
    b->texel = vkat_image_format_find(f[0]);
    if (!b->texel)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "unknown format '%s' for texel buffer '%s' (known: %s)", f[0],
                     e->key, vkat_image_format_names());
    b->type = b->texel->component;
    char *args = NULL, *n[2], given[256];
    snprintf(given, sizeof given, "%s", f[1]); /* split_call cuts f[1] */
    if (!split_call(f[1], &args) || split_fields(args, n, 2) != 1 || !n[0][0])
        return lfail(ld, VKAT_ERR_SYNTAX, e->line, "texel buffer '%s' needs one size, texels(COUNT); got '%s'", e->key,
                     given);
    char product[1024];
    if (snprintf(product, sizeof product, "%u * (%s)", b->texel->channels, n[0]) >= (int)sizeof product)
        return lfail(ld, VKAT_ERR_SYNTAX, e->line, "the size of texel buffer '%s' is too long", e->key);
    return parse_expr(ld, product, e->line, &b->count);
}

/* `FORMAT, image(W[, H[, D]]), ...`: the format, the extent's expressions and, as the buffer's count, the product
 * W * H * D * channels (the texels as packed components, which is how the workspace fills and reads them). */
static vkat_result parse_image(loader *ld, const entry *e, char **f, vkat_buffer_decl *b)
{
    b->image = vkat_image_format_find(f[0]);
    if (!b->image)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "unknown image format '%s' for image '%s' (known: %s)", f[0], e->key,
                     vkat_image_format_names());
    b->type = b->image->component;
    char *args = NULL, *dims[4], given[256];
    snprintf(given, sizeof given, "%s", f[1]); /* split_call cuts f[1] */
    size_t n = split_call(f[1], &args) ? split_fields(args, dims, 4) : 0; /* not a call: 'image(4) + 1' */
    if (n < 1 || n > 3 || !dims[0][0])
        return lfail(ld, VKAT_ERR_SYNTAX, e->line,
                     "image '%s' needs 1 to 3 sizes, image(W), image(W, H) or image(W, H, D); got '%s'", e->key,
                     given);
    char product[1024];
    int used = snprintf(product, sizeof product, "%u", b->image->channels);
    for (size_t k = 0; k < n; k++) {
        if (parse_expr(ld, dims[k], e->line, &b->extent[k]))
            return ld->failed;
        used += snprintf(product + used, used < (int)sizeof product ? sizeof product - (size_t)used : 0, " * (%s)",
                         dims[k]);
    }
    if (used >= (int)sizeof product)
        return lfail(ld, VKAT_ERR_SYNTAX, e->line, "the sizes of image '%s' are too long", e->key);
    return parse_expr(ld, product, e->line, &b->count);
}

static vkat_result load_buffers(loader *ld)
{
    vkat_space *s = ld->s;
    size_t n = section_count(ld, SEC_BUFFERS);
    s->buffers = calloc(n ? n : 1, sizeof *s->buffers);
    if (!s->buffers)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_BUFFERS)
            continue;
        for (size_t j = 0; j < s->buffer_count; j++)
            if (strcmp(s->buffers[j].name, e->key) == 0)
                return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate buffer '%s' (first at line %d)", e->key,
                             s->buffers[j].line);
        vkat_buffer_decl *b = &s->buffers[s->buffer_count];
        b->name = vkat_strdup(e->key);
        b->binding = (uint32_t)s->buffer_count;
        b->line = e->line;
        if (!b->name)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        s->buffer_count++;
        char *text = vkat_strdup(e->value), *f[5];
        if (!text)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        if (parse_placement(ld, e, text, b)) {
            free(text);
            return ld->failed;
        }
        size_t nf = split_fields(text, f, 5);
        int image = nf == 4 && is_call_of(f[1], "image"), texels = nf == 4 && is_call_of(f[1], "texels");
        int type = nf == 4 && !image && !texels ? vkat_elem_type_from_name(f[0]) : 0;
        if (nf != 4)
            lfail(ld, VKAT_ERR_SYNTAX, e->line,
                  "buffer '%s' needs 'type, count, init, direction', e.g. 'float32, M*K, random(-1, 1), in' (an "
                  "image: 'rgba8, image(W, H), random(0, 1), in'; a texel buffer: 'r32f, texels(N), zero, out')",
                  e->key);
        else if (type < 0)
            lfail(ld, VKAT_ERR_SPACE, e->line,
                  "unknown type '%s' for buffer '%s' (known: float32, float16, bfloat16, int32, uint32, int8, uint8, "
                  "unorm8)%s", f[0], e->key,
                  vkat_image_format_find(f[0]) ? "; for an image of that format, give its sizes as image(W, H), for "
                                                 "a texel buffer texels(N)" : "");
        else if (!(image    ? parse_image(ld, e, f, b)
                   : texels ? parse_texels(ld, e, f, b)
                            : parse_expr(ld, f[1], e->line, &b->count)) &&
                 (image || texels))
            type = (int)b->type; /* the format's component type */
        if (!ld->failed && !parse_init(ld, e, f[2], b)) {
            b->type = (vkat_elem_type)type;
            if (b->image && strcmp(f[3], "sampled") == 0)
                b->dir = VKAT_DIR_IN, b->sampled = 1; /* read through a sampler: a combined image sampler */
            else if (b->image && strcmp(f[3], "in") && strcmp(f[3], "out") && strcmp(f[3], "inout") &&
                     strcmp(f[3], "scratch"))
                lfail(ld, VKAT_ERR_SPACE, e->line,
                      "bad direction '%s' for image '%s' (expected in, out, inout or scratch for a storage image, "
                      "sampled for one read through a sampler)", f[3], e->key);
            else if (b->texel && strcmp(f[3], "in") && strcmp(f[3], "out") && strcmp(f[3], "inout") &&
                     strcmp(f[3], "scratch") && strcmp(f[3], "uniform"))
                lfail(ld, VKAT_ERR_SPACE, e->line,
                      "bad direction '%s' for texel buffer '%s' (expected in, out, inout or scratch for a storage "
                      "texel buffer (imageBuffer), uniform for a uniform texel buffer (samplerBuffer, textureBuffer))",
                      f[3], e->key);
            else if (strcmp(f[3], "in") == 0)
                b->dir = VKAT_DIR_IN;
            else if (strcmp(f[3], "out") == 0)
                b->dir = VKAT_DIR_OUT;
            else if (strcmp(f[3], "inout") == 0)
                b->dir = VKAT_DIR_INOUT;
            else if (strcmp(f[3], "uniform") == 0)
                b->dir = VKAT_DIR_IN, b->uniform = 1; /* a uniform block: read-only, bound as a uniform buffer */
            else if (strcmp(f[3], "scratch") == 0)
                b->dir = VKAT_DIR_SCRATCH;
            else
                lfail(ld, VKAT_ERR_SPACE, e->line,
                      "bad direction '%s' for buffer '%s' (expected in, out, inout, uniform or scratch)", f[3], e->key);
        }
        free(text);
        if (ld->failed)
            return ld->failed;
    }
    return check_placements(ld);
}

/* "expr @offset(N)": strips the suffix from `text` and sets *offset (-1 when there is none); 0 when malformed. */
static int push_offset_suffix(char *text, long *offset)
{
    *offset = -1;
    char *at = strstr(text, "@offset(");
    if (!at)
        return !strchr(text, '@');
    char *endp = NULL;
    long v = strtol(at + 8, &endp, 10);
    if (endp == at + 8 || *endp != ')' || *trim(endp + 1) || v < 0 || v % 4)
        return 0;
    *offset = v;
    *at = 0;
    return 1;
}

/* The entries of a section of 4-byte values ([push], or [fields.NAME] with index `fields`): NAME = type,
 * value[, value...] [@offset(N)], one value per component (a vector of 2 to 4, NAME.x, .y, .z, .w), each 4 bytes,
 * placed as std430 places a block's members (a scalar 4-aligned, a 2-vector 8, a 3- or 4-vector 16) after the entry
 * before, or at offset N, as the shader's `layout(offset = N)` or std140 puts it. `noun` names one in messages,
 * `where` the section; at most max_bytes. */
static vkat_result load_values(loader *ld, int sec, int fields, const char *noun, const char *where,
                               uint32_t max_bytes, vkat_push_decl **out, size_t *count)
{
    static const char comp_names[4] = {'x', 'y', 'z', 'w'};
    size_t n = 0;
    for (size_t i = 0; i < ld->count; i++)
        n += ld->entries[i].section == sec && (sec != SEC_FIELDS || ld->entries[i].pass == fields);
    vkat_push_decl *v = *out = calloc(n ? 4 * n : 1, sizeof *v);
    if (!v)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    uint32_t next = 0;
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != sec || (sec == SEC_FIELDS && e->pass != fields))
            continue;
        for (size_t j = 0; j < *count; j++) {
            size_t len = strlen(e->key);
            if (strncmp(v[j].name, e->key, len) == 0 && (!v[j].name[len] || v[j].name[len] == '.'))
                return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate %s '%s' (first at line %d)", noun, e->key,
                             v[j].line);
        }
        char *text = vkat_strdup(e->value), *f[6];
        if (!text)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        size_t nf = split_fields(text, f, 6);
        long at = -1;
        if (nf < 2 || nf > 5)
            lfail(ld, VKAT_ERR_SYNTAX, e->line,
                  "%s '%s' needs 'type, value' (a vector: one value per component, at most 4), e.g. "
                  "'uint32, M'", noun, e->key);
        else if (strcmp(f[0], "int32") && strcmp(f[0], "uint32") && strcmp(f[0], "float32"))
            lfail(ld, VKAT_ERR_SPACE, e->line, "%s '%s' has type '%s'; expected int32, uint32 or float32", noun,
                  e->key, f[0]);
        else if (!push_offset_suffix(f[nf - 1], &at))
            lfail(ld, VKAT_ERR_SYNTAX, e->line,
                  "%s '%s': expected '@offset(N)' (N a multiple of 4) after its last value", noun, e->key);
        size_t comps = nf - 1;
        uint32_t align = comps == 1 ? 4 : comps == 2 ? 8 : 16;
        uint32_t off = at >= 0 ? (uint32_t)at : (next + align - 1) / align * align;
        if (!ld->failed && at >= 0 && off < next)
            lfail(ld, VKAT_ERR_SPACE, e->line,
                  "%s '%s' at @offset(%u) overlaps the one before, which ends at %u: write [%s] in the "
                  "block's order", noun, e->key, off, next, where);
        if (!ld->failed && (uint64_t)off + 4 * comps > max_bytes)
            lfail(ld, VKAT_ERR_SPACE, e->line, "%s '%s' does not fit: at most %u bytes (%u values)", noun,
                  e->key, max_bytes, max_bytes / 4);
        for (size_t k = 0; k < comps && !ld->failed; k++) {
            vkat_push_decl *p = &v[*count];
            size_t len = strlen(e->key) + 3;
            p->name = malloc(len);
            if (!p->name) {
                lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
                break;
            }
            if (comps > 1)
                snprintf(p->name, len, "%s.%c", e->key, comp_names[k]);
            else
                snprintf(p->name, len, "%s", e->key);
            p->line = e->line;
            p->offset = off + 4 * (uint32_t)k;
            (*count)++;
            if (!parse_expr(ld, f[1 + k], e->line, &p->value))
                p->type = (vkat_elem_type)vkat_elem_type_from_name(f[0]);
        }
        next = off + 4 * (uint32_t)comps;
        free(text);
        if (ld->failed)
            return ld->failed;
    }
    return VKAT_OK;
}

static vkat_result load_push(loader *ld)
{
    return load_values(ld, SEC_PUSH, -1, "push constant", "push", MAX_PUSH_BYTES, &ld->s->push, &ld->s->push_count);
}

/* [fields.NAME]: the values of buffer NAME, an input (a uniform block's members), of problem sizes alone since the
 * buffer is filled once for the run. */
static vkat_result load_fields(loader *ld)
{
    vkat_space *s = ld->s;
    for (size_t i = 0; i < ld->fields_section_count; i++) {
        const pass_section *fs = &ld->fields_sections[i];
        const char *name = fs->name + 7; /* after "fields." */
        vkat_buffer_decl *b = NULL;
        for (size_t j = 0; j < s->buffer_count && !b; j++)
            if (!strcmp(s->buffers[j].name, name))
                b = &s->buffers[j];
        if (!b)
            return lfail(ld, VKAT_ERR_SPACE, fs->line, "[fields.%s]: no buffer '%s' in [buffers]", name, name);
        if (b->image || b->texel || b->dir == VKAT_DIR_OUT)
            return lfail(ld, VKAT_ERR_SPACE, fs->line,
                         "[fields.%s]: buffer '%s' (line %d) is %s; fields go into a buffer the kernel reads (a "
                         "uniform block, an in or inout buffer)", name, name, b->line,
                         b->image ? "an image" : b->texel ? "a texel buffer" : "an output");
        if (load_values(ld, SEC_FIELDS, (int)i, "field", fs->name, MAX_FIELD_BYTES, &b->fields, &b->field_count))
            return ld->failed;
        for (size_t k = 0; k < b->field_count; k++)
            for (size_t p = 0; p < s->param_count; p++)
                if (vkat_expr_uses(b->fields[k].value, s->params[p].slot))
                    return lfail(ld, VKAT_ERR_SPACE, b->fields[k].line,
                                 "field '%s' of buffer '%s' depends on parameter '%s'; a buffer's fields may depend "
                                 "only on problem sizes and device limits (give a per-variant value in [push])",
                                 b->fields[k].name, b->name, s->params[p].name);
    }
    return VKAT_OK;
}

uint32_t vkat_space_push_size(const vkat_space *s)
{
    uint32_t end = 0;
    for (size_t i = 0; i < s->push_count; i++)
        end = s->push[i].offset + 4 > end ? s->push[i].offset + 4 : end;
    return end;
}

/* "x, y, z" with 1 to 3 expressions; missing ones stay NULL (= 1). */
static vkat_result load_xyz(loader *ld, const entry *e, vkat_expr **out)
{
    char *text = vkat_strdup(e->value), *f[4];
    if (!text)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    size_t n = split_fields(text, f, 4);
    if (n > 3 || !f[0][0])
        lfail(ld, VKAT_ERR_SYNTAX, e->line, "%s needs 1 to 3 expressions: x[, y[, z]]", e->key);
    for (size_t i = 0; i < n && i < 3 && !ld->failed; i++)
        parse_expr(ld, f[i], e->line, &out[i]);
    free(text);
    return ld->failed;
}

/* [metrics] tensor = A, C (cooperative-matrix component type names, C may be '*') or "*". Without it, a space
 * that needs a cooperative-matrix feature is bounded by the fastest shape whose A type is its first 8- or 16-bit
 * input buffer's ("float16,*"): a kernel's fragments come from its inputs, and a float16 kernel must not be held
 * to the int8 rate. With no such input, the fastest shape of any type ("*"). */
static vkat_result load_tensor(loader *ld, const entry *e)
{
    vkat_space *s = ld->s;
    if (!e) {
        int coopmat = 0;
        for (size_t i = 0; i < s->feature_count; i++)
            coopmat |= !strncmp(s->features[i], "cooperativeMatrix", strlen("cooperativeMatrix"));
        if (!coopmat)
            return VKAT_OK;
        snprintf(s->tensor, sizeof s->tensor, "*");
        for (size_t i = 0; i < s->buffer_count; i++) {
            const vkat_buffer_decl *b = &s->buffers[i];
            if ((b->dir & VKAT_DIR_IN) && vkat_elem_type_size(b->type) <= 2) {
                snprintf(s->tensor, sizeof s->tensor, "%s,*", vkat_elem_type_name(b->type));
                break;
            }
        }
        return VKAT_OK;
    }
    static const char *const types[] = {"float16", "bfloat16", "float32", "int8", "uint8", "int16", "uint16",
                                        "int32", "uint32", "float_e4m3", "float_e5m2", NULL};
    char ab[24] = "", acc[24] = "", extra[8] = ""; /* "A,C" fits vkat_space.tensor (48) */
    if (!strcmp(e->value, "*")) {
        snprintf(s->tensor, sizeof s->tensor, "*");
        return VKAT_OK;
    }
    int n = sscanf(e->value, " %23[^, ] , %23[^, ] %7s", ab, acc, extra);
    int ok_ab = 0, ok_acc = !strcmp(acc, "*");
    for (int i = 0; types[i]; i++) {
        ok_ab |= !strcmp(ab, types[i]);
        ok_acc |= !strcmp(acc, types[i]);
    }
    if (n != 2 || !ok_ab || !ok_acc)
        return lfail(ld, VKAT_ERR_SPACE, e->line,
                     "[metrics] tensor must be '*' or 'A, C': the input and accumulator component types (float16, "
                     "bfloat16, float32, int8, uint8, int16, uint16, int32, uint32, float_e4m3, float_e5m2; C may "
                     "be '*'), got '%s'",
                     e->value);
    snprintf(s->tensor, sizeof s->tensor, "%s,%s", ab, acc);
    return VKAT_OK;
}

static vkat_result load_dispatch_metrics(loader *ld)
{
    vkat_space *s = ld->s;
    static const char *const dkeys[] = {"local_size", "groups", NULL};
    static const char *const mkeys[] = {"flops", "bytes", "tensor", NULL};
    const entry *f[3];
    if (section_keys(ld, SEC_DISPATCH, dkeys, f))
        return ld->failed;
    if (f[0] && load_xyz(ld, f[0], s->local_size))
        return ld->failed;
    if (f[1] && load_xyz(ld, f[1], s->groups))
        return ld->failed;
    if (section_keys(ld, SEC_METRICS, mkeys, f))
        return ld->failed;
    if (f[0] && parse_expr(ld, f[0]->value, f[0]->line, &s->flops))
        return ld->failed;
    if (f[1] && parse_expr(ld, f[1]->value, f[1]->line, &s->bytes))
        return ld->failed;
    return load_tensor(ld, f[2]);
}

/* [check] config = K=V,...: the template at that configuration is the reference. Its names and values are checked
 * here; the parameters it leaves out are completed per device at run time (the first valid configuration). */
static vkat_result load_check_config(loader *ld, const entry *const f[6])
{
    vkat_space *s = ld->s;
    if (f[0])
        return lfail(ld, VKAT_ERR_SPACE, f[5]->line,
                     "[check] has both a reference shader (line %d) and config; give one", f[0]->line);
    for (int k = 1; k < 3; k++)
        if (f[k])
            return lfail(ld, VKAT_ERR_SPACE, f[k]->line,
                         "[check] %s is for a reference shader; with config the reference runs as [dispatch] says",
                         k == 1 ? "local_size" : "groups");
    for (size_t i = 0; i < ld->pass_section_count; i++)
        if (ld->pass_sections[i].section == SEC_CHECK_PASS)
            return lfail(ld, VKAT_ERR_SPACE, f[5]->line,
                         "[check] config runs the template's own passes; [check.pass.*] sections are for a reference "
                         "shader");
    uint32_t *choice = calloc(s->param_count ? s->param_count : 1, sizeof *choice);
    bool *named = calloc(s->param_count ? s->param_count : 1, sizeof *named);
    vkat_error e = {0};
    vkat_result r = choice && named ? vkat_space_parse_named(s, f[5]->value, choice, named, &e) : VKAT_ERR_NOMEM;
    free(choice);
    free(named);
    if (r == VKAT_ERR_NOMEM)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    if (r)
        return lfail(ld, VKAT_ERR_SPACE, f[5]->line, "[check] config: %s", e.message);
    if (!(s->reference_config = vkat_strdup(f[5]->value)))
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    s->reference_config_line = f[5]->line;
    return VKAT_OK;
}

static vkat_result load_check(loader *ld)
{
    vkat_space *s = ld->s;
    static const char *const keys[] = {"reference", "local_size", "groups", "rel_l2", "max_abs", "config", NULL};
    const entry *f[6];
    s->rel_l2_tolerance = 1e-5;
    s->max_abs_tolerance = INFINITY;
    if (section_keys(ld, SEC_CHECK, keys, f))
        return ld->failed;
    for (int k = 3; k < 5; k++) {
        double v;
        if (f[k] && (!parse_f64(f[k]->value, &v) || !(v >= 0)))
            return lfail(ld, VKAT_ERR_SPACE, f[k]->line, "%s must be a number >= 0, got '%s'", keys[k], f[k]->value);
        if (f[k])
            *(k == 3 ? &s->rel_l2_tolerance : &s->max_abs_tolerance) = v;
    }
    if (f[5])
        return load_check_config(ld, f);
    if (!f[0]) {
        for (int k = 1; k < 3; k++)
            if (f[k])
                return lfail(ld, VKAT_ERR_SPACE, f[k]->line, "[check] %s without a reference", keys[k]);
        return VKAT_OK;
    }
    if (!f[0]->value[0])
        return lfail(ld, VKAT_ERR_SPACE, f[0]->line, "[check] reference is empty");
    int ref_passes = 0;
    for (size_t i = 0; i < ld->pass_section_count; i++)
        ref_passes |= ld->pass_sections[i].section == SEC_CHECK_PASS;
    if ((!f[1] || !f[2]) && !ref_passes)
        return lfail(ld, VKAT_ERR_SPACE, f[0]->line,
                     "[check] reference needs its own local_size and groups (from problem sizes and device names)");
    if (!(s->reference_path = user_path(ld, f[0]->value, f[0]->line)))
        return ld->failed;
    FILE *t = fopen(s->reference_path, "rb");
    if (!t)
        return lfail(ld, VKAT_ERR_IO, f[0]->line, "cannot open reference '%s': %s", s->reference_path,
                     strerror(errno));
    fclose(t);
    for (int k = 1; k < 3; k++) {
        vkat_expr **xyz = k == 1 ? s->ref_local_size : s->ref_groups;
        if (f[k] && load_xyz(ld, f[k], xyz))
            return ld->failed;
        /* The reference runs once for every configuration, so it cannot depend on one. */
        for (int a = 0; a < 3; a++)
            for (size_t p = 0; xyz[a] && p < s->param_count; p++)
                if (vkat_expr_uses(xyz[a], s->params[p].slot))
                    return lfail(ld, VKAT_ERR_SPACE, f[k]->line,
                                 "[check] %s uses parameter '%s'; only problem sizes and device names are allowed",
                                 keys[k], s->params[p].name);
    }
    return VKAT_OK;
}

/* [check] compare.NAME = offset, count: the slice of output NAME that is compared; = unordered: all of it, in any
 * order. */
static vkat_result load_compare(loader *ld)
{
    vkat_space *s = ld->s;
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->section != SEC_CHECK || strncmp(e->key, "compare.", 8) != 0)
            continue;
        vkat_buffer_decl *b = NULL;
        for (size_t j = 0; j < s->buffer_count; j++)
            if (strcmp(s->buffers[j].name, e->key + 8) == 0)
                b = &s->buffers[j];
        if (!s->reference_path && !s->reference_config)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "[check] %s without a reference: nothing to compare with",
                         e->key);
        if (!b)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "[check] %s: no buffer '%s' in [buffers]", e->key, e->key + 8);
        if (!(b->dir & VKAT_DIR_OUT))
            return lfail(ld, VKAT_ERR_SPACE, e->line, "[check] %s: buffer '%s' is not an output (out or inout)", e->key,
                         b->name);
        if (b->compare_count || b->compare_unordered)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate key '%s' in [check] (first at line %d)", e->key,
                         b->compare_line);
        if (strcmp(e->value, "unordered") == 0) { /* an append buffer: the same elements in any order */
            b->compare_unordered = 1, b->compare_line = e->line;
            continue;
        }
        char *text = vkat_strdup(e->value), *f[3];
        if (!text)
            return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
        size_t nf = split_fields(text, f, 3);
        if (nf != 2 || !f[0][0] || !f[1][0])
            lfail(ld, VKAT_ERR_SYNTAX, e->line, "[check] %s needs 'offset, count' (elements), e.g. '0, 1', or "
                  "'unordered'", e->key);
        else if (!parse_expr(ld, f[0], e->line, &b->compare_offset))
            parse_expr(ld, f[1], e->line, &b->compare_count);
        b->compare_line = e->line;
        free(text);
        if (ld->failed)
            return ld->failed;
    }
    return VKAT_OK;
}

/* Parses a pass key `prefix.X` into `out`: for spec, X is a constant_id; for push, the name of a [push] entry. */
static vkat_result load_pass_override(loader *ld, const entry *e, int spec, vkat_pass_decl *p)
{
    vkat_space *s = ld->s;
    const char *what = e->key + 5; /* after "spec." or "push." */
    uint32_t index = 0;
    if (spec) {
        int64_t id;
        if (!parse_i64(what, &id) || id < 0 || id > UINT32_MAX)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s': expected spec.N with a constant_id N >= 0", e->key);
        index = (uint32_t)id;
    } else {
        while (index < s->push_count && strcmp(s->push[index].name, what) != 0)
            index++;
        if (index == s->push_count)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s': no push constant '%s' in [push]", e->key, what);
    }
    vkat_pass_override **list = spec ? &p->spec : &p->push;
    size_t *n = spec ? &p->spec_count : &p->push_count;
    for (size_t i = 0; i < *n; i++)
        if ((*list)[i].index == index)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate key '%s' in [%s] (first at line %d)", e->key,
                         ld->pass_sections[e->pass].name, (*list)[i].line);
    if (spec && *n == VKAT_MAX_STEP_SPEC)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "more than %d specialization constants in one pass",
                     VKAT_MAX_STEP_SPEC);
    vkat_pass_override *grown = realloc(*list, (*n + 1) * sizeof **list);
    if (!grown)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    *list = grown;
    vkat_pass_override *o = &grown[(*n)++];
    o->index = index;
    o->line = e->line;
    o->value = NULL;
    return parse_expr(ld, e->value, e->line, &o->value);
}

/* A binding can only hold what its descriptor type takes: a storage buffer, a uniform buffer, a storage image, a
 * sampled one, or a storage or uniform texel buffer (of any format: the view's format is the entry's). */
static int descriptor_class(const vkat_buffer_decl *b)
{
    return b->image ? (b->sampled ? 3 : 2) : b->texel ? (b->uniform ? 5 : 4) : b->uniform ? 1 : 0;
}

static const char *descriptor_class_name(const vkat_buffer_decl *b)
{
    static const char *const names[] = {"storage buffer", "uniform buffer", "storage image", "sampled image",
                                        "storage texel buffer", "uniform texel buffer"};
    return names[descriptor_class(b)];
}

/* bind.N = A[, B, ...][ @ index]: which buffer binding N holds in this pass. */
static vkat_result load_pass_bind(loader *ld, const entry *e, vkat_pass_decl *p)
{
    vkat_space *s = ld->s;
    int64_t slot;
    for (size_t i = 0; i < s->buffer_count; i++)
        if (s->buffers[i].placed_line) /* bind.N numbers bindings by position, which placements renumber */
            return lfail(ld, VKAT_ERR_SPACE, e->line,
                         "'%s' rebinds buffers by their position, which cannot be combined with buffer '%s' placed by "
                         "@set/@binding (line %d)",
                         e->key, s->buffers[i].name, s->buffers[i].placed_line);
    if (!parse_i64(e->key + 5, &slot) || slot < 0 || (uint64_t)slot >= s->buffer_count ||
        slot >= VKAT_MAX_STEP_BINDINGS)
        return lfail(ld, VKAT_ERR_SPACE, e->line, "'%s': expected bind.N with a binding N of the [buffers] (0..%zu)",
                     e->key, (s->buffer_count < VKAT_MAX_STEP_BINDINGS ? s->buffer_count : VKAT_MAX_STEP_BINDINGS) - 1);
    for (size_t i = 0; i < p->bind_count; i++)
        if (p->binds[i].slot == (uint32_t)slot)
            return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate key '%s' in [%s] (first at line %d)", e->key,
                         ld->pass_sections[e->pass].name, p->binds[i].line);
    vkat_pass_bind *grown = realloc(p->binds, (p->bind_count + 1) * sizeof *grown);
    if (!grown)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    p->binds = grown;
    vkat_pass_bind *b = &grown[p->bind_count++];
    memset(b, 0, sizeof *b);
    b->slot = (uint32_t)slot;
    b->line = e->line;
    char *text = vkat_strdup(e->value), *f[VKAT_MAX_STEP_BINDINGS + 1];
    if (!text)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    char *at = strrchr(text, '@');
    if (at) {
        *at = 0;
        parse_expr(ld, trim(at + 1), e->line, &b->index);
    }
    size_t n = ld->failed ? 0 : split_fields(text, f, VKAT_MAX_STEP_BINDINGS + 1);
    b->buffers = calloc(n ? n : 1, sizeof *b->buffers);
    if (!ld->failed && !b->buffers)
        lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    if (!ld->failed && (n == 0 || n > VKAT_MAX_STEP_BINDINGS || !f[0][0]))
        lfail(ld, VKAT_ERR_SYNTAX, e->line, "'%s' needs buffer names (1 to %d), e.g. 'X, T @ pass %% 2'", e->key,
              VKAT_MAX_STEP_BINDINGS);
    for (size_t i = 0; !ld->failed && i < n; i++) {
        size_t j = 0;
        while (j < s->buffer_count && strcmp(s->buffers[j].name, f[i]) != 0)
            j++;
        if (j == s->buffer_count)
            lfail(ld, VKAT_ERR_SPACE, e->line, "'%s': no buffer '%s' in [buffers]", e->key, f[i]);
        else if (descriptor_class(&s->buffers[j]) != descriptor_class(&s->buffers[slot]))
            lfail(ld, VKAT_ERR_SPACE, e->line, "'%s' puts %s '%s' where the shader binds %s '%s' (line %d)", e->key,
                  descriptor_class_name(&s->buffers[j]), f[i], descriptor_class_name(&s->buffers[slot]),
                  s->buffers[slot].name, s->buffers[slot].line);
        else
            b->buffers[b->count++] = (uint32_t)j;
    }
    free(text);
    return ld->failed;
}

/* Names a reference pass may not use: it runs once for every configuration. */
static vkat_result ref_pass_uses_param(loader *ld, const vkat_expr *x, const char *key, int line)
{
    const vkat_space *s = ld->s;
    for (size_t p = 0; x && p < s->param_count; p++)
        if (vkat_expr_uses(x, s->params[p].slot))
            return lfail(ld, VKAT_ERR_SPACE, line,
                         "reference pass %s uses parameter '%s'; only problem sizes, device names and 'pass' are "
                         "allowed",
                         key, s->params[p].name);
    return VKAT_OK;
}

static vkat_result load_pass(loader *ld, size_t section, vkat_pass_decl *p)
{
    vkat_space *s = ld->s;
    const pass_section *ps = &ld->pass_sections[section];
    int reference = ps->section == SEC_CHECK_PASS;
    p->name = vkat_strdup(ps->name + (reference ? 11 : 5));
    p->line = ps->line;
    if (!p->name)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    if (reference && !s->reference_path)
        return lfail(ld, VKAT_ERR_SPACE, ps->line, "[%s] needs a [check] reference (its default template)", ps->name);
    const entry *seen[6] = {0};
    static const char *const keys[] = {"template", "repeat", "local_size", "groups", "while", NULL};
    for (size_t i = 0; i < ld->count; i++) {
        const entry *e = &ld->entries[i];
        if (e->pass != (int)section)
            continue;
        if (strncmp(e->key, "bind.", 5) == 0) {
            if (load_pass_bind(ld, e, p) ||
                (reference && ref_pass_uses_param(ld, p->binds[p->bind_count - 1].index, e->key, e->line)))
                return ld->failed;
            continue;
        }
        int spec = strncmp(e->key, "spec.", 5) == 0, push = strncmp(e->key, "push.", 5) == 0;
        if (spec || push) {
            if (load_pass_override(ld, e, spec, p))
                return ld->failed;
            const vkat_expr *v = spec ? p->spec[p->spec_count - 1].value : p->push[p->push_count - 1].value;
            if (reference && ref_pass_uses_param(ld, v, e->key, e->line))
                return ld->failed;
            continue;
        }
        size_t k = 0;
        while (keys[k] && strcmp(keys[k], e->key) != 0)
            k++;
        if (!keys[k])
            return lfail(ld, VKAT_ERR_SPACE, e->line,
                         "unknown key '%s' in [%s] (known: template, repeat, while, local_size, groups, spec.N, "
                         "push.NAME, bind.N)",
                         e->key, ps->name);
        if (seen[k])
            return lfail(ld, VKAT_ERR_SPACE, e->line, "duplicate key '%s' in [%s] (first at line %d)", e->key, ps->name,
                         seen[k]->line);
        seen[k] = e;
        vkat_expr *checked[3] = {0};
        if (k == 0) {
            if (!e->value[0])
                return lfail(ld, VKAT_ERR_SPACE, e->line, "[%s] template is empty", ps->name);
            p->template_path = resolve_path(s, e->value);
            if (!p->template_path)
                return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
            FILE *t = fopen(p->template_path, "rb");
            if (!t)
                return lfail(ld, VKAT_ERR_IO, e->line, "cannot open template '%s': %s", p->template_path,
                             strerror(errno));
            fclose(t);
        } else if (k == 1) {
            if (seen[4])
                return lfail(ld, VKAT_ERR_SPACE, e->line, "[%s] has both while (line %d) and repeat; give one",
                             ps->name, seen[4]->line);
            if (parse_expr(ld, e->value, e->line, &p->repeat))
                return ld->failed;
            if (vkat_expr_uses(p->repeat, s->pass_slot) || vkat_expr_uses(p->repeat, s->passes_slot))
                return lfail(ld, VKAT_ERR_SPACE, e->line,
                             "[%s] repeat cannot use 'pass' or 'passes' (it counts the passes)", ps->name);
            checked[0] = p->repeat;
        } else if (k == 4) {
            if (seen[1])
                return lfail(ld, VKAT_ERR_SPACE, e->line, "[%s] has both repeat (line %d) and while; give one",
                             ps->name, seen[1]->line);
            if (parse_expr(ld, e->value, e->line, &p->repeat_while))
                return ld->failed;
            if (vkat_expr_uses(p->repeat_while, s->passes_slot))
                return lfail(ld, VKAT_ERR_SPACE, e->line, "[%s] while cannot use 'passes' (it decides them)", ps->name);
            checked[0] = p->repeat_while;
        } else {
            vkat_expr **xyz = k == 2 ? p->local_size : p->groups;
            if (load_xyz(ld, e, xyz))
                return ld->failed;
            memcpy(checked, xyz, sizeof checked);
        }
        for (int a = 0; reference && a < 3; a++)
            if (ref_pass_uses_param(ld, checked[a], e->key, e->line))
                return ld->failed;
    }
    return VKAT_OK;
}

static int uses_pass(const vkat_space *s, const vkat_expr *x)
{
    return vkat_expr_uses(x, s->pass_slot) || vkat_expr_uses(x, s->passes_slot);
}

/* Every [pass.*] and [check.pass.*] section, in file order. The name `pass` exists only in spaces that have them,
 * so a space without any keeps its symbols (and everything derived from them) as before. */
static vkat_result load_passes(loader *ld)
{
    vkat_space *s = ld->s;
    size_t nv = 0, nr = 0;
    for (size_t i = 0; i < ld->pass_section_count; i++)
        *(ld->pass_sections[i].section == SEC_PASS ? &nv : &nr) += 1;
    for (size_t i = 0; i < ld->count; i++)
        if (ld->entries[i].section >= SEC_COUNT && ld->entries[i].pass < 0)
            return lfail(ld, VKAT_ERR_INTERNAL, ld->entries[i].line, "key '%s' of an unrecorded pass section",
                         ld->entries[i].key);
    if (!nv && !nr)
        return VKAT_OK;
    s->passes = calloc(nv ? nv : 1, sizeof *s->passes);
    s->ref_passes = calloc(nr ? nr : 1, sizeof *s->ref_passes);
    if (!s->passes || !s->ref_passes)
        return lfail(ld, VKAT_ERR_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < ld->pass_section_count; i++) {
        int ref = ld->pass_sections[i].section == SEC_CHECK_PASS;
        vkat_pass_decl *p = ref ? &s->ref_passes[s->ref_pass_count++] : &s->passes[s->pass_count++];
        if (load_pass(ld, i, p))
            return ld->failed;
    }
    /* `pass` has a value only while a step is evaluated: [dispatch] and [push], the steps' defaults, may use it;
     * what is evaluated once per variant may not. */
    const char *where = NULL;
    int line = 0;
    for (size_t i = 0; !where && i < s->constraint_count; i++)
        if (uses_pass(s, s->constraints[i].expr))
            where = "a constraint", line = s->constraints[i].line;
    for (size_t i = 0; !where && i < s->buffer_count; i++)
        if (uses_pass(s, s->buffers[i].count) ||
            (s->buffers[i].compare_count &&
             (uses_pass(s, s->buffers[i].compare_offset) || uses_pass(s, s->buffers[i].compare_count))))
            where = "a buffer size or compared slice",
            line = uses_pass(s, s->buffers[i].count) ? s->buffers[i].line : s->buffers[i].compare_line;
    const vkat_expr *metrics[2] = {s->flops, s->bytes};
    for (int i = 0; !where && i < 2; i++)
        if (metrics[i] && uses_pass(s, metrics[i]))
            where = "[metrics]", line = vkat_expr_line(metrics[i]);
    if (where)
        return lfail(ld, VKAT_ERR_SPACE, line,
                     "%s uses 'pass' or 'passes', which have values only in [pass.*] sections and the [dispatch] and "
                     "[push] they default to",
                     where);
    return VKAT_OK;
}

/* ---- Load / destroy ---------------------------------------------------------------------------------------------- */

static vkat_result load_text(const char *text, size_t size, const char *path, const char *template_override,
                             int kernel_optional, vkat_space **out, vkat_error *err)
{
    *out = NULL;
    loader ld = {0};
    ld.path = path;
    ld.template_override = template_override;
    ld.kernel_optional = kernel_optional;
    ld.err = err;
    ld.pos = text;
    ld.end = text + size;
    vkat_space *s = calloc(1, sizeof *s);
    if (!s)
        return vkat_fail(err, VKAT_ERR_NOMEM, path, 0, "out of memory");
    ld.s = s;
    s->rel_l2_tolerance = 1e-5;
    s->max_abs_tolerance = INFINITY;
    s->pass_slot = s->passes_slot = -1;
    s->file_hash = XXH64(text, size, 0);
    s->path = vkat_strdup(path);
    const char *slash = strrchr(path, '/');
    s->dir = slash ? vkat_strndup(path, slash == path ? 1 : (size_t)(slash - path)) : vkat_strdup(".");
    s->symbols = vkat_symtab_create();
    if (!s->path || !s->dir || !s->symbols) {
        lfail(&ld, VKAT_ERR_NOMEM, 0, "out of memory");
        goto done;
    }
    for (int i = 0; i < DEV_COUNT; i++)
        if (vkat_symtab_add(s->symbols, device_names[i]) != i) {
            lfail(&ld, VKAT_ERR_NOMEM, 0, "out of memory");
            goto done;
        }
    int bad = ini_parse_stream(line_reader, &ld, entry_handler, &ld);
    if (!ld.failed && bad > 0)
        lfail(&ld, VKAT_ERR_SYNTAX, bad, "syntax error");
    if (ld.failed)
        goto done;
    /* `pass` is a name only in a space with pass sections; added before any expression is parsed. */
    if (!ld.failed && ld.pass_section_count &&
        ((s->pass_slot = vkat_symtab_add(s->symbols, "pass")) < 0 ||
         (s->passes_slot = vkat_symtab_add(s->symbols, "passes")) < 0))
        lfail(&ld, VKAT_ERR_NOMEM, 0, "out of memory");
    if (ld.failed)
        goto done;
    if ((!ld.kernel_optional || ld.section_line[SEC_KERNEL]) && load_kernel(&ld))
        goto done;
    if (load_problem(&ld) || load_params(&ld) || check_replace_defines(&ld) || load_defines(&ld) ||
        load_constraints(&ld) ||
        load_buffers(&ld) || check_buffer_sizes(&ld) || load_push(&ld) || check_push_sizes(&ld) || load_fields(&ld) ||
        load_dispatch_metrics(&ld) || load_check(&ld) || load_compare(&ld) || load_passes(&ld))
        goto done;
done:
    for (size_t i = 0; i < ld.count; i++) {
        free(ld.entries[i].key);
        free(ld.entries[i].value);
    }
    free(ld.entries);
    free(ld.long_value);
    for (size_t i = 0; i < ld.pass_section_count; i++)
        free(ld.pass_sections[i].name);
    for (size_t i = 0; i < ld.fields_section_count; i++)
        free(ld.fields_sections[i].name);
    if (ld.failed) {
        vkat_space_destroy(s);
        return ld.failed;
    }
    *out = s;
    return VKAT_OK;
}

vkat_result vkat_space_load_string(const char *text, const char *path, vkat_space **out, vkat_error *err)
{
    return load_text(text, strlen(text), path ? path : "<string>", NULL, 0, out, err);
}

vkat_result vkat_space_load(const char *path, vkat_space **out, vkat_error *err)
{
    return vkat_space_load_with_template(path, NULL, out, err);
}

static vkat_result load_file(const char *path, const char *template_path, int kernel_optional, vkat_space **out,
                             vkat_error *err)
{
    *out = NULL;
    size_t size;
    char *text = vkat_read_file(path, &size);
    if (!text)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot open: %s", strerror(errno));
    vkat_result r = load_text(text, size, path, template_path, kernel_optional, out, err);
    free(text);
    return r;
}

vkat_result vkat_space_load_with_template(const char *path, const char *template_path, vkat_space **out,
                                          vkat_error *err)
{
    return load_file(path, template_path, 0, out, err);
}

vkat_result vkat_space_load_constraints(const char *path, vkat_space **out, vkat_error *err)
{
    return load_file(path, NULL, 1, out, err);
}

static void free_strings(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

void vkat_space_destroy(vkat_space *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->dir);
    free(s->name);
    free(s->template_path);
    free(s->entry);
    free_strings(s->extensions, s->extension_count);
    free_strings(s->replace_defines, s->replace_define_count);
    free_strings(s->features, s->feature_count);
    vkat_symtab_destroy(s->symbols);
    for (size_t i = 0; i < s->problem_count; i++)
        free(s->problem[i].name);
    free(s->problem);
    for (size_t i = 0; i < s->param_count; i++) {
        free(s->params[i].name);
        if (s->params[i].texts)
            free_strings(s->params[i].texts, s->params[i].value_count);
        free(s->params[i].values);
    }
    free(s->params);
    free_strings(s->include_dirs, s->include_dir_count);
    for (size_t i = 0; i < s->define_count; i++) {
        free(s->defines[i].name);
        free(s->defines[i].value);
    }
    free(s->defines);
    for (size_t i = 0; i < s->constraint_count; i++) {
        free(s->constraints[i].name);
        vkat_expr_destroy(s->constraints[i].expr);
    }
    free(s->constraints);
    for (size_t i = 0; i < s->buffer_count; i++) {
        free(s->buffers[i].name);
        vkat_expr_destroy(s->buffers[i].count);
        for (int k = 0; k < 3; k++)
            vkat_expr_destroy(s->buffers[i].extent[k]);
        vkat_expr_destroy(s->buffers[i].compare_offset);
        vkat_expr_destroy(s->buffers[i].compare_count);
        for (size_t k = 0; k < s->buffers[i].field_count; k++) {
            free(s->buffers[i].fields[k].name);
            vkat_expr_destroy(s->buffers[i].fields[k].value);
        }
        free(s->buffers[i].fields);
    }
    free(s->buffers);
    for (size_t i = 0; i < s->push_count; i++) {
        free(s->push[i].name);
        vkat_expr_destroy(s->push[i].value);
    }
    free(s->push);
    for (int i = 0; i < 3; i++) {
        vkat_expr_destroy(s->local_size[i]);
        vkat_expr_destroy(s->groups[i]);
        vkat_expr_destroy(s->ref_local_size[i]);
        vkat_expr_destroy(s->ref_groups[i]);
    }
    vkat_expr_destroy(s->flops);
    vkat_expr_destroy(s->bytes);
    free(s->reference_path);
    free(s->reference_config);
    vkat_space_free_passes(s->passes, s->pass_count);
    vkat_space_free_passes(s->ref_passes, s->ref_pass_count);
    free(s);
}

/* ---- Problem and configurations as text -------------------------------------------------------------------------- */

/* Calls fn(name, value, user) for each "name=value" of a comma list; the first failure stops. */
typedef vkat_result (*pair_fn)(const char *name, const char *value, void *user, vkat_error *err);

static vkat_result for_each_pair(const char *text, pair_fn fn, void *user, vkat_error *err)
{
    char *copy = vkat_strdup(text);
    if (!copy)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_result r = VKAT_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok && !r; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            if (*trim(tok))
                r = vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "expected NAME=VALUE, got '%s'", trim(tok));
            continue;
        }
        *eq = 0;
        r = fn(trim(tok), trim(eq + 1), user, err);
    }
    free(copy);
    return r;
}

static vkat_result set_problem_pair(const char *name, const char *value, void *user, vkat_error *err)
{
    vkat_space *s = user;
    for (size_t i = 0; i < s->problem_count; i++) {
        if (strcmp(s->problem[i].name, name) != 0)
            continue;
        if (!parse_i64(value, &s->problem[i].value))
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "problem size %s must be an integer, got '%s'", name,
                             value);
        s->problem[i].from_option = 1;
        return VKAT_OK;
    }
    char known[256] = "";
    for (size_t i = 0; i < s->problem_count; i++)
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", s->problem[i].name);
    return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown problem size '%s' (the space has: %s)", name,
                     s->problem_count ? known : "none");
}

vkat_result vkat_space_set_problem(vkat_space *s, const char *overrides, vkat_error *err)
{
    return for_each_pair(overrides, set_problem_pair, s, err);
}

static void append(char *buf, size_t size, size_t *len, const char *fmt, ...) VKAT_PRINTF(4, 5);
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
    if (*len >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, size - *len, fmt, ap);
    va_end(ap);
    if (n > 0)
        *len = *len + (size_t)n < size ? *len + (size_t)n : size;
}

void vkat_space_format_problem(const vkat_space *s, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = 0;
    for (size_t i = 0; i < s->problem_count; i++)
        append(buf, size, &len, "%s%s=%lld", i ? "," : "", s->problem[i].name, (long long)s->problem[i].value);
}

void vkat_space_format_config(const vkat_space *s, const uint32_t *choice, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = 0;
    for (size_t i = 0; i < s->param_count; i++) {
        if (s->params[i].texts)
            append(buf, size, &len, "%s%s=%s", i ? "," : "", s->params[i].name, s->params[i].texts[choice[i]]);
        else
            append(buf, size, &len, "%s%s=%lld", i ? "," : "", s->params[i].name,
                   (long long)s->params[i].values[choice[i]]);
    }
}

typedef struct config_parse {
    const vkat_space *s;
    uint32_t *choice;
    bool *seen;
} config_parse;

void vkat_param_values_text(const vkat_param *p, char *buf, size_t size, size_t limit)
{
    buf[0] = 0;
    for (size_t k = 0, used = 0; k < p->value_count && (used = strlen(buf)) < limit; k++) {
        if (p->texts)
            snprintf(buf + used, size - used, "%s%s", k ? ", " : "", p->texts[k]);
        else
            snprintf(buf + used, size - used, "%s%lld", k ? ", " : "", (long long)p->values[k]);
    }
}

/* A value the space does not give the parameter: the error points at the parameter's line in the space, where its
 * values are, as a compiler points at a declaration. */
static vkat_result text_choice(const vkat_space *s, const vkat_param *p, const char *value, uint32_t *choice,
                               bool *seen, vkat_error *err)
{
    for (size_t k = 0; k < p->value_count; k++)
        if (strcmp(p->texts[k], value) == 0) {
            *choice = (uint32_t)k;
            *seen = true;
            return VKAT_OK;
        }
    char list[256];
    vkat_param_values_text(p, list, sizeof list, 200);
    return vkat_fail(err, VKAT_ERR_USAGE, s->path, p->line, "%s=%s is not among its values (%s%s)", p->name, value,
                     list, strlen(list) >= 200 ? ", ..." : "");
}

static vkat_result config_pair(const char *name, const char *value, void *user, vkat_error *err)
{
    config_parse *cp = user;
    for (size_t i = 0; i < cp->s->param_count; i++) {
        const vkat_param *p = &cp->s->params[i];
        if (strcmp(p->name, name) != 0)
            continue;
        if (cp->seen[i])
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "parameter '%s' given twice", name);
        if (p->texts)
            return text_choice(cp->s, p, value, &cp->choice[i], &cp->seen[i], err);
        int64_t v;
        if (!parse_i64(value, &v))
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "parameter %s must be an integer, got '%s'", name, value);
        for (size_t k = 0; k < p->value_count; k++)
            if (p->values[k] == v) {
                cp->choice[i] = (uint32_t)k;
                cp->seen[i] = true;
                return VKAT_OK;
            }
        char list[256];
        vkat_param_values_text(p, list, sizeof list, 200);
        return vkat_fail(err, VKAT_ERR_USAGE, cp->s->path, p->line, "%s=%lld is not among its values (%s%s)", name,
                         (long long)v, list, strlen(list) >= 200 ? ", ..." : "");
    }
    char known[400] = "";
    for (size_t i = 0; i < cp->s->param_count; i++) {
        size_t used = strlen(known);
        if (used >= 300) {
            snprintf(known + used, sizeof known - used, ", ...");
            break;
        }
        snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", cp->s->params[i].name);
    }
    return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown parameter '%s' (the space has: %s)", name,
                     cp->s->param_count ? known : "no parameters");
}

vkat_result vkat_space_parse_named(const vkat_space *s, const char *text, uint32_t *choice, bool *named,
                                   vkat_error *err)
{
    for (size_t i = 0; i < s->param_count; i++) {
        choice[i] = 0;
        named[i] = false;
    }
    config_parse cp = {s, choice, named};
    return for_each_pair(text, config_pair, &cp, err);
}

/* "missing parameter 'A'" or "missing parameters 'A', 'B', ..." for the unnamed ones with more than one value. */
static vkat_result missing_params(const vkat_space *s, const bool *named, vkat_error *err)
{
    char list[400] = "";
    size_t missing = 0;
    for (size_t i = 0; i < s->param_count; i++) {
        if (named[i] || s->params[i].value_count == 1)
            continue;
        size_t used = strlen(list);
        if (used < 300)
            snprintf(list + used, sizeof list - used, "%s'%s'", missing ? ", " : "", s->params[i].name);
        else if (!strstr(list, ", ..."))
            snprintf(list + used, sizeof list - used, ", ...");
        missing++;
    }
    if (!missing)
        return VKAT_OK;
    return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "missing parameter%s %s", missing > 1 ? "s" : "", list);
}

vkat_result vkat_space_parse_config(const vkat_space *s, const char *text, int partial, uint32_t *choice,
                                    vkat_error *err)
{
    bool *named = calloc(s->param_count ? s->param_count : 1, sizeof *named);
    if (!named)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_result r = vkat_space_parse_named(s, text, choice, named, err);
    /* A parameter with one value is fixed, so a whole configuration need not name it. */
    if (r == VKAT_OK && !partial)
        r = missing_params(s, named, err);
    free(named);
    return r;
}

/* ---- Walking the space ------------------------------------------------------------------------------------------- */

uint64_t vkat_space_raw_count(const vkat_space *s)
{
    uint64_t n = 1;
    for (size_t i = 0; i < s->param_count; i++)
        if (__builtin_mul_overflow(n, (uint64_t)s->params[i].value_count, &n))
            return UINT64_MAX;
    return n;
}

void vkat_space_decode(const vkat_space *s, uint64_t index, uint32_t *choice)
{
    for (size_t i = s->param_count; i-- > 0;) {
        uint64_t n = s->params[i].value_count;
        choice[i] = (uint32_t)(index % n);
        index /= n;
    }
}

uint64_t vkat_space_encode(const vkat_space *s, const uint32_t *choice)
{
    uint64_t index = 0;
    for (size_t i = 0; i < s->param_count; i++)
        index = index * s->params[i].value_count + choice[i];
    return index;
}

vkat_value *vkat_space_env_create(const vkat_space *s, const vkat_device_info *device)
{
    size_t n = vkat_symtab_count(s->symbols);
    vkat_value *env = calloc(n ? n : 1, sizeof *env);
    if (!env)
        return NULL;
    int64_t dev[DEV_COUNT];
    device_values(device, dev);
    for (int i = 0; i < DEV_COUNT; i++)
        env[i] = vkat_int(dev[i]);
    for (size_t i = 0; i < s->problem_count; i++)
        env[s->problem[i].slot] = vkat_int(s->problem[i].value);
    for (size_t i = 0; i < s->param_count; i++)
        env[s->params[i].slot] = vkat_int(s->params[i].values[0]);
    return env;
}

void vkat_space_env_apply(const vkat_space *s, const uint32_t *choice, vkat_value *env)
{
    for (size_t i = 0; i < s->param_count; i++)
        env[s->params[i].slot] = vkat_int(s->params[i].values[choice[i]]);
}

int vkat_space_check(const vkat_space *s, const vkat_value *env, size_t *failed, vkat_error *err)
{
    for (size_t i = 0; i < s->constraint_count; i++) {
        vkat_value v;
        if (vkat_expr_eval(s->constraints[i].expr, env, &v, err))
            return -1;
        if (!vkat_value_truthy(v)) {
            if (failed)
                *failed = i;
            return 0;
        }
    }
    return 1;
}

int vkat_space_step_free(const vkat_space *s, uint32_t *choice, vkat_value *env, const bool *fixed)
{
    /* Odometer step: only the parameters that change are rewritten. */
    for (size_t i = s->param_count; i-- > 0;) {
        const vkat_param *p = &s->params[i];
        if (fixed && fixed[i])
            continue;
        if (++choice[i] < p->value_count) {
            env[p->slot] = vkat_int(p->values[choice[i]]);
            return 1;
        }
        choice[i] = 0;
        env[p->slot] = vkat_int(p->values[0]);
    }
    return 0;
}

void vkat_space_step(const vkat_space *s, uint32_t *choice, vkat_value *env)
{
    vkat_space_step_free(s, choice, env, NULL);
}

vkat_result vkat_space_count_valid(const vkat_space *s, const vkat_value *env_template, uint64_t limit,
                                   uint64_t *raw, uint64_t *valid, uint64_t *removed_by, vkat_error *err)
{
    return vkat_space_walk_valid(s, env_template, limit, NULL, NULL, raw, valid, removed_by, err);
}

vkat_result vkat_space_walk_valid(const vkat_space *s, const vkat_value *env_template, uint64_t limit,
                                  vkat_space_visit_fn visit, void *user, uint64_t *raw, uint64_t *valid,
                                  uint64_t *removed_by, vkat_error *err)
{
    size_t nsym = vkat_symtab_count(s->symbols);
    uint64_t total = vkat_space_raw_count(s), walk = limit && limit < total ? limit : total;
    vkat_value *env = malloc((nsym ? nsym : 1) * sizeof *env);
    uint32_t *choice = calloc(s->param_count ? s->param_count : 1, sizeof *choice);
    uint64_t *removed = calloc(s->constraint_count ? s->constraint_count : 1, sizeof *removed);
    vkat_result r = VKAT_OK;
    uint64_t ok = 0;
    if (!env || !choice || !removed) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    memcpy(env, env_template, nsym * sizeof *env);
    vkat_space_env_apply(s, choice, env);
    for (uint64_t n = 0; n < walk; n++) {
        size_t failed;
        int c = vkat_space_check(s, env, &failed, err);
        if (c < 0) {
            r = VKAT_ERR_EXPR;
            goto done;
        }
        if (c) {
            ok++;
            if (visit)
                visit(user, n, choice);
        } else {
            removed[failed]++;
        }
        vkat_space_step(s, choice, env);
    }
    if (raw)
        *raw = walk;
    if (valid)
        *valid = ok;
    if (removed_by)
        memcpy(removed_by, removed, s->constraint_count * sizeof *removed);
    if (ok == 0 && walk > 0 && s->constraint_count > 0) {
        size_t worst = 0;
        for (size_t i = 1; i < s->constraint_count; i++)
            if (removed[i] > removed[worst])
                worst = i;
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, s->path, s->constraints[worst].line,
                      "no configuration satisfies the constraints; '%s' removed %.0f%% of them",
                      s->constraints[worst].name, 100.0 * (double)removed[worst] / (double)walk);
    }
done:
    free(env);
    free(choice);
    free(removed);
    return r;
}

/* ---- Launch ------------------------------------------------------------------------------------------------------ */

/* Writes the 4 bytes of a [push] value or a field for `env`: a float's, or an integer's that fits its type. */
static vkat_result value_bits(const vkat_space *s, const vkat_push_decl *p, const char *noun, const vkat_value *env,
                              unsigned char *dst, vkat_error *err)
{
    vkat_value v;
    vkat_result r = vkat_expr_eval(p->value, env, &v, err);
    if (r)
        return r;
    if (p->type == VKAT_FLOAT32) {
        float f = (float)vkat_value_f64(v);
        memcpy(dst, &f, 4);
        return VKAT_OK;
    }
    int64_t iv;
    r = vkat_expr_eval_int(p->value, env, &iv, err);
    if (r)
        return r;
    int64_t lo = p->type == VKAT_INT32 ? INT32_MIN : 0, hi = p->type == VKAT_INT32 ? INT32_MAX : UINT32_MAX;
    if (iv < lo || iv > hi)
        return vkat_fail(err, VKAT_ERR_EXPR, s->path, p->line, "%s '%s' = %lld does not fit in %s", noun, p->name,
                         (long long)iv, vkat_elem_type_name(p->type));
    if (p->type == VKAT_INT32) {
        int32_t x = (int32_t)iv;
        memcpy(dst, &x, 4);
    } else {
        uint32_t x = (uint32_t)iv;
        memcpy(dst, &x, 4);
    }
    return VKAT_OK;
}

vkat_result vkat_space_field_words(const vkat_space *s, size_t index, const vkat_value *env, uint64_t bytes,
                                   uint32_t *words, vkat_error *err)
{
    const vkat_buffer_decl *b = &s->buffers[index];
    for (size_t i = 0; i < b->field_count; i++) {
        const vkat_push_decl *f = &b->fields[i];
        if (f->offset + 4ull > bytes)
            return vkat_fail(err, VKAT_ERR_EXPR, s->path, f->line,
                             "field '%s' at byte %u lies past the end of buffer '%s' (%llu bytes); give the buffer "
                             "room for every field", f->name, f->offset, b->name, (unsigned long long)bytes);
        unsigned char bits[4] = {0};
        vkat_result r = value_bits(s, f, "field", env, bits, err);
        if (r)
            return r;
        memcpy(&words[i], bits, 4);
    }
    return VKAT_OK;
}

/* " (N = 0 from line 11)": the problem sizes below 1 that `e` uses and where each value came from, so that an
 * empty dispatch or buffer is traced to the size that made it, not only to the line that used it; "" when none. */
static const char *small_sizes_note(const vkat_space *s, const vkat_expr *e, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; e && i < s->problem_count; i++) {
        const vkat_problem_var *p = &s->problem[i];
        if (p->value >= 1 || !vkat_expr_uses(e, p->slot))
            continue;
        char where[64];
        if (p->from_option)
            snprintf(where, sizeof where, "--problem");
        else
            snprintf(where, sizeof where, "line %d%s", p->value == p->file_value ? p->line : p->cpu_line,
                     p->value == p->file_value ? "" : ", [problem.cpu]");
        append(buf, size, &len, "%s%s = %lld from %s", len ? "; " : " (", p->name, (long long)p->value, where);
    }
    if (len)
        append(buf, size, &len, ")");
    return buf;
}

vkat_result vkat_space_launch(const vkat_space *s, const vkat_value *env, int reference, vkat_launch *launch,
                              vkat_error *err)
{
    char note[256];
    memset(launch, 0, sizeof *launch);
    if (reference && !s->reference_path)
        return vkat_fail(err, VKAT_ERR_SPACE, s->path, 0, "the space has no [check] reference");
    vkat_expr *const *ls = reference ? s->ref_local_size : s->local_size;
    vkat_expr *const *gs = reference ? s->ref_groups : s->groups;
    static const char axes[] = "xyz";
    for (int a = 0; a < 3; a++) {
        const vkat_expr *pair[2] = {ls[a], gs[a]};
        uint32_t *dst[2] = {&launch->local_size[a], &launch->groups[a]};
        for (int k = 0; k < 2; k++) {
            int64_t v = 1;
            if (pair[k]) {
                vkat_result r = vkat_expr_eval_int(pair[k], env, &v, err);
                if (r)
                    return r;
            }
            if (v < 1 || v > UINT32_MAX)
                return vkat_fail(err, VKAT_ERR_EXPR, s->path, vkat_expr_line(pair[k]),
                                 "%s %c is %lld from '%s'%s; it must be 1 to 4294967295",
                                 k ? "groups" : "local_size", axes[a], (long long)v, vkat_expr_text(pair[k]),
                                 small_sizes_note(s, pair[k], note, sizeof note));
            *dst[k] = (uint32_t)v;
        }
    }
    launch->buffer_counts = calloc(s->buffer_count ? s->buffer_count : 1, sizeof *launch->buffer_counts);
    launch->image_extents = calloc(s->buffer_count ? s->buffer_count : 1, sizeof *launch->image_extents);
    if (!launch->buffer_counts || !launch->image_extents) {
        vkat_launch_free(launch);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    vkat_result r = VKAT_OK;
    for (size_t i = 0; i < s->buffer_count && !r; i++) {
        const vkat_buffer_decl *b = &s->buffers[i];
        int64_t v;
        for (int k = 0; k < 3 && !r; k++) {
            int64_t x = 1;
            if (b->extent[k] && !(r = vkat_expr_eval_int(b->extent[k], env, &x, err)) && (x < 1 || x > 65535))
                r = vkat_fail(err, VKAT_ERR_EXPR, s->path, b->line, "image '%s' is %lld texels %s from '%s'%s; it "
                              "needs 1 to 65535", b->name, (long long)x, k == 0 ? "wide" : k == 1 ? "high" : "deep",
                              vkat_expr_text(b->extent[k]), small_sizes_note(s, b->extent[k], note, sizeof note));
            launch->image_extents[i][k] = (uint32_t)x;
        }
        if (!r)
            r = vkat_expr_eval_int(b->count, env, &v, err);
        if (!r && v < 1)
            r = vkat_fail(err, VKAT_ERR_EXPR, s->path, b->line,
                          "buffer '%s' has %lld elements from '%s'%s; it needs at least 1", b->name,
                          (long long)v, vkat_expr_text(b->count), small_sizes_note(s, b->count, note, sizeof note));
        if (!r)
            launch->buffer_counts[i] = (uint64_t)v;
    }
    for (size_t i = 0; i < s->push_count && !r; i++)
        r = value_bits(s, &s->push[i], "push constant", env, launch->push + s->push[i].offset, err);
    launch->push_size = vkat_space_push_size(s);
    vkat_value v;
    if (!r && s->flops && !(r = vkat_expr_eval(s->flops, env, &v, err)))
        launch->flops = vkat_value_f64(v);
    if (!r && s->bytes && !(r = vkat_expr_eval(s->bytes, env, &v, err)))
        launch->bytes = vkat_value_f64(v);
    if (r)
        vkat_launch_free(launch);
    return r;
}

void vkat_launch_free(vkat_launch *launch)
{
    if (!launch)
        return;
    free(launch->buffer_counts);
    launch->buffer_counts = NULL;
    free(launch->image_extents);
    launch->image_extents = NULL;
}
