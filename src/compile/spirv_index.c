/* spirv_index.c — how far into each buffer's run-time array a compute shader indexes, as a multiple and an offset
 * of the invocation index: two elements per invocation (`data[id * 2 + 1]`, a scan's `id * 2 + 2`), a vec4 read as
 * four floats (`src[4 * i + k]` for k < 4), a shift (`out[i + 1]`). `vkautotune init` sizes such a buffer a * N + b
 * elements instead of N, where the shader lets N invocations through (records/session19-thirdparty-trial.md, "More
 * than one element per invocation"); sized N, the shader wrote past the end or read zeros past it.
 *
 * A flow-insensitive pass over the function bodies, as spirv_bound.c: each integer value is an affine form over the
 * invocation's atoms (gl_GlobalInvocationID.x; gl_WorkGroupID.x, gl_WorkGroupSize.x and their product;
 * gl_LocalInvocationID.x and, in a 1-D workgroup, gl_LocalInvocationIndex), followed through IAdd, ISub of a
 * constant, IMul and ShiftLeftLogical by a constant, integer conversions, local variables, phis and selects (the
 * larger of both sides, every atom being >= 0). Anything else is unknown. The walk repeats until the forms stop
 * changing, since local variables and phis carry values round loops; what still grows then is unknown. A loop
 * counter compared with a constant in its loop's header (`k < 4`, or converted: `int d < uint n`) is at most that
 * constant less one. An index of such counters alone (`pos[j]` for j < 20000, an n-body loop) reaches as far
 * whatever the invocations: noted apart (index_fixed). The same forms tell a grid-stride loop (`i +=
 * gl_NumWorkGroups.x * gl_WorkGroupSize.x`) from any other read of the group builtins (compile.h grid_stride), for
 * init to tune the workgroup size and count of such a shader. It is a guess for a starting space, never a check: it
 * must not refuse anything. */
#include "spirv_index.h"
#include "spirv_compare.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

/* global x, local x, workgroup x * size x, workgroup x, size x, workgroups x (gl_NumWorkGroups), workgroups x *
 * size x */
enum { T_G, T_L, T_WS, T_W, T_S, T_N, T_NS, T_TERMS };
enum { ST_NONE, ST_KNOWN, ST_UNKNOWN };     /* not met yet (this pass), an affine form, not one */
enum { K_VALUE, K_FVAR, K_FPART, K_INPUT, K_BLOCK, K_ARRAY, K_ELEM }; /* what an id is, for pointers */

#define COEF_MAX (1LL << 30)
#define MAX_PASSES 4

typedef struct form {
    int64_t c[T_TERMS], b; /* sum of c[t] * atom t, plus b */
    int64_t span;          /* it takes every value from that less span up to it (a loop's counter: 0 to 3) */
    uint8_t st;
    uint8_t vec; /* a composite (a builtin's uvec3, gl_WorkGroupSize) whose component 0 is this form */
    uint8_t lii; /* counts gl_LocalInvocationIndex as the local x */
    uint32_t div; /* unknown, but a value divided by div (`p.n / 2`, `p.n >> 1`): a guard against it bounds div * i */
} form;

typedef struct node {
    uint32_t pointee;   /* pointer types: the type they point to */
    uint32_t rt_member; /* struct types: 1 + the member that is a run-time array (the last), else 0 */
    uint32_t binding;   /* buffer variables and pointers into them: 1 + the index in info->bindings */
    uint32_t root;      /* K_FPART: the local variable it points into */
    uint32_t loaded;    /* a load's local variable, or a phi itself: what a loop header compares */
    uint32_t spec;      /* 1 + its SpecId */
    int32_t set, bind;
    int64_t loop_max; /* with has_max: a loop counter's largest value inside its loop */
    int64_t lo;       /* with has_lo: the least constant stored to a local variable or a phi takes (its start) */
    uint8_t kind, is_rt, is_signed, has_max, has_lo, widened;
    uint8_t x_of; /* K_FPART: component 0 of its local vector (`g.x` of `uvec2 g = gl_GlobalInvocationID.xy`) */
    uint8_t gs, gs_prev; /* a variable's or a phi's GS_ bits this walk and the walk before (grid-stride loops) */
    uint32_t inc_base;   /* an IAdd of a grid stride: its other operand (`i + stride`), else 0 */
    /* a value loaded from element i + at of binding from - 1 (i the invocation index), or a local variable first
     * given one: the ends of a range (CSR's row offsets, `X[i + 1] - X[i]`, `for (j = X[i]; j < X[i + 1]; j++)`) */
    uint32_t from;
    int64_t at;
} node;

typedef struct walk {
    form *f;
    node *n;
    uint32_t bound;
    vkat_spirv_info *info;
    int in_function, loop_head;
    uint32_t cand_res, cand_var; /* a comparison in a loop header of a counter with a constant */
    int64_t cand_max;
    uint32_t best_a[32];
    int64_t best_b[32];
    int64_t best_fixed[32]; /* the largest constant index (a = 0), -1 none */
    uint8_t unknown[32];
    uint32_t prev_a[32]; /* best_a after the walk before */
    int64_t guard_a, guard_b; /* the largest multiple of i the shader compares with its size (`2 * i + 1 < n`) */
    uint64_t stored_at[32]; /* the offsets r < 64 the stores at prev_a write (bit r: a * i + r) */
    int gs_loops, gs_escape, gs_refused; /* grid-stride loops found; a read of the builtins outside them; a subgroup
                                            builtin read (this walk) */
    uint8_t ranges[32];     /* its elements i and i + 1 are read as the ends of a range */
} walk;

static form unknown_form(void)
{
    form r = {.st = ST_UNKNOWN};
    return r;
}

static form const_form(int64_t b)
{
    form r = {.st = ST_KNOWN, .b = b};
    return r;
}

static int is_const(const form *x)
{
    for (int t = 0; t < T_TERMS; t++)
        if (x->c[t])
            return 0;
    return x->st == ST_KNOWN && !x->vec;
}

static form checked(form r)
{
    for (int t = 0; t < T_TERMS && r.st == ST_KNOWN; t++)
        if (r.c[t] > COEF_MAX || r.c[t] < -COEF_MAX)
            return unknown_form();
    return r.st == ST_KNOWN && (r.b > COEF_MAX || r.b < -COEF_MAX) ? unknown_form() : r;
}

/* The larger of two forms for every invocation: each coefficient's maximum and the offset's (atoms are >= 0). */
static form join(form x, form y)
{
    if (x.st == ST_NONE || y.st == ST_NONE)
        return x.st == ST_NONE ? y : x;
    if (x.st == ST_UNKNOWN || y.st == ST_UNKNOWN || x.vec != y.vec)
        return unknown_form();
    int same = x.b == y.b && x.lii == y.lii;
    for (int t = 0; t < T_TERMS; t++) {
        same &= x.c[t] == y.c[t];
        x.c[t] = x.c[t] > y.c[t] ? x.c[t] : y.c[t];
    }
    x.b = x.b > y.b ? x.b : y.b;
    x.lii |= y.lii;
    x.span = same && x.span < y.span ? x.span : same ? y.span : 0; /* either: only what both take for sure */
    return x;
}

static form add(form x, form y, int64_t sign)
{
    if (x.st != ST_KNOWN || y.st != ST_KNOWN || x.vec || y.vec)
        return x.st == ST_NONE || y.st == ST_NONE ? (form){.st = ST_NONE} : unknown_form();
    for (int t = 0; t < T_TERMS; t++)
        x.c[t] += sign * y.c[t];
    x.b += sign * y.b;
    x.lii |= y.lii;
    x.span = sign > 0 ? x.span + y.span : y.span ? 0 : x.span;
    return checked(x);
}

static form scale(form x, int64_t k)
{
    for (int t = 0; t < T_TERMS; t++)
        x.c[t] *= k;
    x.b *= k;
    x.span = k == 1 ? x.span : 0; /* 4 * k for k < 4 is 0, 4, 8, 12: not every value between */
    return checked(x);
}

/* Only one atom, with no offset: gl_WorkGroupID.x or gl_WorkGroupSize.x times a constant. */
static int only(const form *x, int atom)
{
    for (int t = 0; t < T_TERMS; t++)
        if ((t == atom) != (x->c[t] != 0))
            return 0;
    return x->st == ST_KNOWN && !x->vec && !x->b;
}

static form mul(form x, form y)
{
    if (x.st == ST_NONE || y.st == ST_NONE)
        return (form){.st = ST_NONE};
    if (x.st != ST_KNOWN || y.st != ST_KNOWN || x.vec || y.vec)
        return unknown_form();
    if (is_const(&x) || is_const(&y))
        return is_const(&x) ? scale(y, x.b) : scale(x, y.b);
    if ((only(&x, T_W) && only(&y, T_S)) || (only(&x, T_S) && only(&y, T_W))) {
        form r = const_form(0); /* gl_WorkGroupID.x * gl_WorkGroupSize.x */
        r.c[T_WS] = (x.c[T_W] + x.c[T_S]) * (y.c[T_W] + y.c[T_S]);
        return checked(r);
    }
    if ((only(&x, T_N) && only(&y, T_S)) || (only(&x, T_S) && only(&y, T_N))) {
        form r = const_form(0); /* gl_NumWorkGroups.x * gl_WorkGroupSize.x: a grid stride */
        r.c[T_NS] = (x.c[T_N] + x.c[T_S]) * (y.c[T_N] + y.c[T_S]);
        return checked(r);
    }
    return unknown_form();
}

/* ---- Accesses --------------------------------------------------------------------------------------------------
 * An element index in terms of the invocation index i: the global x, or the workgroup's offset and the local x in
 * equal measure (id = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x). The workgroup's offset at a
 * larger multiple than the local x (a reduction's two loads a thread, `w * (2 * size) + l` and that + size) is at
 * most that multiple of i less what the local x lacks at its largest, S - 1 (for i < N, N a multiple of the
 * workgroup size S, as init's sizes are); with S a specialization constant, at S = 1, so a multiple of S no larger
 * than what the local x lacks. */
static int resolve(const walk *wk, form x, int64_t *a, int64_t *b)
{
    const vkat_spirv_info *si = wk->info;
    int fixed = si->local_size_spec[0] < 0 && si->local_size[0];
    if (x.st != ST_KNOWN || x.vec || x.c[T_N] || x.c[T_NS]) /* the grid's size is no invocation's index */
        return 0;
    if (fixed) { /* glslang folds gl_WorkGroupSize.x to the literal */
        int64_t s0 = si->local_size[0];
        if (x.c[T_W] % s0)
            return 0;
        x.c[T_WS] += x.c[T_W] / s0, x.b += x.c[T_S] * s0;
        x.c[T_W] = x.c[T_S] = 0;
    }
    int one_d = si->local_size[1] == 1 && si->local_size[2] == 1 && si->local_size_spec[1] < 0 &&
                si->local_size_spec[2] < 0;
    int64_t lacks = x.c[T_WS] - x.c[T_L];
    if (x.c[T_W] || x.c[T_L] < 0 || lacks < 0 || x.c[T_S] > lacks || (x.lii && !one_d))
        return 0;
    *a = x.c[T_G] + x.c[T_WS];
    *b = x.b + (fixed ? -lacks * ((int64_t)si->local_size[0] - 1) : x.c[T_S]);
    return *a >= 0;
}

static void access(walk *wk, uint32_t binding, uint32_t index)
{
    if (!binding || binding > 32 || index >= wk->bound)
        return;
    int64_t a, b;
    uint32_t k = binding - 1;
    if (!resolve(wk, wk->f[index], &a, &b))
        wk->unknown[k] = 1;
    else if (a > 0 && ((uint32_t)a > wk->best_a[k] || ((uint32_t)a == wk->best_a[k] && b > wk->best_b[k])))
        wk->best_a[k] = (uint32_t)a, wk->best_b[k] = b;
    else if (a == 0 && b > wk->best_fixed[k]) /* a fixed element (a counter's) does not grow with N, but is read */
        wk->best_fixed[k] = b;
}

/* A store to an element: which offsets of the largest multiple it writes, to tell whether the stores leave any
 * element (`sums[2 * i + 1]` and `sums[2 * i + 2]` never write element 0). Walked after the accesses' best_a is
 * known: from the second walk on, the previous walk's (the same, once the forms are stable). */
static void stored(walk *wk, uint32_t binding, const form *index)
{
    int64_t a, b;
    uint32_t k = binding - 1;
    if (!binding || binding > 32 || !resolve(wk, *index, &a, &b) || (uint32_t)a != wk->prev_a[k])
        return;
    for (int64_t r = b - index->span < 0 ? 0 : b - index->span; r <= b && r < 64; r++)
        wk->stored_at[k] |= 1ull << r;
}

/* An access chain: into a local variable, a builtin vector's x, a buffer's run-time array or one of its
 * elements. ins: [type, result, base, indices...]; ptr: OpPtrAccessChain (its element operand first). */
static void chain(walk *wk, const uint32_t *ins, uint32_t len, int ptr)
{
    uint32_t res = ins[2], base = ins[3];
    node *r = &wk->n[res], *bn = &wk->n[base];
    wk->f[res] = unknown_form();
    r->kind = K_VALUE, r->x_of = 0;
    if (bn->kind == K_FVAR || bn->kind == K_FPART) {
        r->kind = K_FPART, r->root = bn->kind == K_FVAR ? base : bn->root;
        r->x_of = bn->kind == K_FVAR && len == 5 && is_const(&wk->f[ins[4]]) && wk->f[ins[4]].b == 0;
    } else if (bn->kind == K_INPUT && !ptr && len == 5 && is_const(&wk->f[ins[4]]) && wk->f[ins[4]].b == 0) {
        r->kind = K_INPUT, wk->f[res] = wk->f[base], wk->f[res].vec = 0; /* gl_GlobalInvocationID.x */
    } else if (bn->kind == K_BLOCK && !ptr && is_const(&wk->f[ins[4]]) && wk->f[ins[4]].b + 1 == bn->rt_member) {
        r->binding = bn->binding, r->kind = len == 5 ? K_ARRAY : K_ELEM;
        if (len > 5)
            access(wk, bn->binding, ins[5]), wk->f[res] = wk->f[ins[5]];
    } else if (bn->kind == K_ARRAY && !ptr) {
        r->binding = bn->binding, r->kind = K_ELEM;
        access(wk, bn->binding, ins[4]), wk->f[res] = wk->f[ins[4]];
    } else if (bn->kind == K_ELEM) { /* a member of an element, or OpPtrAccessChain's next element */
        r->binding = bn->binding, r->kind = K_ELEM, wk->f[res] = wk->f[base];
        if (ptr) { /* the element is the sum */
            wk->f[res] = add(wk->f[base], wk->f[ins[4]], 1);
            access(wk, bn->binding, res);
        }
    }
}

/* A comparison of a multiple of the invocation index with a size (`if (2 * i + 1 < n)`, `i = 2 * gid; if (i >= n)`):
 * the shader then bounds that multiple, not the invocations, by the size. A literal is not a size here. */
static void guard_compare(walk *wk, uint32_t x, uint32_t y)
{
    int64_t a, b, a2, b2;
    int rx = resolve(wk, wk->f[x], &a, &b), ry = resolve(wk, wk->f[y], &a2, &b2);
    const form *other = rx ? &wk->f[y] : &wk->f[x];
    if (rx == ry || is_const(other) || other->st == ST_NONE)
        return;
    if (!rx)
        a = a2, b = b2;
    if (other->st == ST_UNKNOWN && other->div > 1) /* `i < n / 2` is `2 * i < n` */
        a *= other->div, b *= other->div;
    if (a < 1 || (a == 1 && b <= 0)) /* `i < n` itself: the invocations */
        return;
    if (a > wk->guard_a || (a == wk->guard_a && b < wk->guard_b))
        wk->guard_a = a, wk->guard_b = b;
}

/* Instructions without a result id: the rest in a function body have [type, result, ...] and are unknown. */
static int no_result(uint32_t op)
{
    return op == SpvOpStore || op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSelectionMerge ||
           op == SpvOpLoopMerge || op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpLabel ||
           op == SpvOpSwitch || op == SpvOpKill || op == SpvOpUnreachable || op == SpvOpControlBarrier ||
           op == SpvOpMemoryBarrier || op == SpvOpAtomicStore || op == SpvOpCopyMemory || op == SpvOpLine ||
           op == SpvOpNoLine || op == SpvOpFunctionEnd || op == SpvOpImageWrite || op == SpvOpTerminateInvocation ||
           op == SpvOpEmitMeshTasksEXT || op == SpvOpSetMeshOutputsEXT || op == SpvOpCooperativeMatrixStoreKHR;
}

/* ---- Grid-stride loops ------------------------------------------------------------------------------------------
 * `for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * gl_WorkGroupSize.x)`: each element
 * below the bound is done by one invocation, the same whatever the workgroup size and count. An induction value is
 * a local variable (or, after the ssa passes, a phi) that a loop's header compares and whose every store (incoming
 * value) is a start, the global x index, or an increment, itself plus the grid stride. The forms above follow the
 * builtins: a form with any invocation atom is restricted, and a use of one that they do not follow (a buffer's
 * index, a comparison, a conversion, a component other than x, a variable they give up on) is an escape, except an
 * induction value's start and increment. One escape and the shader is not taken for a grid-stride one. */

enum { GS_START = 1, GS_INC = 2, GS_OTHER = 4, GS_TESTED = 8, GS_IN = 16 }; /* node.gs: its stores or incoming */

static int restricted(const walk *wk, uint32_t id)
{
    if (id >= wk->bound || wk->f[id].st != ST_KNOWN)
        return 0;
    for (int t = 0; t < T_TERMS; t++)
        if (wk->f[id].c[t])
            return 1;
    return wk->f[id].lii;
}

/* The global x index: gl_GlobalInvocationID.x, or gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x. */
static int gs_start(const walk *wk, uint32_t id)
{
    int64_t a, b;
    return id < wk->bound && resolve(wk, wk->f[id], &a, &b) && a == 1 && b == 0;
}

/* gl_NumWorkGroups.x * gl_WorkGroupSize.x, in either order; glslang folds a fixed size to its value. */
static int gs_stride(const walk *wk, const form *x)
{
    const vkat_spirv_info *si = wk->info;
    if (si->local_size_spec[0] < 0)
        return si->local_size[0] && only(x, T_N) && x->c[T_N] == (int64_t)si->local_size[0];
    return only(x, T_NS) && x->c[T_NS] == 1;
}

static int gs_induction(uint8_t bits)
{
    return (bits & (GS_START | GS_INC | GS_TESTED | GS_OTHER)) == (GS_START | GS_INC | GS_TESTED);
}

/* A store of `value` to `ptr`: into a local variable, what it is to an induction variable; elsewhere (a buffer, part
 * of a local array or vector) a restricted value escapes. */
static void gs_store(walk *wk, uint32_t ptr, uint32_t value)
{
    node *p = &wk->n[ptr];
    if (p->kind != K_FVAR) {
        wk->gs_escape |= restricted(wk, value);
        return;
    }
    uint32_t base = wk->n[value].inc_base;
    p->gs |= gs_start(wk, value) ? GS_START : base && wk->n[base].loaded == ptr ? GS_INC : GS_OTHER;
    p->gs |= restricted(wk, value) ? GS_IN : 0;
}

static void gs_phi(walk *wk, const uint32_t *ins, uint32_t len)
{
    node *p = &wk->n[ins[2]];
    for (uint32_t i = 3; i + 1 < len; i += 2) {
        uint32_t v = ins[i];
        if (v >= wk->bound)
            continue;
        p->gs |= gs_start(wk, v) ? GS_START : wk->n[v].inc_base == ins[2] ? GS_INC : GS_OTHER;
        p->gs |= restricted(wk, v) ? GS_IN : 0;
    }
}

/* A function body's instruction, its result's form known: does it use a restricted value the forms do not follow?
 * Loads and stores of local variables and phis are judged by their variable's bits at the end of the walk. */
static void gs_uses(walk *wk, uint32_t op, const uint32_t *ins, uint32_t len)
{
    if (op == SpvOpLoad || op == SpvOpStore || op == SpvOpPhi || op == SpvOpVariable || op == SpvOpLabel ||
        op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpLoopMerge || op == SpvOpSelectionMerge ||
        op == SpvOpLine || op == SpvOpNoLine || op == SpvOpFunctionEnd || op == SpvOpFunctionParameter)
        return;
    if (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain) {
        if (len < 5)
            return;
        for (uint32_t i = 4; i < len; i++)
            wk->gs_escape |= restricted(wk, ins[i]); /* `out[gl_WorkGroupID.x]`, `lds[gl_LocalInvocationID.x]` */
        const node *b = &wk->n[ins[3]];
        if (restricted(wk, ins[3]) &&
            (b->kind == K_INPUT ? wk->f[ins[2]].st != ST_KNOWN : b->kind == K_FVAR && !wk->n[ins[2]].x_of))
            wk->gs_escape = 1; /* gl_WorkGroupID.y, or part of a local vector other than x */
        return;
    }
    uint32_t res = no_result(op) ? 0 : ins[2], first = res ? 3 : 1;
    if (res && (res >= wk->bound || wk->f[res].st == ST_KNOWN))
        return; /* followed: its own uses are judged */
    uint32_t base = res ? wk->n[res].inc_base : 0;
    if (op == SpvOpIAdd && base && gs_induction(wk->n[wk->n[base].loaded].gs_prev))
        return; /* an induction variable's increment */
    for (uint32_t i = first; i < len; i++)
        wk->gs_escape |= restricted(wk, ins[i]);
}

/* After a walk: the induction values, and the variables and phis that gave up a restricted value they took. */
static void gs_end(walk *wk)
{
    for (uint32_t i = 0; i < wk->bound; i++) {
        if (gs_induction(wk->n[i].gs))
            wk->gs_loops++;
        else if ((wk->n[i].gs & GS_IN) && wk->f[i].st != ST_KNOWN)
            wk->gs_escape = 1;
    }
}

/* ---- Values ------------------------------------------------------------------------------------------------- */

static void load(walk *wk, uint32_t res, uint32_t ptr)
{
    const node *p = &wk->n[ptr];
    wk->n[res].loaded = 0;
    if (p->kind == K_FVAR && p->has_max) {
        wk->f[res] = const_form(p->loop_max);
        wk->f[res].span = p->has_lo && p->lo <= p->loop_max ? p->loop_max - p->lo : 0;
    } else if (p->kind == K_FVAR || p->kind == K_INPUT)
        wk->f[res] = p->widened ? unknown_form() : wk->f[ptr];
    else if (p->kind == K_FPART && p->x_of && wk->f[p->root].vec && !wk->n[p->root].widened)
        wk->f[res] = wk->f[p->root], wk->f[res].vec = 0;
    else
        wk->f[res] = unknown_form(); /* a buffer's data, a push member, part of a local array */
    if (p->kind == K_FVAR)
        wk->n[res].loaded = ptr;
    int64_t a, b;
    wk->n[res].from = 0;
    if (p->kind == K_ELEM && p->binding && resolve(wk, wk->f[ptr], &a, &b) && a == 1)
        wk->n[res].from = p->binding, wk->n[res].at = b;
    else if (p->kind == K_FVAR && p->from) /* a counter that starts at a buffer's element */
        wk->n[res].from = p->from, wk->n[res].at = p->at;
}

/* Two values read from elements i + b and i + b + 1 of one buffer, subtracted or compared: a range's ends. */
static void range_ends(walk *wk, uint32_t x, uint32_t y)
{
    const node *u = &wk->n[x], *v = &wk->n[y];
    if (u->from && u->from == v->from && u->from <= 32 && (u->at - v->at == 1 || v->at - u->at == 1))
        wk->ranges[u->from - 1] = 1;
}

static void store(walk *wk, uint32_t ptr, uint32_t value)
{
    node *p = &wk->n[ptr];
    const form *v = &wk->f[value];
    gs_store(wk, ptr, value);
    if (p->kind == K_FVAR && is_const(v) && (!p->has_lo || v->b < p->lo))
        p->has_lo = 1, p->lo = v->b;
    if (p->kind == K_FVAR && !p->from && wk->n[value].from)
        p->from = wk->n[value].from, p->at = wk->n[value].at;
    if (p->kind == K_ELEM)
        stored(wk, p->binding, &wk->f[ptr]);
    if (p->kind == K_FVAR && !p->widened)
        wk->f[ptr] = join(wk->f[ptr], *v);
    else if (p->kind == K_FPART && p->root < wk->bound) /* part of a local struct or array: not followed */
        wk->n[p->root].widened = 1, wk->f[p->root] = unknown_form();
}

/* A loop header's comparison of a counter with a constant (`k < 4`, `4 > k`): its largest value inside. */
static void loop_compare(walk *wk, uint32_t op, uint32_t res, uint32_t x, uint32_t y)
{
    int greater = vkat_spirv_cmp_greater(op), strict = vkat_spirv_cmp_strict(op);
    uint32_t counter = greater ? y : x, limit = greater ? x : y;
    if (!wk->loop_head || !wk->n[counter].loaded || !is_const(&wk->f[limit]))
        return;
    wk->cand_res = res;
    wk->cand_var = wk->n[counter].loaded;
    wk->cand_max = wk->f[limit].b - (strict ? 1 : 0);
}

/* A conversion's result is its operand for what the walk follows: a loop counter compared converted (`int d <
 * uint n`), a buffer's element (`int(X[i])`). */
static void converted(walk *wk, uint32_t res, uint32_t of)
{
    const node *from = of < wk->bound ? &wk->n[of] : NULL;
    wk->n[res].loaded = from ? from->loaded : 0;
    wk->n[res].from = from ? from->from : 0, wk->n[res].at = from ? from->at : 0;
}

static void arith(walk *wk, uint32_t op, const uint32_t *ins, uint32_t len)
{
#define ARG(i) (len > (i) && ins[i] < wk->bound ? wk->f[ins[i]] : unknown_form())
    form x = ARG(3), y = ARG(4), r = unknown_form();
    wk->n[ins[2]].inc_base = op != SpvOpIAdd || len < 5 ? 0
                             : gs_stride(wk, &y)        ? ins[3]
                             : gs_stride(wk, &x)        ? ins[4]
                                                        : 0;
    if (op == SpvOpISub && len > 4 && ins[3] < wk->bound && ins[4] < wk->bound)
        range_ends(wk, ins[3], ins[4]); /* `X[i + 1] - X[i]` */
    if (op == SpvOpIAdd)
        r = add(x, y, 1);
    else if (op == SpvOpISub && (is_const(&y) || y.st == ST_NONE)) /* `i - 1`, not `n - i` */
        r = add(x, y, -1);
    else if (op == SpvOpIMul)
        r = mul(x, y);
    else if (op == SpvOpShiftLeftLogical && y.st == ST_NONE)
        r = y;
    else if (op == SpvOpShiftLeftLogical && is_const(&y) && y.b >= 0 && y.b < 31)
        r = mul(x, const_form(1LL << y.b));
    else if (op == SpvOpBitcast || op == SpvOpUConvert || op == SpvOpSConvert || op == SpvOpCopyObject)
        r = x, converted(wk, ins[2], ins[3]);
    else if (op == SpvOpSelect)
        r = join(y, ARG(5));
    else if (op == SpvOpCompositeExtract && len == 5 && x.vec && ins[4] == 0) /* gl_GlobalInvocationID.x */
        r = x, r.vec = 0;
    else if (op == SpvOpVectorShuffle && len >= 6 && x.vec && ins[5] == 0) /* .xy: the same x */
        r = x;
    int shift = op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic;
    if ((op == SpvOpUDiv || op == SpvOpSDiv || shift) && is_const(&y) && y.b > 0 && y.b < (shift ? 16 : 1 << 16)) {
        uint64_t by = shift ? 1ull << y.b : (uint64_t)y.b, d = by * (x.st == ST_UNKNOWN && x.div ? x.div : 1);
        r = unknown_form(), r.div = d > 1 && d <= 1u << 16 ? (uint32_t)d : 0;
        if (is_const(&x) && x.b >= 0)
            r = const_form(x.b / (int64_t)by);
    }
    wk->f[ins[2]] = r;
#undef ARG
}

static int arith_op(uint32_t op)
{
    return op == SpvOpIAdd || op == SpvOpISub || op == SpvOpIMul || op == SpvOpShiftLeftLogical ||
           op == SpvOpBitcast || op == SpvOpUConvert || op == SpvOpSConvert || op == SpvOpCopyObject ||
           op == SpvOpSelect || op == SpvOpCompositeExtract || op == SpvOpVectorShuffle || op == SpvOpUDiv ||
           op == SpvOpSDiv || op == SpvOpShiftRightLogical || op == SpvOpShiftRightArithmetic;
}

static void phi(walk *wk, const uint32_t *ins, uint32_t len)
{
    uint32_t res = ins[2];
    form r = {.st = ST_NONE};
    node *p = &wk->n[res];
    for (uint32_t i = 3; i + 1 < len; i += 2) {
        form v = ins[i] < wk->bound ? wk->f[ins[i]] : unknown_form();
        if (is_const(&v) && (!p->has_lo || v.b < p->lo))
            p->has_lo = 1, p->lo = v.b; /* a loop counter's start */
        r = join(r, v);
    }
    p->loaded = res;
    gs_phi(wk, ins, len);
    wk->f[res] = p->has_max ? const_form(p->loop_max) : p->widened ? unknown_form() : r;
    if (p->has_max)
        wk->f[res].span = p->has_lo && p->lo <= p->loop_max ? p->loop_max - p->lo : 0;
}

/* ---- The walk ----------------------------------------------------------------------------------------------- */

static int is_size_spec(const vkat_spirv_info *si, uint32_t id)
{
    for (int a = 0; a < 3; a++)
        if (si->axis_bound[a].kind == 's' && si->axis_bound[a].value == id)
            return 1;
    return si->bound_spec_id == (int32_t)id;
}

/* A specialization constant: the workgroup's x size (an atom), a problem size (unknown: it is N, not a constant),
 * else its default. */
static void spec_constant(walk *wk, const uint32_t *ins, uint32_t len)
{
    const vkat_spirv_info *si = wk->info;
    node *r = &wk->n[ins[2]];
    int32_t id = r->spec ? (int32_t)r->spec - 1 : -1;
    if (id >= 0 && id == si->local_size_spec[0]) {
        wk->f[ins[2]] = const_form(0);
        wk->f[ins[2]].c[T_S] = 1;
    } else if (id < 0 || is_size_spec(si, (uint32_t)id) || len != 4) {
        wk->f[ins[2]] = unknown_form();
    } else {
        int signed_type = ins[1] < wk->bound && wk->n[ins[1]].is_signed;
        wk->f[ins[2]] = const_form(signed_type ? (int64_t)(int32_t)ins[3] : (int64_t)ins[3]);
    }
}

static void decorate(walk *wk, const uint32_t *ins, uint32_t len)
{
    if (len < 4 || ins[1] >= wk->bound)
        return;
    node *r = &wk->n[ins[1]];
    form *f = &wk->f[ins[1]];
    uint32_t what = ins[2], v = ins[3];
    if (what == SpvDecorationSpecId)
        r->spec = v + 1;
    else if (what == SpvDecorationDescriptorSet)
        r->set = (int32_t)v;
    else if (what == SpvDecorationBinding)
        r->bind = (int32_t)v;
    else if (what == SpvDecorationBuiltIn && (v == SpvBuiltInGlobalInvocationId || v == SpvBuiltInLocalInvocationId ||
                                              v == SpvBuiltInWorkgroupId || v == SpvBuiltInLocalInvocationIndex ||
                                              v == SpvBuiltInNumWorkgroups)) {
        *f = const_form(0);
        f->c[v == SpvBuiltInGlobalInvocationId ? T_G
             : v == SpvBuiltInWorkgroupId      ? T_W
             : v == SpvBuiltInNumWorkgroups    ? T_N
                                               : T_L] = 1;
        f->vec = v != SpvBuiltInLocalInvocationIndex;
        f->lii = v == SpvBuiltInLocalInvocationIndex;
        r->kind = K_INPUT;
    } else if (what == SpvDecorationBuiltIn && (v == SpvBuiltInSubgroupId || v == SpvBuiltInNumSubgroups ||
                                              v == SpvBuiltInSubgroupLocalInvocationId)) {
        wk->gs_refused = 1; /* which invocations share a subgroup: not followed */
    }
}

/* A storage or uniform buffer variable whose block ends in a run-time array: its binding, for the chains into it. */
static void buffer_variable(walk *wk, uint32_t type, uint32_t res)
{
    const vkat_spirv_info *si = wk->info;
    node *r = &wk->n[res];
    uint32_t block = type < wk->bound ? wk->n[type].pointee : 0;
    if (r->bind < 0 || block >= wk->bound || !wk->n[block].rt_member)
        return;
    for (uint32_t k = 0; k < si->binding_count && k < 32; k++)
        if (si->bindings[k].binding == (uint32_t)r->bind && si->bindings[k].set == (uint32_t)(r->set < 0 ? 0 : r->set))
            r->kind = K_BLOCK, r->binding = k + 1, r->rt_member = wk->n[block].rt_member;
}

/* Types, constants and variables (outside function bodies as well). 0 when `op` is none of them. */
static int declaration(walk *wk, uint32_t op, const uint32_t *ins, uint32_t len)
{
    node *n = wk->n;
#define OK(i) (len > (i) && ins[i] < wk->bound)
    if (op == SpvOpDecorate)
        decorate(wk, ins, len);
    else if (op == SpvOpTypeInt && OK(1) && len >= 4)
        n[ins[1]].is_signed = ins[3] != 0;
    else if (op == SpvOpTypeRuntimeArray && OK(1))
        n[ins[1]].is_rt = 1;
    else if (op == SpvOpTypeStruct && OK(1) && len >= 3 && ins[len - 1] < wk->bound && n[ins[len - 1]].is_rt)
        n[ins[1]].rt_member = len - 2;
    else if (op == SpvOpTypePointer && OK(1) && len >= 4)
        n[ins[1]].pointee = ins[3];
    else if (op == SpvOpConstant && OK(2) && OK(1))
        wk->f[ins[2]] = len == 4 ? const_form(n[ins[1]].is_signed ? (int64_t)(int32_t)ins[3] : (int64_t)ins[3])
                                 : unknown_form();
    else if ((op == SpvOpConstantNull || op == SpvOpUndef) && OK(2) && !wk->in_function)
        wk->f[ins[2]] = op == SpvOpUndef ? unknown_form() : const_form(0);
    else if (op == SpvOpSpecConstant && OK(2))
        spec_constant(wk, ins, len);
    else if ((op == SpvOpConstantComposite || op == SpvOpSpecConstantComposite) && OK(2) && OK(3))
        wk->f[ins[2]] = wk->f[ins[3]], wk->f[ins[2]].vec = 1; /* gl_WorkGroupSize: its x */
    else if (op == SpvOpVariable && OK(2) && len >= 4) {
        if (ins[3] == SpvStorageClassFunction)
            n[ins[2]].kind = K_FVAR;
        if (ins[3] == SpvStorageClassFunction && len >= 5 && OK(4))
            wk->f[ins[2]] = join(wk->f[ins[2]], wk->f[ins[4]]); /* its initializer */
        else if (ins[3] == SpvStorageClassStorageBuffer || ins[3] == SpvStorageClassUniform)
            buffer_variable(wk, ins[1], ins[2]);
    } else
        return 0;
    return 1;
#undef OK
}

static void step(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op)
{
#define OK(i) (len > (i) && ins[i] < wk->bound)
    if (op == SpvOpFunction)
        wk->in_function = 1, wk->loop_head = 0;
    if (declaration(wk, op, ins, len) || op == SpvOpFunction)
        return;
    if (op == SpvOpSpecConstantOp && len >= 4 && OK(2)) { /* the operation on spec constants, as an instruction */
        uint32_t inner[16] = {0};
        uint32_t n = len - 1 < 16 ? len - 1 : 16;
        inner[1] = ins[1], inner[2] = ins[2];
        for (uint32_t i = 3; i < n; i++)
            inner[i] = ins[i + 1];
        wk->f[ins[2]] = unknown_form();
        if (arith_op(ins[3]))
            arith(wk, ins[3], inner, n);
    } else if (op == SpvOpLoopMerge) {
        wk->loop_head = 1, wk->cand_res = 0;
    } else if (op == SpvOpBranchConditional && len >= 2) {
        if (wk->loop_head && wk->cand_res && ins[1] == wk->cand_res && wk->cand_var < wk->bound)
            wk->n[wk->cand_var].has_max = 1, wk->n[wk->cand_var].loop_max = wk->cand_max;
        wk->loop_head = 0;
    } else if (!wk->in_function) {
        return;
    } else if (op == SpvOpLoad && OK(2) && OK(3)) {
        load(wk, ins[2], ins[3]);
    } else if (op == SpvOpStore && OK(1) && OK(2)) {
        store(wk, ins[1], ins[2]);
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain || op == SpvOpPtrAccessChain) && len >= 5 &&
               OK(2) && OK(3)) {
        int ptr = op == SpvOpPtrAccessChain;
        for (uint32_t i = 4; i < len; i++)
            if (ins[i] >= wk->bound)
                return;
        chain(wk, ins, len, ptr);
    } else if (op == SpvOpPhi && OK(2)) {
        phi(wk, ins, len);
    } else if (arith_op(op) && len >= 4 && OK(2)) {
        arith(wk, op, ins, len);
    } else if (vkat_spirv_cmp_ordered(op) && len >= 5 && OK(2) && OK(3) && OK(4)) {
        wk->f[ins[2]] = unknown_form();
        loop_compare(wk, op, ins[2], ins[3], ins[4]);
        guard_compare(wk, ins[3], ins[4]);
        for (int i = 3; wk->loop_head && i <= 4; i++) /* `i < p.n` in a loop's header: i is a loop's */
            wk->n[wk->n[ins[i]].loaded].gs |= GS_TESTED;
        range_ends(wk, ins[3], ins[4]);
    } else if (!no_result(op) && OK(2)) {
        wk->f[ins[2]] = unknown_form();
    }
    if (wk->in_function && (no_result(op) || OK(2)))
        gs_uses(wk, op, ins, len);
#undef OK
}

static int same_form(const form *x, const form *y)
{
    for (int t = 0; t < T_TERMS; t++)
        if (x->c[t] != y->c[t])
            return 0;
    return x->st == y->st && x->b == y->b && x->vec == y->vec && x->lii == y->lii && x->div == y->div;
}

static void walk_module(walk *wk, const uint32_t *w, size_t n)
{
    memcpy(wk->prev_a, wk->best_a, sizeof wk->prev_a);
    memset(wk->best_a, 0, sizeof wk->best_a);
    memset(wk->best_b, 0, sizeof wk->best_b);
    memset(wk->unknown, 0, sizeof wk->unknown);
    memset(wk->best_fixed, 0xff, sizeof wk->best_fixed);
    memset(wk->ranges, 0, sizeof wk->ranges);
    memset(wk->stored_at, 0, sizeof wk->stored_at);
    wk->guard_a = wk->guard_b = 0;
    wk->in_function = wk->loop_head = 0;
    wk->gs_loops = wk->gs_escape = wk->gs_refused = 0;
    for (uint32_t i = 0; i < wk->bound; i++)
        wk->n[i].gs_prev = wk->n[i].gs, wk->n[i].gs = 0;
    for (size_t at = 5; at < n;) {
        uint32_t len = w[at] >> 16, op = w[at] & 0xffff;
        if (len == 0 || at + len > n)
            break;
        step(wk, w + at, len, op);
        at += len;
    }
    gs_end(wk);
}

/* A binding's multiple and offset, and whether its stores write every element up to the largest index (offsets 0
 * to b of a * i + b, b >= a - 1). Where the shader bounds a multiple of i by its size (guard_a >= a), in terms of
 * the size: a * i + b < N + b - guard_b. */
static void set_binding(const walk *wk, uint32_t k, uint32_t *mult, int32_t *off, uint8_t *covered, uint8_t *guarded)
{
    int64_t a = wk->best_a[k], b = wk->best_b[k];
    uint64_t need = b >= 0 && b < 63 ? (2ull << b) - 1 : 0;
    *covered = a && a == wk->prev_a[k] && need && b >= a - 1 && (wk->stored_at[k] & need) == need;
    *guarded = a && wk->guard_a >= a;
    if (*guarded) {
        b -= a == wk->guard_a ? wk->guard_b : 0;
        a = 1, *covered = 0;
    }
    *mult = (uint32_t)a;
    *off = (int32_t)b;
}

void vkat_spirv_find_index(const uint32_t *w, size_t n, vkat_spirv_info *info)
{
    for (uint32_t k = 0; k < info->binding_count; k++)
        info->bindings[k].index_multiple = 0, info->bindings[k].index_offset = 0, info->bindings[k].index_unknown = 0,
        info->bindings[k].index_covered = info->bindings[k].index_guarded = 0, info->bindings[k].index_fixed = 0,
        info->bindings[k].range_ends = 0;
    info->grid_stride = 0;
    if (n < 5 || w[3] == 0 || w[3] > (1u << 20)) /* about 200 bytes an id: a guess is not worth more */
        return;
    walk wk = {.f = calloc(w[3], sizeof(form)), .n = calloc(w[3], sizeof(node)), .bound = w[3], .info = info};
    form *prev = calloc(w[3], sizeof(form));
    if (!wk.f || !wk.n || !prev)
        goto done;
    for (uint32_t i = 0; i < wk.bound; i++)
        wk.n[i].set = wk.n[i].bind = -1;
    /* Again until nothing changes: a loop's variables and phis take their values round it. What still changes
     * after MAX_PASSES grows with each trip (`j = j + 2`): unknown, and one last walk with that. */
    for (int pass = 0, last = 0; pass <= MAX_PASSES; pass++) {
        memcpy(prev, wk.f, w[3] * sizeof(form));
        walk_module(&wk, w, n);
        if (last)
            break;
        int changed = 0;
        for (uint32_t i = 0; i < wk.bound; i++)
            if (!same_form(&prev[i], &wk.f[i])) {
                changed = 1;
                if (pass == MAX_PASSES - 1)
                    wk.n[i].widened = 1, wk.f[i] = unknown_form();
            }
        if (!changed && pass)
            break;
        last = pass == MAX_PASSES - 1;
    }
    for (uint32_t k = 0; k < info->binding_count && k < 32; k++)
        set_binding(&wk, k, &info->bindings[k].index_multiple, &info->bindings[k].index_offset,
                    &info->bindings[k].index_covered, &info->bindings[k].index_guarded);
    for (uint32_t k = 0; k < info->binding_count && k < 32; k++)
        info->bindings[k].index_unknown = wk.unknown[k],
        info->bindings[k].index_fixed = wk.best_fixed[k] >= 0 ? (uint32_t)wk.best_fixed[k] + 1 : 0,
        info->bindings[k].range_ends = wk.ranges[k];
    int one_d = info->local_size[1] == 1 && info->local_size[2] == 1 && info->local_size_spec[1] < 0 &&
                info->local_size_spec[2] < 0; /* a 2-D workgroup's invocations of one x would share each element */
    info->grid_stride = wk.gs_loops && !wk.gs_escape && !wk.gs_refused && one_d;
done:
    free(prev);
    free(wk.f);
    free(wk.n);
}
