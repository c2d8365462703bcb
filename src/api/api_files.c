/* api_files.c — the one file-writing helper the public header offers (vkat_write_file): the library's atomic write
 * (atomic_file.c), so a program on the library writes its outputs the way the library writes its own. */
#include "atomic_file.h"

vkat_result vkat_write_file(const char *path, const void *data, size_t size, vkat_error *err)
{
    return vkat_write_file_atomic(path, data, size, err);
}
