/* Forwarding functions for glibc 2.38's C23 strto* entry points.
 *
 * Why: the static glslang and SPIRV-Tools libraries that tools/fetch-deps.sh brings from Debian unstable were
 * compiled against glibc >= 2.38, whose headers redirect strtol & co. to __isoc23_strtol & co. Debian 12 has
 * glibc 2.36, which lacks those four symbols. The C23 versions differ only in accepting a "0b" binary prefix,
 * which neither library relies on, so forwarding to the classic functions is exact for their inputs.
 * CMake adds this file only when the C library does not define __isoc23_strtol (cmake/Dependencies.cmake). */
#include <stdlib.h>

long __isoc23_strtol(const char *s, char **end, int base);
unsigned long __isoc23_strtoul(const char *s, char **end, int base);
long long __isoc23_strtoll(const char *s, char **end, int base);
unsigned long long __isoc23_strtoull(const char *s, char **end, int base);

long __isoc23_strtol(const char *s, char **end, int base) { return strtol(s, end, base); }
unsigned long __isoc23_strtoul(const char *s, char **end, int base) { return strtoul(s, end, base); }
long long __isoc23_strtoll(const char *s, char **end, int base) { return strtoll(s, end, base); }
unsigned long long __isoc23_strtoull(const char *s, char **end, int base) { return strtoull(s, end, base); }
