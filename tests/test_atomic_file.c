/* test_atomic_file.c — the temporary-file-and-rename writer every exported file goes through: symlinks planted at
 * the temporary names it would use are skipped, never written through; a symlink at the target is replaced, not
 * followed; a failed write leaves the old file. */
#include "atomic_file.h"
#include "test.h"
#include "util.h"

#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    char dir[] = "/tmp/vkat-test-atomic-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char target[512], victim[512], link[600], victim_t[512];
    snprintf(target, sizeof target, "%s/out.json", dir);
    /* The names this process's next writes take: its pid and a per-call counter that starts at 0. */
    for (unsigned k = 0; k < 8; k++) {
        snprintf(victim, sizeof victim, "%s/victim%u", dir, k);
        snprintf(link, sizeof link, "%s/.out.json.%ld.%u.tmp", dir, (long)getpid(), k);
        CHECK(symlink(victim, link) == 0);
    }
    vkat_error err = {0};
    CHECK_MSG(vkat_write_file_atomic(target, "hello\n", 6, &err) == VKAT_OK, "%s", err.message);
    size_t size = 0;
    char *back = vkat_read_file(target, &size);
    CHECK(back && size == 6 && !memcmp(back, "hello\n", 6));
    free(back);
    struct stat sb;
    for (unsigned k = 0; k < 8; k++) {
        snprintf(victim, sizeof victim, "%s/victim%u", dir, k);
        CHECK_MSG(lstat(victim, &sb) != 0, "%s was written through a planted symlink", victim);
    }

    /* A symlink at the target itself is replaced by the file; what it pointed at is untouched. */
    snprintf(victim_t, sizeof victim_t, "%s/victim-target", dir);
    CHECK(unlink(target) == 0 && symlink(victim_t, target) == 0);
    CHECK(vkat_write_file_atomic(target, "x", 1, &err) == VKAT_OK);
    CHECK(lstat(target, &sb) == 0 && S_ISREG(sb.st_mode));
    CHECK(lstat(victim_t, &sb) != 0);

    /* A directory that does not exist: an error naming the path, nothing created. */
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no/such/file", dir);
    CHECK(vkat_write_file_atomic(missing, "x", 1, &err) == VKAT_ERR_IO);
    CHECK_CONTAINS(err.file, "no/such/file");

    /* Discarded: the old contents stay, no temporary file is left. */
    vkat_atomic_file af;
    CHECK(vkat_atomic_open(&af, target, &err) == VKAT_OK);
    fputs("half", af.f);
    vkat_atomic_discard(&af);
    back = vkat_read_file(target, &size);
    CHECK(back && size == 1 && back[0] == 'x');
    free(back);
    CHECK(access(af.tmp, F_OK) != 0);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    TEST_END();
}
