/* pool.c — the ordered job window of pool.h: a ring of job pointers, each with a state, one mutex and two
 * condition variables. Workers take the oldest job nobody has started; the consumer waits for the oldest job, or
 * takes the oldest finished one (a job leaving the middle of the ring closes the gap, so a worker finds its job
 * again by pointer). It knows nothing of what the jobs are. */
#include "pool.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#ifdef __linux__
#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct slot {
    void *job;
    int state;
} slot;

struct vkat_pool {
    pthread_mutex_t lock;
    pthread_cond_t work_cv; /* workers wait here for queued jobs (or resume/stop) */
    pthread_cond_t done_cv; /* the consumer waits here for a job to finish */
    vkat_pool_work_fn work;
    void *ctx;
    unsigned window, head, count;
    slot *ring;
    unsigned workers, running;
    pthread_t *threads;
    int paused, stopping;
};

static slot *at(vkat_pool *p, unsigned i)
{
    return &p->ring[(p->head + i) % p->window];
}

/* The oldest queued job, or NULL. Called with the lock held. */
static slot *next_queued(vkat_pool *p)
{
    for (unsigned i = 0; i < p->count; i++)
        if (at(p, i)->state == JOB_QUEUED)
            return at(p, i);
    return NULL;
}

/* Workers may run below the consumer's priority, so that pipeline creation filling every core cannot delay the
 * measuring thread between submissions. Measured on the H200 (records/session7-issue-22.md): 10 nice levels gave
 * no gain (three spaces, each a little faster at the same priority), so the default is 0. Linux applies nice per
 * thread; elsewhere nothing changes. VKAT_WORKER_NICE (0-19) sets it. */
static void lower_priority(void)
{
#ifdef __linux__
    const char *v = getenv("VKAT_WORKER_NICE");
    int by = v && *v ? atoi(v) : 0;
    if (by <= 0)
        return;
    errno = 0;
    int now = getpriority(PRIO_PROCESS, 0); /* this thread's, on Linux */
    if (errno == 0)
        (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), now + (by > 19 ? 19 : by));
#endif
}

/* The window position of `job`, which is in it. Called with the lock held. */
static unsigned position(vkat_pool *p, const void *job)
{
    unsigned i = 0;
    while (i + 1 < p->count && at(p, i)->job != job)
        i++;
    return i;
}

static void *worker_main(void *arg)
{
    vkat_pool *p = arg;
    lower_priority();
    pthread_mutex_lock(&p->lock);
    for (;;) {
        slot *s = NULL;
        while (!p->stopping && (p->paused || !(s = next_queued(p))))
            pthread_cond_wait(&p->work_cv, &p->lock);
        if (p->stopping)
            break;
        s->state = JOB_RUNNING;
        p->running++;
        void *job = s->job;
        pthread_mutex_unlock(&p->lock);
        p->work(p->ctx, job);
        pthread_mutex_lock(&p->lock);
        at(p, position(p, job))->state = JOB_DONE; /* the consumer may have closed a gap before it meanwhile */
        p->running--;
        pthread_cond_broadcast(&p->done_cv);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

vkat_pool *vkat_pool_create(unsigned workers, unsigned window, vkat_pool_work_fn work, void *ctx)
{
    vkat_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->window = window ? window : 1;
    p->work = work;
    p->ctx = ctx;
    p->ring = calloc(p->window, sizeof *p->ring);
    p->threads = calloc(workers ? workers : 1, sizeof *p->threads);
    if (!p->ring || !p->threads) {
        free(p->ring);
        free(p->threads);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->work_cv, NULL);
    pthread_cond_init(&p->done_cv, NULL);
    for (; p->workers < workers; p->workers++)
        if (pthread_create(&p->threads[p->workers], NULL, worker_main, p) != 0)
            break;
    if (p->workers < workers) {
        vkat_pool_destroy(p);
        return NULL;
    }
    return p;
}

void vkat_pool_destroy(vkat_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->workers; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work_cv);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p->ring);
    free(p);
}

unsigned vkat_pool_count(const vkat_pool *p)
{
    return p->count;
}

int vkat_pool_full(const vkat_pool *p)
{
    return p->count == p->window;
}

void vkat_pool_push(vkat_pool *p, void *job, int needs_work)
{
    pthread_mutex_lock(&p->lock);
    slot *s = &p->ring[(p->head + p->count) % p->window];
    s->job = job;
    s->state = needs_work ? JOB_QUEUED : JOB_DONE;
    p->count++;
    pthread_cond_signal(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
}

/* Removes window position i (the lock held), closing the gap so that the window stays in push order. */
static void *take(vkat_pool *p, unsigned i)
{
    void *job = at(p, i)->job;
    for (; i + 1 < p->count; i++)
        *at(p, i) = *at(p, i + 1);
    at(p, i)->job = NULL;
    p->count--;
    return job;
}

/* The position pop may take now: the oldest job, once done; with `any`, the oldest done one. UINT_MAX: none yet. */
static unsigned ready(vkat_pool *p, int any)
{
    for (unsigned i = 0; i < (any ? p->count : 1); i++)
        if (at(p, i)->state == JOB_DONE)
            return i;
    return UINT_MAX;
}

static void *pop(vkat_pool *p, int any)
{
    pthread_mutex_lock(&p->lock);
    if (p->count == 0) {
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    if (p->workers == 0)
        any = 0; /* serial: the work itself goes in push order, and so do the jobs */
    unsigned i;
    while ((i = ready(p, any)) == UINT_MAX) {
        slot *s = next_queued(p);
        if (p->workers == 0 && s) {
            /* Serial mode: the consumer does the work itself, oldest first. */
            s->state = JOB_RUNNING;
            void *job = s->job;
            pthread_mutex_unlock(&p->lock);
            p->work(p->ctx, job);
            pthread_mutex_lock(&p->lock);
            at(p, position(p, job))->state = JOB_DONE;
            continue;
        }
        pthread_cond_wait(&p->done_cv, &p->lock);
    }
    if (i == 0) {
        /* The oldest: the ring's head moves on, nothing to shift. */
        void *job = at(p, 0)->job;
        at(p, 0)->job = NULL;
        p->head = (p->head + 1) % p->window;
        p->count--;
        pthread_mutex_unlock(&p->lock);
        return job;
    }
    void *job = take(p, i);
    pthread_mutex_unlock(&p->lock);
    return job;
}

void *vkat_pool_pop(vkat_pool *p)
{
    return pop(p, 0);
}

void *vkat_pool_pop_ready(vkat_pool *p)
{
    return pop(p, 1);
}

void vkat_pool_cancel_queued(vkat_pool *p)
{
    pthread_mutex_lock(&p->lock);
    for (unsigned i = 0; i < p->count; i++)
        if (at(p, i)->state == JOB_QUEUED)
            at(p, i)->state = JOB_DONE;
    pthread_cond_broadcast(&p->done_cv);
    pthread_mutex_unlock(&p->lock);
}

void vkat_pool_pause(vkat_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->paused = 1;
    while (p->running > 0)
        pthread_cond_wait(&p->done_cv, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

void vkat_pool_resume(vkat_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->paused = 0;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->lock);
}

void *vkat_pool_at(vkat_pool *p, unsigned i)
{
    return i < p->count ? at(p, i)->job : NULL;
}

void vkat_pool_redo(vkat_pool *p, unsigned i)
{
    pthread_mutex_lock(&p->lock);
    if (i < p->count)
        at(p, i)->state = JOB_QUEUED;
    pthread_mutex_unlock(&p->lock);
}
