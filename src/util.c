/* util.c — result messages, error filling, the log callback and small helpers used by every module. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <vulkan/vulkan_core.h>

static const char *const result_messages[] = {
#define VKAT_X_MSG(name, msg) msg,
    VKAT_RESULT_LIST(VKAT_X_MSG)
#undef VKAT_X_MSG
};

const char *vkat_result_string(vkat_result r)
{
    if ((unsigned)r >= VKAT_RESULT_COUNT)
        return "unknown result";
    return result_messages[r];
}

const char *vkat_error_format(const vkat_error *err, char *buf, size_t size)
{
    if (!err || size == 0) {
        if (size)
            buf[0] = 0;
        return buf;
    }
    const char *msg = err->message[0] ? err->message : vkat_result_string(err->code);
    if (err->file[0] && err->line > 0)
        snprintf(buf, size, "%s:%d: %s", err->file, err->line, msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, msg);
    else
        snprintf(buf, size, "%s", msg);
    return buf;
}

vkat_result vkat_fail(vkat_error *err, vkat_result code, const char *file, int line, const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    err->vk_result = 0;
    err->line = line;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

const char *vkat_vk_result_name(int r)
{
    switch (r) {
#define C(x)                                                                                                     \
    case x:                                                                                                      \
        return #x;
        C(VK_SUCCESS) C(VK_NOT_READY) C(VK_TIMEOUT) C(VK_INCOMPLETE) C(VK_ERROR_OUT_OF_HOST_MEMORY)
        C(VK_ERROR_OUT_OF_DEVICE_MEMORY) C(VK_ERROR_INITIALIZATION_FAILED) C(VK_ERROR_DEVICE_LOST)
        C(VK_ERROR_MEMORY_MAP_FAILED) C(VK_ERROR_LAYER_NOT_PRESENT) C(VK_ERROR_EXTENSION_NOT_PRESENT)
        C(VK_ERROR_FEATURE_NOT_PRESENT) C(VK_ERROR_INCOMPATIBLE_DRIVER) C(VK_ERROR_TOO_MANY_OBJECTS)
        C(VK_ERROR_FORMAT_NOT_SUPPORTED) C(VK_ERROR_FRAGMENTED_POOL) C(VK_ERROR_UNKNOWN)
        C(VK_ERROR_OUT_OF_POOL_MEMORY) C(VK_ERROR_INVALID_SHADER_NV) C(VK_PIPELINE_COMPILE_REQUIRED)
#undef C
    default:
        return "VkResult";
    }
}

vkat_result vkat_fail_vk(vkat_error *err, int vk_result, const char *what)
{
    vkat_result code = vk_result == VK_ERROR_DEVICE_LOST ? VKAT_ERR_DEVICE_LOST
                       : vk_result == VK_TIMEOUT         ? VKAT_ERR_TIMEOUT
                       : vk_result == VK_ERROR_OUT_OF_HOST_MEMORY ? VKAT_ERR_NOMEM
                                                                  : VKAT_ERR_VULKAN;
    vkat_fail(err, code, NULL, 0, "%s failed: %s (%d)", what, vkat_vk_result_name(vk_result), vk_result);
    if (err)
        err->vk_result = vk_result;
    return code;
}

static vkat_log_fn log_fn;
static void *log_user;

void vkat_set_log(vkat_log_fn fn, void *user)
{
    log_fn = fn;
    log_user = user;
}

void vkat_log(vkat_log_level level, const char *fmt, ...)
{
    if (!log_fn)
        return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    log_fn(log_user, level, buf);
}

static const struct {
    const char *name;
    size_t size;
} elem_types[] = {
#define VKAT_X_TYPE(name, str, size) {str, size},
    VKAT_ELEM_TYPE_LIST(VKAT_X_TYPE)
#undef VKAT_X_TYPE
};

const char *vkat_elem_type_name(vkat_elem_type t)
{
    return (unsigned)t < VKAT_ELEM_TYPE_COUNT ? elem_types[t].name : "unknown";
}

size_t vkat_elem_type_size(vkat_elem_type t)
{
    return (unsigned)t < VKAT_ELEM_TYPE_COUNT ? elem_types[t].size : 0;
}

int vkat_elem_type_from_name(const char *name)
{
    for (int i = 0; i < VKAT_ELEM_TYPE_COUNT; i++)
        if (strcmp(elem_types[i].name, name) == 0)
            return i;
    return -1;
}

char *vkat_strdup(const char *s)
{
    return s ? vkat_strndup(s, strlen(s)) : NULL;
}

char *vkat_strndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

vkat_result vkat_make_dirs(const char *dir, vkat_error *err)
{
    char *p = vkat_strdup(dir);
    if (!p)
        return vkat_fail(err, VKAT_ERR_NOMEM, dir, 0, "out of memory");
    vkat_result r = VKAT_OK;
    size_t n = strlen(p);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != 0)
            continue;
        char saved = p[i];
        p[i] = 0;
        if (mkdir(p, 0777) != 0 && errno != EEXIST) {
            r = vkat_fail(err, VKAT_ERR_IO, p, 0, "cannot create directory: %s", strerror(errno));
            break;
        }
        p[i] = saved;
    }
    struct stat sb;
    if (!r && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
        r = vkat_fail(err, VKAT_ERR_IO, dir, 0, "not a directory");
    free(p);
    return r;
}

char *vkat_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    errno = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    /* Keep fread's errno: reading a directory says "Is a directory", not a vague I/O error. */
    int failed = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (failed) {
        free(buf);
        errno = failed;
        return NULL;
    }
    buf[len] = 0;
    if (size)
        *size = len;
    return buf;
}

bool vkat_contains_nocase(const char *h, const char *n)
{
    size_t ln = strlen(n);
    if (ln == 0)
        return true;
    for (; *h; h++) {
        size_t i = 0;
        while (i < ln && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)n[i]))
            i++;
        if (i == ln)
            return true;
    }
    return false;
}

double vkat_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
