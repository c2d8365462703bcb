/* replay_constraints.c — a replayed table's constraints: a space file (docs/space-format.md) whose [params] are the
 * table's parameters with the table's values and whose [constraints] are the kernel's own, as a live run's space
 * would have them. A live run never spends an evaluation on a configuration that breaks its space's constraints,
 * so replay with constraints rules those out before proposal, free; configurations that pass them and are missing
 * from the table are what a real tuner would have compiled and seen fail.
 *
 * The space parser and the expression evaluator are the live run's (src/space/); this file only maps the table's
 * parameters onto the space's and evaluates the constraints once per raw configuration, into a bitmap. */
#include "replay.h"
#include "space.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A bitmap of the raw product above this many configurations (32 MiB) is refused rather than allocated. */
#define MAX_CONSTRAINED_RAW (UINT64_C(1) << 28)

/* "a, b, c" of table parameter p's values into buf (cut when long). */
static void table_values(const vkat_replay_table *t, size_t p, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t j = 0; j < t->value_counts[p] && at + 8 < size; j++)
        at += (size_t)snprintf(buf + at, size - at, "%s%s", j ? ", " : "", t->values[p][j]);
}

/* Index of the table's value text among the space parameter's values, -1 if absent. */
static long space_value_index(const vkat_param *q, const char *text)
{
    char *end;
    double x = strtod(text, &end);
    int numeric = *text && !*end;
    for (size_t k = 0; k < q->value_count; k++) {
        if (q->texts ? !strcmp(q->texts[k], text) : numeric && (double)q->values[k] == x)
            return (long)k;
    }
    return -1;
}

/* The table's parameters onto the space's: param_of[i] the space parameter of table parameter i, value_of[i][j]
 * the space's value index of the table's value j. Every name and every value must match, both ways. */
static vkat_result map_params(const vkat_replay_table *t, const vkat_space *s, size_t *param_of, uint32_t **value_of,
                              vkat_error *err)
{
    int line = s->param_count ? s->params[0].line : 1;
    char have[1024], want[1024];
    for (size_t q = 0; q < s->param_count; q++) {
        size_t i = 0;
        while (i < t->param_count && strcmp(t->param_names[i], s->params[q].name))
            i++;
        if (i == t->param_count) {
            size_t at = 0;
            have[0] = 0;
            for (size_t k = 0; k < t->param_count && at + 8 < sizeof have; k++)
                at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", k ? ", " : "", t->param_names[k]);
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, s->params[q].line,
                             "parameter '%s' is not one of the table's (%s: %s)", s->params[q].name, t->label, have);
        }
    }
    for (size_t i = 0; i < t->param_count; i++) {
        size_t q = 0;
        while (q < s->param_count && strcmp(t->param_names[i], s->params[q].name))
            q++;
        if (q == s->param_count)
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, line,
                             "[params] lacks the table's parameter '%s' (%s gives it %zu value%s)", t->param_names[i],
                             t->label, t->value_counts[i], t->value_counts[i] == 1 ? "" : "s");
        const vkat_param *p = &s->params[q];
        param_of[i] = q;
        int same = p->value_count == t->value_counts[i];
        for (size_t j = 0; same && j < t->value_counts[i]; j++) {
            long k = space_value_index(p, t->values[i][j]);
            same = k >= 0;
            value_of[i][j] = (uint32_t)(k < 0 ? 0 : k);
        }
        if (!same) {
            vkat_param_values_text(p, have, sizeof have, sizeof have - 8);
            table_values(t, i, want, sizeof want);
            return vkat_fail(err, VKAT_ERR_SPACE, s->path, p->line, "%s's values (%s) are not the table's (%s: %s)",
                             p->name, have, t->label, want);
        }
    }
    return VKAT_OK;
}

/* Walks every raw configuration of the table (odometer, last parameter fastest: step n is the configuration that
 * vkat_search_encode numbers n) and sets the bit of each that passes the constraints; counts the table's entries on
 * either side. */
static vkat_result walk(vkat_replay_table *t, const vkat_space *s, const size_t *param_of, uint32_t *const *value_of,
                        vkat_error *err)
{
    size_t np = t->param_count;
    uint32_t *choice = calloc(np ? np : 1, sizeof *choice),
             *schoice = calloc(s->param_count ? s->param_count : 1, sizeof *schoice);
    vkat_value *env = vkat_space_env_create(s, NULL);
    vkat_result r = VKAT_OK;
    if (!choice || !schoice || !env) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    for (uint64_t n = 0; n < t->raw_count; n++) {
        for (size_t i = 0; i < np; i++)
            schoice[param_of[i]] = value_of[i][choice[i]];
        vkat_space_env_apply(s, schoice, env);
        int ok = vkat_space_check(s, env, NULL, err);
        if (ok < 0) {
            r = err ? err->code : VKAT_ERR_EXPR;
            goto cleanup;
        }
        double seconds;
        int in_table = vkat_replay_lookup(t, choice, &seconds);
        if (ok) {
            t->constraint_bits[n / 8] |= (uint8_t)(1u << (n % 8));
            t->constraint_valid++;
            t->constrained_valid += in_table && isfinite(seconds);
            t->constrained_failed += in_table && !isfinite(seconds);
        } else
            t->constraint_outside += in_table;
        for (size_t i = np; i-- > 0;) { /* next configuration */
            if (++choice[i] < t->value_counts[i])
                break;
            choice[i] = 0;
        }
    }
    if (t->constraint_valid == 0)
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, s->path, s->constraint_count ? s->constraints[0].line : 1,
                      "no configuration of %s satisfies the constraints", t->label);
cleanup:
    free(choice);
    free(schoice);
    free(env);
    return r;
}

static void drop(vkat_replay_table *t)
{
    free(t->constraints_path);
    free(t->constraint_bits);
    t->constraints_path = NULL;
    t->constraint_bits = NULL;
    t->constraint_valid = t->constrained_valid = t->constrained_failed = t->constraint_outside = 0;
}

vkat_result vkat_replay_constrain(vkat_replay_table *t, const char *space_path, vkat_error *err)
{
    drop(t);
    if (!space_path)
        return VKAT_OK;
    if (t->raw_count > MAX_CONSTRAINED_RAW)
        return vkat_fail(err, VKAT_ERR_USAGE, space_path, 0,
                         "%s has %llu raw configurations; constraints are evaluated for at most %llu", t->label,
                         (unsigned long long)t->raw_count, (unsigned long long)MAX_CONSTRAINED_RAW);
    vkat_space *s = NULL;
    vkat_result r = vkat_space_load_constraints(space_path, &s, err);
    if (r != VKAT_OK)
        return r;
    size_t np = t->param_count;
    size_t *param_of = calloc(np ? np : 1, sizeof *param_of);
    uint32_t **value_of = calloc(np ? np : 1, sizeof *value_of);
    int ok = param_of && value_of;
    for (size_t i = 0; ok && i < np; i++)
        ok = (value_of[i] = calloc(t->value_counts[i], sizeof **value_of)) != NULL;
    if (!ok || !(t->constraints_path = vkat_strdup(space_path)) ||
        !(t->constraint_bits = calloc((size_t)(t->raw_count / 8 + 1), 1)))
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (r == VKAT_OK)
        r = map_params(t, s, param_of, value_of, err);
    if (r == VKAT_OK)
        r = walk(t, s, param_of, value_of, err);
    for (size_t i = 0; value_of && i < np; i++)
        free(value_of[i]);
    free(value_of);
    free(param_of);
    vkat_space_destroy(s);
    if (r != VKAT_OK)
        drop(t);
    return r;
}

int vkat_replay_allowed(const vkat_replay_table *t, const uint32_t *choice)
{
    if (!t->constraint_bits)
        return 1;
    vkat_search_space sp = {t->param_count, t->value_counts, t->raw_count};
    uint64_t index = vkat_search_encode(&sp, choice);
    return (t->constraint_bits[index / 8] >> (index % 8)) & 1;
}
