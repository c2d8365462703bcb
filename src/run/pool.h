/* pool.h — internal: an ordered window of jobs worked on by a few threads ahead of one consumer.
 *
 * The tuner keeps up to `window` variants in flight: worker threads instantiate, compile, validate and create
 * pipelines, oldest first, while the measuring thread takes finished jobs: strictly in the order they were pushed
 * (vkat_pool_pop), or the oldest one finished (vkat_pool_pop_ready), so that one slow pipeline does not hold up the
 * measurement of those prepared after it. The pool decides no order of results: the tuner hands them to the
 * strategy in push order either way (tune.c). With 0 workers the work runs on the consumer's thread inside the pop,
 * oldest first (the serial mode), so both pops take jobs in push order there.
 * Jobs are the caller's memory; the pool only keeps pointers. One consumer thread. */
#ifndef VKAT_POOL_H
#define VKAT_POOL_H

typedef struct vkat_pool vkat_pool;
typedef void (*vkat_pool_work_fn)(void *ctx, void *job);

/* NULL when threads or memory cannot be had. */
vkat_pool *vkat_pool_create(unsigned workers, unsigned window, vkat_pool_work_fn work, void *ctx);
/* Joins the workers (after their current job); jobs still in the window are left to the caller. */
void vkat_pool_destroy(vkat_pool *pool);

unsigned vkat_pool_count(const vkat_pool *pool); /* jobs in the window */
int vkat_pool_full(const vkat_pool *pool);

/* Appends a job; `needs_work` 0 means it is done already (e.g. answered from the database). The window must not
 * be full. */
void vkat_pool_push(vkat_pool *pool, void *job, int needs_work);
/* Waits until the oldest job is done, removes it from the window and returns it; NULL when the window is empty. */
void *vkat_pool_pop(vkat_pool *pool);
/* Waits until some job is done, removes the oldest done one from the window and returns it (the others keep their
 * order); NULL when the window is empty. */
void *vkat_pool_pop_ready(vkat_pool *pool);

/* Marks every job not yet started done without working on it (the caller drops them: out of time), so that the
 * pops need not wait for their work; jobs already running finish. */
void vkat_pool_cancel_queued(vkat_pool *pool);

/* Pause stops workers from starting jobs and waits for those running to finish; then the consumer may inspect
 * the window (vkat_pool_at, 0 = oldest) and send jobs back for work (vkat_pool_redo), e.g. after the device was
 * rebuilt. Resume lets the workers go on. */
void vkat_pool_pause(vkat_pool *pool);
void vkat_pool_resume(vkat_pool *pool);
void *vkat_pool_at(vkat_pool *pool, unsigned i);
void vkat_pool_redo(vkat_pool *pool, unsigned i);

#endif
