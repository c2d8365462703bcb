/* test_pool.c — the job window of run/pool.h: in-order and ready-first pops, the serial mode, and a long stream of
 * jobs of uneven lengths taken from the middle of the window (each done once, returned once, only when done). No
 * GPU. */
#include "pool.h"
#include "test.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

typedef struct tjob {
    int id;
    int gate;  /* 1: the work waits until released (at most 2 s, so that a wrong pool fails rather than hangs) */
    int done;  /* times worked on */
    int usec;  /* how long the work takes */
} tjob;

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int released;
static int entered; /* a gated job's work has begun */

static void work(void *ctx, void *p)
{
    (void)ctx;
    tjob *j = p;
    if (j->gate) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 2;
        pthread_mutex_lock(&gate_lock);
        entered = 1;
        pthread_cond_broadcast(&gate_cv);
        while (!released && pthread_cond_timedwait(&gate_cv, &gate_lock, &until) == 0)
            ;
        pthread_mutex_unlock(&gate_lock);
    }
    if (j->usec)
        usleep((useconds_t)j->usec);
    __atomic_fetch_add(&j->done, 1, __ATOMIC_SEQ_CST);
}

/* Waits (at most 2 s) until a worker is inside a gated job: a fixed sleep was too short on a loaded machine, where
 * the worker had not yet taken the job when the test cancelled the queue. */
static void wait_entered(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 2;
    pthread_mutex_lock(&gate_lock);
    while (!entered && pthread_cond_timedwait(&gate_cv, &gate_lock, &until) == 0)
        ;
    pthread_mutex_unlock(&gate_lock);
}

static void release_gate(void)
{
    pthread_mutex_lock(&gate_lock);
    released = 1;
    pthread_cond_broadcast(&gate_cv);
    pthread_mutex_unlock(&gate_lock);
}

int main(void)
{
    /* A slow job first: the ready-first pop hands out those prepared after it, in push order, then the slow one. */
    {
        tjob jobs[4] = {{0, 1, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}};
        vkat_pool *p = vkat_pool_create(2, 8, work, NULL);
        CHECK(p != NULL);
        for (int i = 0; i < 4; i++)
            vkat_pool_push(p, &jobs[i], 1);
        int order[4] = {-1, -1, -1, -1};
        for (int i = 0; i < 3; i++) {
            tjob *j = vkat_pool_pop_ready(p);
            order[i] = j ? j->id : -1;
            CHECK(j && j->done == 1);
        }
        release_gate();
        tjob *last = vkat_pool_pop_ready(p);
        order[3] = last ? last->id : -1;
        CHECK(last && last->done == 1);
        CHECK_MSG(order[0] == 1 && order[1] == 2 && order[2] == 3 && order[3] == 0, "popped %d %d %d %d", order[0],
                  order[1], order[2], order[3]);
        CHECK(vkat_pool_count(p) == 0 && vkat_pool_pop_ready(p) == NULL);
        vkat_pool_destroy(p);
    }

    /* The in-order pop waits for the oldest, whatever finished after it. */
    {
        released = 0;
        tjob jobs[3] = {{0, 0, 0, 20000}, {1, 0, 0, 0}, {2, 0, 0, 0}};
        vkat_pool *p = vkat_pool_create(3, 4, work, NULL);
        for (int i = 0; i < 3; i++)
            vkat_pool_push(p, &jobs[i], 1);
        for (int i = 0; i < 3; i++) {
            tjob *j = vkat_pool_pop(p);
            CHECK(j && j->id == i && j->done == 1);
        }
        vkat_pool_destroy(p);
    }

    /* Serial mode (no workers): the consumer works each job itself, oldest first, with either pop; a job pushed
     * done is not worked on. */
    {
        tjob jobs[3] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}};
        vkat_pool *p = vkat_pool_create(0, 4, work, NULL);
        vkat_pool_push(p, &jobs[0], 1);
        vkat_pool_push(p, &jobs[1], 0);
        vkat_pool_push(p, &jobs[2], 1);
        tjob *a = vkat_pool_pop_ready(p), *b = vkat_pool_pop_ready(p), *c = vkat_pool_pop(p);
        CHECK(a == &jobs[0] && b == &jobs[1] && c == &jobs[2]);
        CHECK(jobs[0].done == 1 && jobs[1].done == 0 && jobs[2].done == 1);
        vkat_pool_destroy(p);
    }

    /* Cancelled: the jobs not yet started are handed back unworked at once; the running one finishes. */
    {
        released = entered = 0;
        tjob jobs[4] = {{0, 1, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}};
        vkat_pool *p = vkat_pool_create(1, 8, work, NULL);
        vkat_pool_push(p, &jobs[0], 1);
        wait_entered(); /* the one worker is inside job 0 */
        for (int i = 1; i < 4; i++)
            vkat_pool_push(p, &jobs[i], 1);
        vkat_pool_cancel_queued(p);
        for (int i = 1; i < 4; i++) {
            tjob *j = vkat_pool_pop_ready(p);
            CHECK_MSG(j && j->id == i && j->done == 0, "popped %d, worked %d", j ? j->id : -1, j ? j->done : -1);
        }
        release_gate();
        tjob *j = vkat_pool_pop_ready(p);
        CHECK(j == &jobs[0] && jobs[0].done == 1);
        vkat_pool_destroy(p);
    }

    /* A stream: 300 jobs of uneven lengths through a window of 8 kept full, 4 workers, taken ready-first (so from
     * the middle of the window, while workers still run jobs before and after the gap): every job is worked on once
     * and returned once, and only after its work. */
    {
        enum { N = 300, W = 8 };
        static tjob jobs[N];
        int returned[N] = {0};
        vkat_pool *p = vkat_pool_create(4, W, work, NULL);
        int pushed = 0, popped = 0, early = 0, out_of_order = 0, last = -1;
        while (popped < N) {
            while (pushed < N && !vkat_pool_full(p)) {
                jobs[pushed] = (tjob){pushed, 0, 0, pushed % 7 == 0 ? 3000 : pushed % 3 ? 100 : 700};
                vkat_pool_push(p, &jobs[pushed], 1);
                pushed++;
            }
            tjob *j = vkat_pool_pop_ready(p);
            if (!j)
                break;
            early += j->done != 1;
            returned[j->id]++;
            out_of_order += j->id < last;
            last = j->id;
            popped++;
        }
        int once = 1, worked = 1;
        for (int i = 0; i < N; i++) {
            once &= returned[i] == 1;
            worked &= jobs[i].done == 1;
        }
        CHECK_MSG(popped == N && once && worked && early == 0, "popped %d, each once %d, worked once %d, early %d",
                  popped, once, worked, early);
        CHECK_MSG(out_of_order > 0, "no job was taken ahead of an older one (the slow ones should have been passed)");
        vkat_pool_destroy(p);
    }
    TEST_END();
}
