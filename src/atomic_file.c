/* atomic_file.c — temporary file + rename for every file written for the user (atomic_file.h says why).
 *
 * The temporary name is the target's, hidden and made unique per process and call; a name that exists already
 * (a leftover, another writer, or a symlink someone planted to redirect the write) is never opened: O_EXCL fails
 * on it, and the next name is tried. */
#include "atomic_file.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

vkat_result vkat_atomic_open(vkat_atomic_file *af, const char *path, vkat_error *err)
{
    static atomic_uint calls;
    memset(af, 0, sizeof *af);
    if ((size_t)snprintf(af->path, sizeof af->path, "%s", path) >= sizeof af->path)
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "path too long");
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    for (int attempt = 0; attempt < 100; attempt++) {
        /* At most 100 characters of the target's name, so the temporary one stays within NAME_MAX. */
        if ((size_t)snprintf(af->tmp, sizeof af->tmp, "%.*s.%.100s.%ld.%u.tmp", dir_len, path, base, (long)getpid(),
                             atomic_fetch_add(&calls, 1)) >= sizeof af->tmp)
            return vkat_fail(err, VKAT_ERR_IO, path, 0, "path too long");
        int fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot create a file here: %s", strerror(errno));
        af->f = fdopen(fd, "wb");
        if (!af->f) {
            int e = errno;
            close(fd);
            unlink(af->tmp);
            return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot write: %s", strerror(e));
        }
        return VKAT_OK;
    }
    return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot create a temporary file next to it: 100 names taken");
}

vkat_result vkat_atomic_commit(vkat_atomic_file *af, vkat_error *err)
{
    if (!af->f)
        return vkat_fail(err, VKAT_ERR_INTERNAL, af->path, 0, "not open for writing");
    int bad = fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) != 0;
    int e = errno;
    if (fclose(af->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    af->f = NULL;
    if (!bad && rename(af->tmp, af->path) == 0)
        return VKAT_OK;
    if (!bad)
        e = errno;
    unlink(af->tmp);
    return vkat_fail(err, VKAT_ERR_IO, af->path, 0, "cannot write: %s", strerror(e ? e : EIO));
}

void vkat_atomic_discard(vkat_atomic_file *af)
{
    if (!af || !af->f)
        return;
    fclose(af->f);
    af->f = NULL;
    unlink(af->tmp);
}

vkat_result vkat_write_file_atomic(const char *path, const void *data, size_t size, vkat_error *err)
{
    vkat_atomic_file af;
    vkat_result r = vkat_atomic_open(&af, path, err);
    if (r)
        return r;
    if (size && fwrite(data, 1, size, af.f) != size) {
        int e = errno;
        vkat_atomic_discard(&af);
        return vkat_fail(err, VKAT_ERR_IO, path, 0, "cannot write: %s", strerror(e ? e : EIO));
    }
    return vkat_atomic_commit(&af, err);
}
