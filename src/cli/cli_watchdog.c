/* cli_watchdog.c — the measuring process and its watchdog (--watchdog), and stop signals: SIGINT or SIGTERM stops
 * a run after the variant in flight. The library knows nothing of processes or signals; it reads the stop flag and
 * writes the claim, both from here. */
#include "cli_tune.h"

#include <errno.h>
#include <pthread.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

/* The measuring child's heartbeat to its watchdog (-1: not supervised). One byte per progress update, FRESH once
 * the child has evaluated a variant itself (not only resumed rows); write() of one byte to a pipe is atomic, so
 * device threads need no lock. */
static int heartbeat_fd = -1;
enum { BEAT = 1, BEAT_FRESH = 2 };
/* Set before each fork: the tag the measuring process puts in its "aborted" rows, so that the watchdog blames
 * only what this process was running, not rows an earlier killed run or another kernel left. */
static char watchdog_claim[64];

void vkat_cli_watchdog_heartbeat(int fresh)
{
    if (heartbeat_fd >= 0) {
        char b = fresh ? BEAT_FRESH : BEAT;
        if (write(heartbeat_fd, &b, 1) < 0)
            heartbeat_fd = -1;
    }
}

/* What the measuring process last said it was doing (vkat_cli_watchdog_stage), in a page shared with the watchdog
 * (mapped before the fork), so that a process that dies outside a variant is reported with where it was. */
enum { STAGE_SIZE = 4096 };
static char *stage_page;
static pthread_mutex_t stage_lock = PTHREAD_MUTEX_INITIALIZER;

void vkat_cli_watchdog_stage(void *user, const vkat_device_info *device, const char *what)
{
    (void)user;
    if (!stage_page)
        return;
    pthread_mutex_lock(&stage_lock);
    snprintf(stage_page, STAGE_SIZE, "%s on %s", what, device->name);
    pthread_mutex_unlock(&stage_lock);
}

const char *vkat_cli_watchdog_claim(void)
{
    return watchdog_claim[0] ? watchdog_claim : NULL;
}

/* SIGINT (Ctrl-C) or SIGTERM asks the run to stop after the variant being measured: `interrupted` holds the
 * signal. A second one ends the process at once with 128 + its number: what finished is committed, and the
 * variant in flight is left "aborted", which a rerun measures again. */
static volatile sig_atomic_t interrupted;
static volatile int stop_requested; /* vkat_tune_desc.stop: the library reads an int */

static void on_stop_signal(int sig)
{
    if (interrupted)
        _exit(128 + sig);
    interrupted = sig;
    stop_requested = 1;
}

void vkat_cli_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The exit code of a run that a signal stopped: 130 for SIGINT, 143 for SIGTERM (docs/exit-codes.md). */
int vkat_cli_stop_exit_code(void)
{
    return interrupted == SIGTERM ? 128 + SIGTERM : VKAT_EXIT_INTERRUPTED;
}

const volatile int *vkat_cli_stop_flag(void)
{
    return &stop_requested;
}

int vkat_cli_stop_signal(void)
{
    return interrupted;
}

/* ---- The watchdog ------------------------------------------------------------------------------------------------
 * A shader that never finishes cannot be stopped from inside the process that submitted it (a CPU driver such as
 * lavapipe keeps running it; a wedged GPU driver may block every call), so the run itself happens in a child. The
 * parent only watches the heartbeat; when it stops for --watchdog seconds, or the child dies of a signal, the parent
 * kills it, turns the variant it was running (stored as "aborted" before it ran) into a timeout or device-lost
 * result, and starts it again: the new child resumes from the database and goes on with the rest. */

static volatile pid_t supervised_child;

/* The stop signal the watchdog received (0: none): the run then ends with 128 + it, and whatever the child's end
 * (clean, killed by a second signal), nothing is blamed and nothing restarts. */
static volatile sig_atomic_t watchdog_stop;

/* Ctrl-C at a terminal reaches the whole process group, the child included, so the watchdog only passes on a
 * signal sent to it by a process (kill(1): SI_USER); a kill of the process group thus reaches the child twice,
 * which ends it at once, its variant in flight left to be measured again. */
static void forward_stop(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (!watchdog_stop)
        watchdog_stop = sig;
    if (supervised_child > 0 && (info->si_code == SI_USER || info->si_code == SI_QUEUE))
        kill(supervised_child, sig);
}

/* How the watchdog ends when a stop signal ended the run (-1: none did). */
static int stopped_code(int status)
{
    int sig = watchdog_stop;
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM))
        sig = sig ? sig : WTERMSIG(status);
    if (!sig)
        return -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) > 128)
        return WEXITSTATUS(status);
    return 128 + sig;
}

/* Turns the variant the killed measuring process was running (its "aborted" rows, by this process's claim) into a
 * timeout (hung) or device-lost (died) result, saying why in `reason`. Returns an exit code on a database error,
 * else -1 with *blamed set. */
static int blame(const tune_args *a, int hung, int status, char *reason, size_t size, uint64_t *blamed)
{
    if (hung)
        snprintf(reason, size, "no progress for %.0f s: the measuring process was killed and restarted (--watchdog)",
                 a->watchdog);
    else
        snprintf(reason, size, "the measuring process died of signal %d while this variant ran",
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    vkat_store *st = NULL;
    vkat_error err = {0};
    if (vkat_store_open(a->d.db_path, &st, &err) != VKAT_OK ||
        vkat_store_resolve_aborted(st, hung ? VKAT_STATUS_TIMEOUT : VKAT_STATUS_DEVICE_LOST, reason, watchdog_claim,
                                   blamed, &err) != VKAT_OK) {
        vkat_store_close(st);
        return vkat_cli_report(&err);
    }
    vkat_store_close(st);
    return -1;
}

/* Reads the child's heartbeat until it exits (its end of the pipe closes) or goes `seconds` without one (then it
 * is killed); reaps it into *status and sets *fresh when it evaluated a variant itself. Returns 1 when it hung. */
static int watch_child(int fd, pid_t pid, double seconds, int *status, int *fresh)
{
    int hung = 0;
    *fresh = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        int n = poll(&p, 1, (int)(seconds * 1000));
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0) {
            hung = 1;
            kill(pid, SIGKILL);
            break;
        }
        char buf[256];
        ssize_t got = read(fd, buf, sizeof buf);
        if (got <= 0)
            break; /* the child closed its end: it exited */
        *fresh |= buf[got - 1] == BEAT_FRESH;
    }
    close(fd);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
    return hung;
}

/* Forks the measuring process and watches it; restarts it after a hang or a crash. Returns -1 in the child (which
 * goes on to measure), else the run's exit code. */
int vkat_cli_watchdog_supervise(const tune_args *a)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward_stop;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* Blocked across fork, so that a signal arriving then waits for the child's own handler. */
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    void *page = mmap(NULL, STAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    stage_page = page == MAP_FAILED ? NULL : page; /* without it, only the message is vaguer */
    for (unsigned restarts = 0;; restarts++) {
        if (stage_page)
            stage_page[0] = 0;
        if (watchdog_stop)
            return 128 + watchdog_stop;
        int fds[2];
        if (pipe(fds) != 0) {
            fprintf(stderr, "vkautotune: cannot create the watchdog's pipe: %s\n", strerror(errno));
            return VKAT_EXIT_FAILURE;
        }
        snprintf(watchdog_claim, sizeof watchdog_claim, "[measuring process %ld.%ld.%u]", (long)getpid(),
                 (long)time(NULL), restarts);
        fflush(NULL);
        sigprocmask(SIG_BLOCK, &stops, &old);
        pid_t pid = fork();
        if (pid < 0) {
            sigprocmask(SIG_SETMASK, &old, NULL);
            fprintf(stderr, "vkautotune: cannot start the measuring process: %s\n", strerror(errno));
            return VKAT_EXIT_FAILURE;
        }
        if (pid == 0) {
            close(fds[0]);
            heartbeat_fd = fds[1];
            vkat_cli_stop_install();
            if (watchdog_stop) /* the watchdog was asked to stop before this child existed */
                on_stop_signal(watchdog_stop);
            sigprocmask(SIG_SETMASK, &old, NULL);
#ifdef __linux__
            prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed watchdog takes its child along */
#endif
            return -1; /* the caller goes on as the measuring process */
        }
        close(fds[1]);
        supervised_child = pid;
        sigprocmask(SIG_SETMASK, &old, NULL);
        int status = 0;
        int fresh = 0;
        int hung = watch_child(fds[0], pid, a->watchdog, &status, &fresh);
        supervised_child = 0;
        int stopped = stopped_code(status);
        if (!hung && stopped >= 0)
            return stopped;
        if (!hung && WIFEXITED(status))
            return WEXITSTATUS(status);
        char reason[256];
        uint64_t blamed = 0;
        int code = blame(a, hung, status, reason, sizeof reason, &blamed);
        if (code >= 0)
            return code;
        if (stopped >= 0)
            return stopped; /* hung while asked to stop: the variant is blamed, nothing restarts */
        /* Died (or hung) between variants after evaluating some itself: a variant that wrote out of bounds can
         * corrupt a CPU driver's memory, which a later free() notices. Every finished row is stored, so a new child
         * resumes; one that fails again before evaluating anything new ends the run below. */
        if (blamed == 0 && fresh && restarts < 100) {
            char how[64];
            if (hung)
                snprintf(how, sizeof how, "stopped making progress for %.0f s", a->watchdog);
            else
                snprintf(how, sizeof how, "died of signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            vkat_cli_log(VKAT_LOG_WARN, "the measuring process %s between variants, while %s; no variant was "
                         "running, so none is blamed (a variant that wrote out of bounds may have corrupted the "
                         "driver's memory earlier); restarting",
                         how, stage_page && stage_page[0] ? stage_page : "measuring");
            continue;
        }
        if (blamed == 0) {
            const char *what = hung ? "the measuring process stopped making progress" : "the measuring process died";
            if (stage_page && stage_page[0])
                fprintf(stderr, "vkautotune: %s outside a variant, while %s; giving up\n", what, stage_page);
            else
                fprintf(stderr, "vkautotune: %s, but not while a variant ran (setting up the device or the "
                                "reference?); giving up\n", what);
            return VKAT_EXIT_DEVICE;
        }
        if (restarts >= 100) {
            fprintf(stderr, "vkautotune: the measuring process was restarted %u times; giving up\n", restarts);
            return VKAT_EXIT_DEVICE;
        }
        vkat_cli_log(VKAT_LOG_WARN, "%s; %llu variant(s) marked %s; restarting", reason, (unsigned long long)blamed,
                 hung ? "timeout" : "device-lost");
    }
}
