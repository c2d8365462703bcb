/* spirv_shared_bounds.c — a shared-memory array that every workgroup surely indexes past its end. A shader sized
 * for one workgroup (`shared float tile[64]; tile[gl_LocalInvocationID.x] = ...`) tuned at 256 writes past its
 * shared memory: on a GPU that is undefined, on lavapipe it corrupts the driver's heap, and such a variant can
 * still pass the check and win (tests/cli/shared_bounds.sh). This finds the sure cases only: an access in the entry
 * point's first block (every invocation runs it, before any branch), indexed by an affine form of the local
 * invocation's coordinates with non-negative multiples, whose largest value over the workgroup is known. Everything
 * else, a guarded or looped access included, counts as within bounds. */
#include "spirv_shared_bounds.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { A_X, A_Y, A_Z, A_INDEX, A_ATOMS }; /* gl_LocalInvocationID.x, .y, .z, gl_LocalInvocationIndex */

enum {
    K_NONE,
    K_CONST,    /* an integer constant (value) */
    K_INT,      /* an integer type */
    K_ARRAY,    /* an array type: elem, len (an id) */
    K_PTR_TYPE, /* a pointer type: elem is its pointee */
    K_SHARED,   /* a Workgroup variable: elem is its pointer type */
    K_LID,      /* the gl_LocalInvocationID variable */
    K_LINDEX,   /* the gl_LocalInvocationIndex variable */
    K_LID_PTR,  /* a pointer to one of its components (value) */
    K_LID_VEC,  /* its loaded vector */
    K_FVAR,     /* a function-local variable */
    K_FORM,     /* an integer value with a known affine form */
    K_OVERRUN,  /* a pointer into a shared array past its end */
};

typedef struct form {
    int64_t c[A_ATOMS], b;
} form;

typedef struct node {
    uint8_t kind, is_signed;
    uint8_t builtin; /* OpDecorate BuiltIn: 1 + LocalInvocationId, 2 + LocalInvocationIndex */
    uint8_t has_spec, complex;
    uint32_t elem, len, spec_id, stores, name, string;
    int64_t value;
    form f;
    uint64_t reached; /* K_OVERRUN: the index and the level's length */
    uint32_t level_len, root;
} node;

typedef struct scan {
    const uint32_t *w;
    size_t n;
    uint32_t bound;
    node *ids;
} scan;

static node *at(const scan *s, uint32_t id)
{
    static node none;
    return id < s->bound ? &s->ids[id] : &none;
}

/* Types, constants, names, builtins and variables. */
static void read_globals(scan *s, const vkat_spec_value *spec, size_t spec_count)
{
    for (size_t i = 5; i < s->n;) {
        const uint32_t *ins = s->w + i;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (len == 0 || i + len > s->n)
            return;
        node *a = len > 1 ? at(s, ins[1]) : at(s, 0), *b = len > 2 ? at(s, ins[2]) : at(s, 0);
        if (op == SpvOpName && len >= 3)
            a->name = (uint32_t)(i + 2);
        else if (op == SpvOpString && len >= 3)
            a->string = (uint32_t)(i + 2);
        else if (op == SpvOpDecorate && len >= 4 && ins[2] == SpvDecorationBuiltIn)
            a->builtin = ins[3] == SpvBuiltInLocalInvocationId ? 1 : ins[3] == SpvBuiltInLocalInvocationIndex ? 2 : 0;
        else if (op == SpvOpDecorate && len >= 4 && ins[2] == SpvDecorationSpecId)
            a->has_spec = 1, a->spec_id = ins[3];
        else if (op == SpvOpTypeInt && len >= 4 && ins[2] == 32)
            a->kind = K_INT, a->is_signed = (uint8_t)ins[3];
        else if ((op == SpvOpConstant || op == SpvOpSpecConstant) && len >= 4 && at(s, ins[1])->kind == K_INT) {
            b->kind = K_CONST;
            b->value = at(s, ins[1])->is_signed ? (int64_t)(int32_t)ins[3] : (int64_t)ins[3];
            for (size_t k = 0; op == SpvOpSpecConstant && b->has_spec && k < spec_count; k++)
                if (spec[k].id == b->spec_id)
                    b->value = at(s, ins[1])->is_signed ? (int64_t)(int32_t)spec[k].value : spec[k].value;
        } else if (op == SpvOpTypeArray && len >= 4)
            a->kind = K_ARRAY, a->elem = ins[2], a->len = ins[3];
        else if (op == SpvOpTypePointer && len >= 4)
            a->kind = K_PTR_TYPE, a->elem = ins[3];
        else if (op == SpvOpVariable && len >= 4) {
            if (ins[3] == SpvStorageClassWorkgroup)
                b->kind = K_SHARED, b->elem = ins[1], b->root = ins[2];
            else if (ins[3] == SpvStorageClassInput && b->builtin)
                b->kind = b->builtin == 1 ? K_LID : K_LINDEX;
            else if (ins[3] == SpvStorageClassFunction)
                b->kind = K_FVAR;
        }
        i += len;
    }
}

static int known(const node *x)
{
    return x->kind == K_FORM || x->kind == K_CONST;
}

static form form_of(const node *x)
{
    form f = {{0}, 0};
    if (x->kind == K_CONST)
        f.b = x->value;
    else
        f = x->f;
    return f;
}

static void set_form(node *x, form f)
{
    x->kind = K_FORM;
    x->f = f;
}

/* The largest value of f over a workgroup of local_size, or -1 when a multiple is negative. */
static int64_t form_max(form f, const uint32_t ls[3])
{
    int64_t range[A_ATOMS] = {ls[0], ls[1], ls[2], (int64_t)ls[0] * ls[1] * ls[2]}, m = f.b;
    for (int t = 0; t < A_ATOMS; t++) {
        if (f.c[t] < 0 || f.c[t] > (1 << 20))
            return -1;
        m += f.c[t] * (range[t] - 1);
    }
    return m;
}

/* An access chain into a shared array: K_OVERRUN when an index reaches past its level's length. */
static void chain(scan *s, const uint32_t *ins, uint32_t len, const uint32_t ls[3])
{
    node *base = at(s, ins[3]), *res = at(s, ins[2]);
    uint32_t type = at(s, base->elem)->elem; /* the variable's pointer type's pointee */
    for (uint32_t k = 4; k < len; k++) {
        node *t = at(s, type), *ix = at(s, ins[k]);
        if (t->kind != K_ARRAY || at(s, t->len)->kind != K_CONST)
            return;
        int64_t length = at(s, t->len)->value, m = known(ix) ? form_max(form_of(ix), ls) : -1;
        if (m >= length && length > 0) {
            res->kind = K_OVERRUN, res->reached = (uint64_t)m, res->level_len = (uint32_t)length;
            res->root = ins[3];
            return;
        }
        type = t->elem;
    }
}

/* The entry point's function, or 0. */
static uint32_t entry_function(const scan *s)
{
    for (size_t i = 5; i < s->n;) {
        uint32_t len = s->w[i] >> 16;
        if (len == 0)
            return 0;
        if ((s->w[i] & 0xffff) == SpvOpEntryPoint && len >= 3 && s->w[i + 1] == SpvExecutionModelGLCompute)
            return s->w[i + 2];
        i += len;
    }
    return 0;
}

/* Where the entry function's body starts (its first OpLabel), after counting each local variable's stores. */
static size_t entry_block(scan *s, uint32_t fn)
{
    size_t first = 0;
    int inside = 0;
    for (size_t i = 5; i < s->n;) {
        const uint32_t *ins = s->w + i;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (len == 0)
            break;
        if (op == SpvOpFunction && len >= 3)
            inside = ins[2] == fn;
        else if (inside && op == SpvOpLabel && !first)
            first = i;
        else if (inside && op == SpvOpStore && len >= 3)
            at(s, ins[1])->stores++;
        else if (inside && (op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 4)
            at(s, ins[3])->complex = 1; /* a part of a local vector or array: not followed */
        i += len;
    }
    return first;
}

static int terminates_block(uint32_t op)
{
    return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
           op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable || op == SpvOpSelectionMerge ||
           op == SpvOpLoopMerge || op == SpvOpTerminateInvocation;
}

/* The pointer an instruction dereferences (a load, store or atomic), or 0. */
static uint32_t dereferenced(const uint32_t *ins, uint32_t len, uint32_t op)
{
    if ((op == SpvOpStore || op == SpvOpAtomicStore) && len >= 2)
        return ins[1];
    if ((op == SpvOpLoad || (op >= SpvOpAtomicLoad && op <= SpvOpAtomicXor)) && len >= 4)
        return ins[3];
    return 0;
}

/* The value an arithmetic or copy instruction computes, when its operands have known forms. */
static void arith(scan *s, const uint32_t *ins, uint32_t len, uint32_t op)
{
    node *r = at(s, ins[2]), *x = at(s, ins[3]), *y = len >= 5 ? at(s, ins[4]) : at(s, 0);
    if (!known(x))
        return;
    form f = form_of(x), g = known(y) ? form_of(y) : f;
    if (op == SpvOpBitcast || op == SpvOpUConvert || op == SpvOpSConvert || op == SpvOpCopyObject) {
        set_form(r, f);
    } else if (op == SpvOpIAdd && known(y)) {
        for (int t = 0; t < A_ATOMS; t++)
            f.c[t] += g.c[t];
        f.b += g.b;
        set_form(r, f);
    } else if ((op == SpvOpIMul || op == SpvOpShiftLeftLogical) && known(y)) {
        int x_const = x->kind == K_CONST, y_const = y->kind == K_CONST;
        if (op == SpvOpShiftLeftLogical && (!y_const || y->value < 0 || y->value > 20))
            return;
        if (op == SpvOpIMul && !x_const && !y_const)
            return;
        int64_t k = op == SpvOpShiftLeftLogical ? (int64_t)1 << y->value : y_const ? y->value : x->value;
        form v = op == SpvOpIMul && y_const ? f : op == SpvOpIMul ? g : f;
        if (k < 0 || k > (1 << 20))
            return;
        for (int t = 0; t < A_ATOMS; t++)
            v.c[t] *= k;
        v.b *= k;
        set_form(r, v);
    }
}

static void fill_overrun(const scan *s, const node *p, uint32_t line_string, uint32_t line, int store,
                         vkat_shared_overrun *out)
{
    memset(out, 0, sizeof *out);
    const node *var = at(s, p->root);
    if (var->name)
        snprintf(out->name, sizeof out->name, "%s", (const char *)(s->w + var->name));
    out->length = p->level_len;
    out->index = p->reached;
    out->line = line;
    if (at(s, line_string)->string)
        snprintf(out->file, sizeof out->file, "%s", (const char *)(s->w + at(s, line_string)->string));
    out->store = store;
}

/* Follows the entry block's values in order; stops at its first branch. */
static int walk_entry_block(scan *s, size_t i, const uint32_t ls[3], vkat_shared_overrun *out)
{
    uint32_t line_string = 0, line = 0;
    for (i += s->w[i] >> 16; i < s->n;) {
        const uint32_t *ins = s->w + i;
        uint32_t len = ins[0] >> 16, op = ins[0] & 0xffff;
        if (len == 0 || i + len > s->n || terminates_block(op))
            return 0;
        if (op == SpvOpLine && len >= 3)
            line_string = ins[1], line = ins[2];
        uint32_t ptr = dereferenced(ins, len, op);
        if (ptr && at(s, ptr)->kind == K_OVERRUN) {
            fill_overrun(s, at(s, ptr), line_string, line, op == SpvOpStore || op == SpvOpAtomicStore, out);
            return 1;
        }
        node *fv = op == SpvOpStore && len >= 3 ? at(s, ins[1]) : NULL;
        if (fv && fv->kind == K_FVAR && fv->stores == 1 && !fv->complex && known(at(s, ins[2])))
            fv->f = form_of(at(s, ins[2])), fv->value = 1; /* value: its one store is behind */
        if (op == SpvOpLoad && len >= 4) {
            node *r = at(s, ins[2]), *p = at(s, ins[3]);
            form f = {{0}, 0};
            if (p->kind == K_LID)
                r->kind = K_LID_VEC;
            else if (p->kind == K_LINDEX || p->kind == K_LID_PTR)
                f.c[p->kind == K_LINDEX ? A_INDEX : p->value] = 1, set_form(r, f);
            else if (p->kind == K_FVAR && p->value == 1)
                set_form(r, p->f);
        } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5) {
            node *base = at(s, ins[3]), *k = at(s, ins[4]);
            if (base->kind == K_LID && len == 5 && k->kind == K_CONST && k->value >= 0 && k->value < 3)
                at(s, ins[2])->kind = K_LID_PTR, at(s, ins[2])->value = k->value;
            else if (base->kind == K_SHARED)
                chain(s, ins, len, ls);
        } else if (op == SpvOpCompositeExtract && len == 5 && at(s, ins[3])->kind == K_LID_VEC && ins[4] < 3) {
            form f = {{0}, 0};
            f.c[ins[4]] = 1;
            set_form(at(s, ins[2]), f);
        } else if (len >= 4 && (op == SpvOpIAdd || op == SpvOpIMul || op == SpvOpShiftLeftLogical ||
                                op == SpvOpBitcast || op == SpvOpUConvert || op == SpvOpSConvert ||
                                op == SpvOpCopyObject)) {
            arith(s, ins, len, op);
        }
        i += len;
    }
    return 0;
}

int vkat_spirv_shared_overrun(const vkat_spirv *m, const vkat_spec_value *spec, size_t spec_count,
                              const uint32_t local_size[3], vkat_shared_overrun *out)
{
    if (!m || m->count < 5 || m->words[0] != SpvMagicNumber || m->words[3] > (1u << 22))
        return 0;
    scan s = {m->words, m->count, m->words[3], calloc(m->words[3] ? m->words[3] : 1, sizeof(node))};
    if (!s.ids)
        return 0;
    read_globals(&s, spec, spec_count);
    uint32_t fn = entry_function(&s);
    size_t first = fn ? entry_block(&s, fn) : 0;
    int found = first && walk_entry_block(&s, first, local_size, out);
    free(s.ids);
    return found;
}
