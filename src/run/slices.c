/* slices.c — one range of work split over threads (slices.h). */
#include "slices.h"

#include <pthread.h>
#include <unistd.h>

typedef struct slice {
    void (*fn)(void *user, uint64_t from, uint64_t to);
    void *user;
    uint64_t from, to;
} slice;

static void *slice_main(void *p)
{
    slice *s = p;
    s->fn(s->user, s->from, s->to);
    return NULL;
}

void vkat_slices_run(uint64_t n, uint64_t align, uint64_t min_slice, void (*fn)(void *user, uint64_t from, uint64_t to),
                     void *user)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t count = cpus > 1 ? (uint64_t)cpus : 1;
    if (count > VKAT_SLICES_MAX)
        count = VKAT_SLICES_MAX;
    if (min_slice && count > n / min_slice)
        count = n / min_slice;
    if (count <= 1 || !align) {
        fn(user, 0, n);
        return;
    }
    uint64_t step = (n / count + align - 1) / align * align;
    slice s[VKAT_SLICES_MAX];
    pthread_t threads[VKAT_SLICES_MAX];
    int started[VKAT_SLICES_MAX] = {0};
    for (uint64_t k = 0; k < count; k++) {
        uint64_t from = k * step < n ? k * step : n, to = k + 1 == count || (k + 1) * step > n ? n : (k + 1) * step;
        s[k] = (slice){fn, user, from, to};
        if (k > 0 && !(started[k] = pthread_create(&threads[k], NULL, slice_main, &s[k]) == 0))
            fn(user, from, to); /* no thread: done here */
    }
    fn(user, s[0].from, s[0].to);
    for (uint64_t k = 1; k < count; k++)
        if (started[k])
            pthread_join(threads[k], NULL);
}
