/* test_replay_constraints.c — a replayed table with its kernel's constraints (vkat_replay_constrain): a small
 * Kernel Tuner table written here, P, Q in {1, 2, 4, 8}, R in {0, 1}, with the constraint P * Q <= 16 (26 of 32
 * raw configurations pass). The table holds two configurations that break it (one of them the fastest of all, so
 * a search that ever evaluated one would show it), lacks two that pass (compile failures, as a live run would
 * see them) and records one failure. Ruled-out configurations are never evaluated under either counting;
 * passing ones missing from the table are charged; a constraints file that does not match the table names its
 * line. */
#include "replay.h"
#include "test.h"

#include <unistd.h>

static const char *const table_text = "{\"tune_params_keys\": [\"P\", \"Q\", \"R\"],\n"
                                      " \"tune_params\": {\"P\": [1, 2, 4, 8], \"Q\": [1, 2, 4, 8], \"R\": [0, 1]},\n"
                                      " \"cache\": {\n";

/* Seconds of configuration (p, q, r) as written to the table; < 0 absent, INFINITY failed. */
static double table_ms(int p, int q, int r)
{
    if (p * q > 16)
        return p == 8 && q == 8 && r == 0 ? 0.5 : p == 8 && q == 4 && r == 1 ? 0.6 : -1; /* break the rule */
    if ((p == 1 && q == 1 && r == 0) || (p == 2 && q == 2 && r == 1))
        return -1; /* pass the rule, missing: charged */
    if (p == 4 && q == 4 && r == 1)
        return INFINITY;                                    /* a recorded failure */
    return 1.0 + 0.1 * (8 / p) + 0.03 * (8 / q) + 0.01 * r; /* fastest allowed: 8,2,0 at 1.22 ms */
}

static void write_text(char *path, const char *text)
{
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    FILE *f = fdopen(fd, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void write_table(char *path)
{
    char text[8192];
    size_t at = (size_t)snprintf(text, sizeof text, "%s", table_text);
    int first = 1;
    for (int p = 1; p <= 8; p *= 2)
        for (int q = 1; q <= 8; q *= 2)
            for (int r = 0; r <= 1; r++) {
                double ms = table_ms(p, q, r);
                if (ms < 0)
                    continue;
                at += (size_t)snprintf(text + at, sizeof text - at, "%s\"%d,%d,%d\": {\"time\": %.6g}",
                                       first ? "" : ",\n", p, q, r,
                                       isinf(ms) ? 1e20 : ms); /* 1e20: Kernel Tuner's old failure mark */
                first = 0;
            }
    snprintf(text + at, sizeof text - at, "\n}}\n");
    write_text(path, text);
}

static const uint32_t pq_values[] = {1, 2, 4, 8};

/* Every evaluation a search makes: none may break the rule. */
typedef struct seen {
    uint64_t evaluations, breaking, failed;
} seen;

static void note(void *user, uint64_t evaluation, const uint32_t *choice, double seconds, const char *origin)
{
    (void)evaluation;
    (void)origin;
    seen *s = user;
    s->evaluations++;
    s->breaking += pq_values[choice[0]] * pq_values[choice[1]] > 16;
    s->failed += !isfinite(seconds);
}

static void run(const vkat_replay_table *t, const char *strategy, uint64_t seed, int charged, vkat_search_stats *st,
                seen *s)
{
    vkat_replay_opts o = {strategy, seed, 100, 1, charged, note, s, 0};
    uint64_t marks[] = {100};
    double at[1];
    vkat_error err = {0};
    memset(st, 0, sizeof *st);
    memset(s, 0, sizeof *s);
    CHECK_MSG(vkat_replay_run(t, &o, marks, 1, at, st, &err) == VKAT_OK, "%s", err.message);
}

/* A constraints file that does not fit the table: the error names the file and the given line. */
static void refused_at(vkat_replay_table *t, const char *text, int want_line, const char *want_text)
{
    char path[] = "/tmp/vkat_test_constraints_XXXXXX";
    write_text(path, text);
    vkat_error err = {0};
    CHECK(vkat_replay_constrain(t, path, &err) != VKAT_OK);
    CHECK_MSG(!strcmp(err.file, path) && err.line == want_line, "%s:%d: %s (want line %d)", err.file, err.line,
              err.message, want_line);
    CHECK_CONTAINS(err.message, want_text);
    CHECK(t->constraint_bits == NULL); /* refused: the table has none */
    unlink(path);
}

int main(void)
{
    char table[] = "/tmp/vkat_test_ctable_XXXXXX", space[] = "/tmp/vkat_test_cspace_XXXXXX";
    write_table(table);
    write_text(space, "; the kernel's rule, as its tuner states it\n"
                      "[params]\n"
                      "P = 1, 2, 4, 8\n"
                      "Q = pow2(1, 8)\n"
                      "R = 0, 1\n"
                      "\n"
                      "[constraints]\n"
                      "threads = P * Q <= 16\n");
    vkat_replay_table *t = NULL;
    vkat_error err = {0};
    CHECK(vkat_replay_load(table, NULL, &t, &err) == VKAT_OK);
    if (!t) {
        unlink(table);
        unlink(space);
        TEST_END();
    }
    CHECK(t->raw_count == 32 && t->valid == 25 && t->failed == 1);
    vkat_search_stats st;
    seen s;

    /* Without constraints, charged: exhaustive walks all 32, the 6 that break the rule among them (the two in the
     * table, the faster at 0.5 ms, and four missing, charged). */
    run(t, "exhaustive", 0, 1, &st, &s);
    CHECK_MSG(st.evaluated == 32 && s.breaking == 6 && fabs(st.best_s - 0.5e-3) < 1e-12,
              "%llu evaluated, %llu breaking, best %g", (unsigned long long)st.evaluated,
              (unsigned long long)s.breaking, st.best_s);

    CHECK_MSG(vkat_replay_constrain(t, space, &err) == VKAT_OK, "%s", err.message);
    CHECK(t->constraints_path && !strcmp(t->constraints_path, space));
    CHECK_MSG(t->constraint_valid == 26 && t->constrained_valid == 23 && t->constrained_failed == 1 &&
                  t->constraint_outside == 2,
              "%llu pass, %llu + %llu of the table, %llu outside", (unsigned long long)t->constraint_valid,
              (unsigned long long)t->constrained_valid, (unsigned long long)t->constrained_failed,
              (unsigned long long)t->constraint_outside);

    /* Charged: exhaustive evaluates exactly the 26 that pass, the two missing and the recorded failure charged;
     * those that break the rule are ruled out unevaluated (4,8,* on the way; 8,4,* and 8,8,* come after the 26th). */
    run(t, "exhaustive", 0, 1, &st, &s);
    CHECK_MSG(st.evaluated == 26 && st.failed == 3 && s.breaking == 0 && st.invalid == 2,
              "%llu evaluated, %llu failed, %llu invalid, %llu breaking", (unsigned long long)st.evaluated,
              (unsigned long long)st.failed, (unsigned long long)st.invalid, (unsigned long long)s.breaking);
    CHECK(fabs(st.best_s - 1.22e-3) < 1e-12 && st.stop == VKAT_STOP_EXHAUSTED);
    /* Free: the two missing ones are ruled out too; the recorded failure still costs its evaluation. */
    run(t, "exhaustive", 0, 0, &st, &s);
    CHECK(st.evaluated == 24 && st.failed == 1 && s.breaking == 0);
    /* Every strategy, charged and free, over seeds: never an evaluation that breaks the rule, the space exhausted at
     * the passing count, and charged failures are the two missing and the recorded one. */
    const char *strategies[] = {"auto", "random", "annealing", "local", "genetic"};
    for (size_t k = 0; k < sizeof strategies / sizeof *strategies; k++)
        for (uint64_t seed = 0; seed < 3; seed++)
            for (int charged = 0; charged <= 1; charged++) {
                run(t, strategies[k], seed, charged, &st, &s);
                CHECK_MSG(s.breaking == 0 && s.evaluations == st.evaluated && st.evaluated <= (charged ? 26u : 24u),
                          "%s seed %llu %s: %llu evaluated, %llu breaking", strategies[k], (unsigned long long)seed,
                          charged ? "charged" : "free", (unsigned long long)st.evaluated,
                          (unsigned long long)s.breaking);
                CHECK(s.failed <= (charged ? 3u : 1u) && st.best_s >= 1.22e-3 - 1e-12);
            }
    /* known_after: after N evaluations the table joins the constraints as the oracle; the rule still holds. */
    vkat_replay_opts ko = {"auto", 1, 100, 1, 1, note, &s, 5};
    uint64_t marks[] = {100};
    double at[1];
    memset(&s, 0, sizeof s);
    CHECK(vkat_replay_run(t, &ko, marks, 1, at, &st, &err) == VKAT_OK);
    CHECK(s.breaking == 0);

    /* NULL removes them: charged exhaustive walks all 32 again. */
    CHECK(vkat_replay_constrain(t, NULL, &err) == VKAT_OK && t->constraint_bits == NULL);
    run(t, "exhaustive", 0, 1, &st, &s);
    CHECK(st.evaluated == 32 && s.breaking == 6);

    /* Files that do not fit the table. */
    refused_at(t, "[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 8\nR = 0, 1\nS = 1, 2\n[constraints]\nc = P <= 4\n", 5,
               "parameter 'S' is not one of the table's");
    refused_at(t, "[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 16\nR = 0, 1\n[constraints]\nc = P <= 4\n", 3,
               "Q's values (1, 2, 4, 16) are not the table's");
    refused_at(t, "[params]\nP = 1, 2, 4\nQ = 1, 2, 4, 8\nR = 0, 1\n", 2, "P's values (1, 2, 4) are not the table's");
    refused_at(t, "; no R\n[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 8\n[constraints]\nc = P <= 4\n", 3,
               "[params] lacks the table's parameter 'R'");
    refused_at(t, "[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 8\nR = 0, 1\n[constraints]\nc = P <= W\n", 6,
               "unknown name 'W'");
    refused_at(t, "[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 8\nR = 0, 1\n[constraints]\nnone = P > 8\n", 6,
               "no configuration");
    refused_at(t, "[params]\nP = 1, 2, 4, 8\nQ = 1, 2, 4, 8\nR = 0, 1\n[constraints]\nz = P % (R - R) == 0\n", 6, "");
    CHECK(vkat_replay_constrain(t, "/nonexistent/constraints.ini", &err) == VKAT_ERR_IO);

    vkat_replay_free(t);
    unlink(table);
    unlink(space);
    TEST_END();
}
