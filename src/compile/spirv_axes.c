/* spirv_axes.c — which components of gl_GlobalInvocationID a compute shader reads, for `vkautotune init` to give a
 * shader that bounds nothing (a marching-cubes pass over `vec3(gl_GlobalInvocationID)`, a 2-D pass indexing `x + w *
 * y`) a dispatch of as many axes: a 1-D dispatch ran one row (or one line of a volume) of the work
 * (records/session22-thirdparty-trial.md). The tuner never runs it.
 *
 * A walk in module order (a value is defined before it is used, phis aside), twice, after one that lists each
 * function's parameters: each id carries, per lane, the component of gl_GlobalInvocationID it holds (0 none),
 * through loads, copies, shuffles, stores into and loads from local variables, and calls into parameters. A
 * constant extract or access chain reads the component of its lane; any other use of such an id (a conversion,
 * arithmetic) reads every lane it holds. It is a guess for a starting space. */
#include "spirv_axes.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

typedef struct lanes {
    uint8_t c[4];     /* lane k holds component c[k] - 1 of gl_GlobalInvocationID, 0 none */
    uint8_t constant; /* an OpConstant, of this value */
    uint32_t value;
} lanes;

static int holds(const lanes *l)
{
    return l->c[0] | l->c[1] | l->c[2] | l->c[3];
}

static void read_lanes(const lanes *l, uint32_t *highest)
{
    for (int k = 0; k < 4; k++)
        if (l->c[k] > *highest)
            *highest = l->c[k];
}

typedef struct walk {
    lanes *ids;
    uint32_t bound, highest;
    int in_function;
    uint32_t *param_start, *param_count, *params; /* per function id: its parameters' ids, in order, in params */
} walk;

/* Each function's parameters, in order (an OpFunction, then its OpFunctionParameters), so that a call's arguments
 * pass what they hold on (`work(gl_GlobalInvocationID)` reads what work reads of it, not every lane). */
static void param(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op, uint32_t *fn, uint32_t *used)
{
    if (op == SpvOpFunction && len >= 3 && ins[2] < wk->bound)
        *fn = ins[2], wk->param_start[*fn] = *used;
    else if (op == SpvOpFunctionParameter && len >= 3 && *fn && *used < wk->bound)
        wk->params[(*used)++] = ins[2], wk->param_count[*fn]++;
}

/* A call: each argument's lanes to the callee's parameter. */
static void call(walk *wk, const uint32_t *ins, uint32_t len)
{
    uint32_t fn = ins[3];
    for (uint32_t k = 0; fn < wk->bound && 4 + k < len && k < wk->param_count[fn]; k++) {
        uint32_t arg = ins[4 + k], param = wk->params[wk->param_start[fn] + k];
        if (arg < wk->bound && param < wk->bound && holds(&wk->ids[arg]))
            memcpy(wk->ids[param].c, wk->ids[arg].c, 4);
    }
}

/* One instruction: what its result holds, or which components it reads; in_function once past the first
 * OpFunction (the entry point's interface and the decorations name the builtin without reading it). */
static void step(walk *wk, const uint32_t *ins, uint32_t len, uint32_t op)
{
    lanes *ids = wk->ids;
    uint32_t *highest = &wk->highest;
#define OK(i) ((i) < wk->bound)
    if (op == SpvOpFunction)
        wk->in_function = 1;
    if (op == SpvOpDecorate && len >= 4 && OK(ins[1]) && ins[2] == SpvDecorationBuiltIn &&
        ins[3] == SpvBuiltInGlobalInvocationId) {
        memcpy(ids[ins[1]].c, (uint8_t[4]){1, 2, 3, 0}, 4);
    } else if (op == SpvOpConstant && len >= 4 && OK(ins[2])) {
        ids[ins[2]].constant = 1, ids[ins[2]].value = ins[3];
    } else if ((op == SpvOpLoad || op == SpvOpCopyObject) && len >= 4 && OK(ins[2]) && OK(ins[3])) {
        memcpy(ids[ins[2]].c, ids[ins[3]].c, 4);
    } else if (op == SpvOpStore && len >= 3 && OK(ins[1]) && OK(ins[2])) {
        if (holds(&ids[ins[2]])) /* `uvec3 id = gl_GlobalInvocationID;`: the variable holds it */
            memcpy(ids[ins[1]].c, ids[ins[2]].c, 4);
    } else if (op == SpvOpFunctionCall && len >= 4) {
        call(wk, ins, len);
    } else if (op == SpvOpCompositeExtract && len >= 5 && OK(ins[3])) {
        if (ins[4] < 4 && ids[ins[3]].c[ins[4]] > *highest)
            *highest = ids[ins[3]].c[ins[4]];
    } else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && len >= 5 && OK(ins[3]) && OK(ins[4])) {
        const lanes *base = &ids[ins[3]], *at = &ids[ins[4]];
        if (at->constant && at->value < 4 && base->c[at->value] > *highest) /* gl_GlobalInvocationID.y */
            *highest = base->c[at->value];
        else if (!at->constant)
            read_lanes(base, highest); /* a component picked at run time: any of them */
    } else if (op == SpvOpVectorShuffle && len >= 5 && OK(ins[2]) && OK(ins[3]) && OK(ins[4])) {
        uint8_t r[4] = {0}; /* lanes of the first vector, then of the second (gl_GlobalInvocationID's: 3) */
        for (uint32_t i = 5, k = 0; i < len && k < 4; i++, k++)
            r[k] = ins[i] < 4 ? ids[ins[3]].c[ins[i]] : ins[i] - 4 < 4 ? ids[ins[4]].c[ins[i] - 4] : 0;
        memcpy(ids[ins[2]].c, r, 4);
    } else if (wk->in_function && op != SpvOpVariable && op != SpvOpFunctionParameter && op != SpvOpLoopMerge &&
               op != SpvOpSelectionMerge) {
        for (uint32_t i = op == SpvOpExtInst ? 5 : 1; i < len; i++) /* not its set and number */
            if (OK(ins[i]) && holds(&ids[ins[i]])) /* any other use: `vec3(gl_GlobalInvocationID)` */
                read_lanes(&ids[ins[i]], highest);
    }
#undef OK
}

void vkat_spirv_find_axes(const uint32_t *w, size_t n, vkat_spirv_info *info)
{
    info->global_axes_read = 0;
    if (n < 5 || w[3] == 0 || w[3] > (1u << 24))
        return;
    walk wk = {.ids = calloc(w[3], sizeof(lanes)), .bound = w[3], .param_start = calloc(w[3], sizeof(uint32_t)),
               .param_count = calloc(w[3], sizeof(uint32_t)), .params = calloc(w[3], sizeof(uint32_t))};
    /* the parameters first; then twice, for a call to a function defined before its caller */
    for (int pass = 0; pass < 3 && wk.ids && wk.param_start && wk.param_count && wk.params; pass++) {
        uint32_t fn = 0, used = 0;
        wk.in_function = 0;
        for (size_t at = 5, len; at < n; at += len) {
            len = w[at] >> 16;
            if (len == 0 || at + len > n)
                break;
            if (pass == 0)
                param(&wk, w + at, (uint32_t)len, w[at] & 0xffff, &fn, &used);
            else
                step(&wk, w + at, (uint32_t)len, w[at] & 0xffff);
        }
    }
    info->global_axes_read = (uint8_t)wk.highest;
    free(wk.ids), free(wk.param_start), free(wk.param_count), free(wk.params);
}
