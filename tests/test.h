/* test.h — the tests' tiny harness: CHECK records a failure and goes on; each test program ends with
 * TEST_END(), which prints "N passed, N failed" and returns non-zero on any failure.
 * TEST_SKIP(why) exits with 77, which ctest reports as skipped, and says why. */
#ifndef VKAT_TEST_H
#define VKAT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed, test_failed;

#define CHECK(cond)                                                                                              \
    do {                                                                                                         \
        if (cond) {                                                                                              \
            test_passed++;                                                                                       \
        } else {                                                                                                 \
            test_failed++;                                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);                             \
        }                                                                                                        \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                                     \
    do {                                                                                                         \
        if (cond) {                                                                                              \
            test_passed++;                                                                                       \
        } else {                                                                                                 \
            test_failed++;                                                                                       \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);                             \
            fprintf(stderr, __VA_ARGS__);                                                                        \
            fprintf(stderr, "\n");                                                                               \
        }                                                                                                        \
    } while (0)

#define CHECK_STR(got, want) CHECK_MSG(strcmp((got), (want)) == 0, "got '%s', want '%s'", (got), (want))
#define CHECK_CONTAINS(got, want) CHECK_MSG(strstr((got), (want)) != NULL, "'%s' does not contain '%s'", (got), (want))

#define TEST_SKIP(...)                                                                                           \
    do {                                                                                                         \
        printf("SKIPPED: ");                                                                                     \
        printf(__VA_ARGS__);                                                                                     \
        printf("\n");                                                                                            \
        exit(77);                                                                                                \
    } while (0)

#define TEST_END()                                                                                               \
    do {                                                                                                         \
        printf("%d passed, %d failed\n", test_passed, test_failed);                                              \
        return test_failed ? 1 : 0;                                                                              \
    } while (0)

#endif
