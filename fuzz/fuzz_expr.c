/* fuzz_expr.c — libFuzzer target: arbitrary bytes as an expression over a few names, parsed and evaluated with
 * two environments (one with zeros, to reach the division and shift errors). Must never crash or trip UBSan. */
#include "expr.h"
#include "util.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
    static vkat_symtab *syms;
    if (!syms) {
        syms = vkat_symtab_create();
        vkat_symtab_add(syms, "a");
        vkat_symtab_add(syms, "b");
        vkat_symtab_add(syms, "device.x");
        vkat_symtab_add(syms, "f");
    }
    char *text = vkat_strndup((const char *)data, size);
    if (!text)
        return 0;
    vkat_expr *e = NULL;
    vkat_error err = {0};
    if (vkat_expr_parse(text, syms, "fuzz", 1, &e, &err) == VKAT_OK) {
        vkat_value env1[4] = {vkat_int(7), vkat_int(-3), vkat_int(INT64_MIN), vkat_float(0.5)};
        vkat_value env2[4] = {vkat_int(0), vkat_int(0), vkat_int(INT64_MAX), vkat_float(-1e308)};
        vkat_value v;
        int64_t i;
        vkat_expr_eval(e, env1, &v, &err);
        vkat_expr_eval(e, env2, &v, &err);
        vkat_expr_eval_int(e, env1, &i, &err);
        vkat_expr_uses(e, 2);
        vkat_expr_destroy(e);
    }
    free(text);
    return 0;
}
