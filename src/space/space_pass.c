/* space_pass.c — evaluates a space's sequences of dispatches ([pass.NAME] and [check.pass.NAME] sections, loaded
 * by space.c) and its compared slices ([check] compare.NAME), for one environment.
 *
 * A sequence is the pass sections in file order, each dispatched `repeat` times (or while its `while` holds) with
 * the name `pass` counting from 0; every step takes [dispatch], [push] and the parameters' @spec values as its
 * defaults and overrides them with its own keys. Like space.c it must not touch Vulkan or print. */
#include "space.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void vkat_space_free_passes(vkat_pass_decl *passes, size_t count)
{
    for (size_t i = 0; passes && i < count; i++) {
        vkat_pass_decl *p = &passes[i];
        free(p->name);
        free(p->template_path);
        vkat_expr_destroy(p->repeat);
        vkat_expr_destroy(p->repeat_while);
        for (int a = 0; a < 3; a++) {
            vkat_expr_destroy(p->local_size[a]);
            vkat_expr_destroy(p->groups[a]);
        }
        for (size_t k = 0; k < p->spec_count; k++)
            vkat_expr_destroy(p->spec[k].value);
        for (size_t k = 0; k < p->push_count; k++)
            vkat_expr_destroy(p->push[k].value);
        for (size_t k = 0; k < p->bind_count; k++) {
            vkat_expr_destroy(p->binds[k].index);
            free(p->binds[k].buffers);
        }
        free(p->spec);
        free(p->push);
        free(p->binds);
    }
    free(passes);
}

int vkat_space_passes_use(const vkat_space *s, int slot)
{
    for (size_t i = 0; i < s->pass_count; i++) {
        const vkat_pass_decl *p = &s->passes[i];
        if ((p->repeat && vkat_expr_uses(p->repeat, slot)) ||
            (p->repeat_while && vkat_expr_uses(p->repeat_while, slot)))
            return 1;
        for (int a = 0; a < 3; a++)
            if ((p->groups[a] && vkat_expr_uses(p->groups[a], slot)) ||
                (p->local_size[a] && vkat_expr_uses(p->local_size[a], slot)))
                return 1;
        for (size_t k = 0; k < p->spec_count; k++)
            if (vkat_expr_uses(p->spec[k].value, slot))
                return 1;
        for (size_t k = 0; k < p->push_count; k++)
            if (vkat_expr_uses(p->push[k].value, slot))
                return 1;
        for (size_t k = 0; k < p->bind_count; k++)
            if (p->binds[k].index && vkat_expr_uses(p->binds[k].index, slot))
                return 1;
    }
    return 0;
}

int vkat_space_has_sequence(const vkat_space *s, int reference)
{
    return (reference ? s->ref_pass_count : s->pass_count) > 0;
}

/* ---- One step -------------------------------------------------------------------------------------------------- */

static vkat_result eval_u32(const vkat_space *s, const vkat_expr *x, const vkat_value *env, const char *what,
                            int64_t lo, uint32_t *out, vkat_error *err)
{
    int64_t v;
    vkat_result r = vkat_expr_eval_int(x, env, &v, err);
    if (r)
        return r;
    if (v < lo || v > UINT32_MAX)
        return vkat_fail(err, VKAT_ERR_EXPR, s->path, vkat_expr_line(x),
                         "%s is %lld from '%s'; it must be %lld to "
                         "4294967295",
                         what, (long long)v, vkat_expr_text(x), (long long)lo);
    *out = (uint32_t)v;
    return VKAT_OK;
}

/* A pass's push.NAME, packed as vkat_space_launch packs [push] NAME. */
static vkat_result push_override(const vkat_space *s, const vkat_pass_override *o, const vkat_value *env,
                                 uint8_t *block, vkat_error *err)
{
    const vkat_push_decl *p = &s->push[o->index];
    uint8_t *dst = block + p->offset;
    if (p->type == VKAT_FLOAT32) {
        vkat_value v;
        vkat_result r = vkat_expr_eval(o->value, env, &v, err);
        float f = (float)vkat_value_f64(v);
        if (!r)
            memcpy(dst, &f, 4);
        return r;
    }
    int64_t v;
    vkat_result r = vkat_expr_eval_int(o->value, env, &v, err);
    if (r)
        return r;
    int64_t lo = p->type == VKAT_INT32 ? INT32_MIN : 0, hi = p->type == VKAT_INT32 ? INT32_MAX : UINT32_MAX;
    if (v < lo || v > hi)
        return vkat_fail(err, VKAT_ERR_EXPR, s->path, o->line, "push constant '%s' = %lld does not fit in %s", p->name,
                         (long long)v, vkat_elem_type_name(p->type));
    uint32_t bits = p->type == VKAT_INT32 ? (uint32_t)(int32_t)v : (uint32_t)v;
    memcpy(dst, &bits, 4);
    return VKAT_OK;
}

static void set_spec(vkat_step *st, uint32_t id, uint32_t value)
{
    for (size_t i = 0; i < st->spec_count; i++)
        if (st->spec_id[i] == id) {
            st->spec_value[i] = value;
            return;
        }
    if (st->spec_count < VKAT_MAX_STEP_SPEC) {
        st->spec_id[st->spec_count] = id;
        st->spec_value[st->spec_count++] = value;
    }
}

/* Which buffer each binding holds: its own, except where the pass says bind.N. */
static vkat_result eval_binds(const vkat_space *s, const vkat_pass_decl *p, const vkat_value *env, uint32_t pass,
                              vkat_step *st, vkat_error *err)
{
    st->remapped = 0;
    for (uint32_t k = 0; k < VKAT_MAX_STEP_BINDINGS; k++)
        st->binding_buffer[k] = k;
    for (size_t i = 0; i < p->bind_count; i++) {
        const vkat_pass_bind *b = &p->binds[i];
        int64_t at = pass % b->count;
        if (b->index) {
            vkat_result r = vkat_expr_eval_int(b->index, env, &at, err);
            if (r)
                return r;
            if (at < 0 || (uint64_t)at >= b->count)
                return vkat_fail(err, VKAT_ERR_EXPR, s->path, b->line,
                                 "bind.%u picks buffer %lld of %zu from '%s'; it must be 0 to %zu", b->slot,
                                 (long long)at, b->count, vkat_expr_text(b->index), b->count - 1);
        }
        st->binding_buffer[b->slot] = b->buffers[at];
        st->remapped |= b->buffers[at] != b->slot;
    }
    return VKAT_OK;
}

/* Fills one step for `env` (its `pass` and `passes` already set). */
static vkat_result eval_step(const vkat_space *s, const vkat_pass_decl *p, const vkat_value *env, int reference,
                             vkat_step *st, vkat_error *err)
{
    vkat_launch base;
    vkat_result r = vkat_space_launch(s, env, reference, &base, err);
    if (r)
        return r;
    memcpy(st->local_size, base.local_size, sizeof st->local_size);
    memcpy(st->groups, base.groups, sizeof st->groups);
    memcpy(st->push, base.push, sizeof st->push);
    st->push_size = base.push_size;
    vkat_launch_free(&base);
    static const char *const ls[3] = {"local_size x", "local_size y", "local_size z"};
    static const char *const gs[3] = {"groups x", "groups y", "groups z"};
    /* A pass's local_size or groups replaces all three of [dispatch]'s: its missing axes are 1. */
    for (int a = 0; a < 3 && !r; a++) {
        if (p->local_size[0])
            st->local_size[a] = 1;
        if (p->local_size[a])
            r = eval_u32(s, p->local_size[a], env, ls[a], 1, &st->local_size[a], err);
        if (p->groups[0])
            st->groups[a] = 1;
        if (!r && p->groups[a])
            r = eval_u32(s, p->groups[a], env, gs[a], 1, &st->groups[a], err);
    }
    for (size_t i = 0; i < p->push_count && !r; i++)
        r = push_override(s, &p->push[i], env, st->push, err);
    if (!r)
        r = eval_binds(s, p, env, st->index, st, err);
    st->spec_count = 0;
    for (size_t i = 0; i < s->problem_count; i++) /* problem sizes bound to spec constants, as in one dispatch */
        if (s->problem[i].binding == VKAT_SIZE_SPEC)
            set_spec(st, s->problem[i].spec_id, (uint32_t)env[s->problem[i].slot].i);
    for (size_t i = 0; !reference && i < s->param_count; i++)
        if (s->params[i].kind == VKAT_PARAM_SPEC)
            set_spec(st, s->params[i].spec_id, (uint32_t)env[s->params[i].slot].i);
    for (size_t i = 0; i < p->spec_count && !r; i++) {
        int64_t v;
        r = vkat_expr_eval_int(p->spec[i].value, env, &v, err);
        if (!r && (v < INT32_MIN || v > UINT32_MAX))
            r = vkat_fail(err, VKAT_ERR_EXPR, s->path, p->spec[i].line,
                          "specialization constant %u = %lld does not fit in 32 bits", p->spec[i].index, (long long)v);
        if (!r)
            set_spec(st, p->spec[i].index, (uint32_t)v);
    }
    return r;
}

/* ---- The sequence ---------------------------------------------------------------------------------------------- */

/* How many times pass `p` runs: `repeat`, or how long its `while` holds (env's `pass` is scratch), or 1. Stops
 * counting past VKAT_MAX_STEPS (the caller then reports the overflow). */
static vkat_result pass_repeats(const vkat_space *s, const vkat_pass_decl *p, vkat_value *env, int64_t *n,
                                vkat_error *err)
{
    *n = 1;
    if (p->repeat_while) {
        for (*n = 0; *n <= VKAT_MAX_STEPS; ++*n) {
            int64_t more;
            env[s->pass_slot] = vkat_int(*n);
            vkat_result r = vkat_expr_eval_int(p->repeat_while, env, &more, err);
            if (r || !more)
                return r;
        }
        return VKAT_OK;
    }
    if (!p->repeat)
        return VKAT_OK;
    vkat_result r = vkat_expr_eval_int(p->repeat, env, n, err);
    if (!r && (*n < 0 || *n > VKAT_MAX_STEPS))
        r = vkat_fail(err, VKAT_ERR_EXPR, s->path, vkat_expr_line(p->repeat),
                      "repeat is %lld from '%s'; it must be 0 to %d", (long long)*n, vkat_expr_text(p->repeat),
                      VKAT_MAX_STEPS);
    return r;
}

vkat_result vkat_space_steps(const vkat_space *s, const vkat_value *env, int reference, vkat_step **steps,
                             size_t *count, vkat_error *err)
{
    *steps = NULL;
    *count = 0;
    const vkat_pass_decl *passes = reference ? s->ref_passes : s->passes;
    size_t npass = reference ? s->ref_pass_count : s->pass_count;
    const char *default_template = reference ? s->reference_path : s->template_path;
    size_t nsym = vkat_symtab_count(s->symbols);
    vkat_value *e = malloc((nsym ? nsym : 1) * sizeof *e);
    vkat_step *out = calloc(VKAT_MAX_STEPS, sizeof *out);
    vkat_result r = VKAT_OK;
    size_t n = 0;
    if (!e || !out || s->pass_slot < 0 || !npass) {
        r = !e || !out ? vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory")
                       : vkat_fail(err, VKAT_ERR_INTERNAL, s->path, 0, "the space has no %s pass sections",
                                   reference ? "[check.pass.*]" : "[pass.*]");
        goto done;
    }
    memcpy(e, env, nsym * sizeof *e);
    for (size_t pi = 0; pi < npass && !r; pi++) {
        const vkat_pass_decl *p = &passes[pi];
        int64_t reps;
        e[s->pass_slot] = vkat_int(0);
        e[s->passes_slot] = vkat_int(0);
        if ((r = pass_repeats(s, p, e, &reps, err)))
            break;
        e[s->passes_slot] = vkat_int(reps);
        for (int64_t i = 0; i < reps; i++) {
            e[s->pass_slot] = vkat_int(i);
            if (n == VKAT_MAX_STEPS) {
                r = vkat_fail(err, VKAT_ERR_EXPR, s->path, p->line,
                              "the sequence has more than %d dispatches at [%spass.%s], pass %lld%s", VKAT_MAX_STEPS,
                              reference ? "check." : "", p->name, (long long)i,
                              p->repeat_while ? " (does its while ever become false?)" : "");
                break;
            }
            vkat_step *st = &out[n];
            st->pass = p;
            st->index = (uint32_t)i;
            st->template_path = p->template_path ? p->template_path : default_template;
            if ((r = eval_step(s, p, e, reference, st, err)))
                break;
            n++;
        }
    }
    if (!r && n == 0)
        r = vkat_fail(err, VKAT_ERR_EXPR, s->path, passes[0].line,
                      "the %s sequence has no dispatch for this problem and configuration (every repeat is 0)",
                      reference ? "reference's" : "variant's");
done:
    free(e);
    if (r) {
        free(out);
        return r;
    }
    *steps = out;
    *count = n;
    return VKAT_OK;
}

/* ---- Compared slices ------------------------------------------------------------------------------------------- */

vkat_result vkat_space_compare_slice(const vkat_space *s, size_t index, const vkat_value *env, uint64_t elements,
                                     uint64_t *offset, uint64_t *count, vkat_error *err)
{
    const vkat_buffer_decl *b = &s->buffers[index];
    *offset = 0;
    *count = elements;
    if (!b->compare_count)
        return VKAT_OK;
    int64_t off, n;
    vkat_result r = vkat_expr_eval_int(b->compare_offset, env, &off, err);
    if (!r)
        r = vkat_expr_eval_int(b->compare_count, env, &n, err);
    if (r)
        return r;
    if (off < 0 || n < 1 || (uint64_t)off > elements || (uint64_t)n > elements - (uint64_t)off)
        return vkat_fail(err, VKAT_ERR_EXPR, s->path, b->compare_line,
                         "compare.%s is elements %lld..%lld; buffer '%s' has %llu elements", b->name, (long long)off,
                         (long long)off + n - 1, b->name, (unsigned long long)elements);
    *offset = (uint64_t)off;
    *count = (uint64_t)n;
    return VKAT_OK;
}
