/* util.h — internal helpers shared by the library's modules: error filling, logging, small string tools.
 * Not part of the public interface. */
#ifndef VKAT_UTIL_H
#define VKAT_UTIL_H

#include "vkautotune.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#if defined(__GNUC__)
#define VKAT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define VKAT_PRINTF(fmt, args)
#endif

#define VKAT_COUNTOF(a) (sizeof(a) / sizeof((a)[0]))

/* Fills err (when not NULL) and returns code, so callers can `return vkat_fail(...)`.
 * file may be NULL (no user file), line 0 (no line). */
vkat_result vkat_fail(vkat_error *err, vkat_result code, const char *file, int line, const char *fmt, ...)
    VKAT_PRINTF(5, 6);
/* Same for a failed Vulkan call: records the VkResult and names it in the message. */
vkat_result vkat_fail_vk(vkat_error *err, int vk_result, const char *what);
/* Name of a VkResult ("VK_ERROR_DEVICE_LOST"). */
const char *vkat_vk_result_name(int vk_result);

void vkat_log(vkat_log_level level, const char *fmt, ...) VKAT_PRINTF(2, 3);

/* malloc-family wrappers that return NULL on failure like their originals; strdup for C11. */
char *vkat_strdup(const char *s);
char *vkat_strndup(const char *s, size_t n);
/* Reads a whole file into a NUL-terminated buffer (caller frees). NULL with errno set on failure. */
char *vkat_read_file(const char *path, size_t *size);
/* mkdir -p: creates every missing component of `dir` (mode 0777 less the umask); an existing directory is fine,
 * an existing file is not (VKAT_ERR_IO, the component in err->file). */
vkat_result vkat_make_dirs(const char *dir, vkat_error *err);
/* Case-insensitive substring search. */
bool vkat_contains_nocase(const char *haystack, const char *needle);
/* Monotonic clock in seconds. */
double vkat_now(void);

#endif
