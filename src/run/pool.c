/* pool.c — the ordered job window of pool.h: a ring of job pointers, each with a state, one mutex and two
 * condition variables. Workers take the oldest job nobody has started; the consumer waits for the oldest job.
 * It knows nothing of what the jobs are. */
#include "pool.h"

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
        s->state = JOB_DONE;
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

void *vkat_pool_pop(vkat_pool *p)
{
    pthread_mutex_lock(&p->lock);
    if (p->count == 0) {
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    slot *s = at(p, 0);
    if (p->workers == 0 && s->state == JOB_QUEUED) {
        /* Serial mode: the consumer does the work itself. */
        s->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->lock);
        p->work(p->ctx, s->job);
        pthread_mutex_lock(&p->lock);
        s->state = JOB_DONE;
    }
    while (s->state != JOB_DONE)
        pthread_cond_wait(&p->done_cv, &p->lock);
    void *job = s->job;
    s->job = NULL;
    p->head = (p->head + 1) % p->window;
    p->count--;
    pthread_mutex_unlock(&p->lock);
    return job;
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
