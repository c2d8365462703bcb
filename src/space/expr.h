/* expr.h — internal: the one expression language of space files (constraints, sizes, dispatch, metrics).
 *
 * Parse once into a compact program, evaluate many times: constraint checks run millions of times per search,
 * so evaluation does no allocation and no name lookup. Names resolve at parse time to slots of a symbol table;
 * evaluation reads the values of those slots from an environment array the caller owns.
 *
 * Values are 64-bit integers or doubles, with C's rules: integer op integer stays integer ('/' truncates,
 * '%' is the remainder), anything with a double is a double. Operators, loosest first:
 *   ?:   ||   &&   |   ^   &   == !=   < <= > >=   << >>   + -   * / %   unary - ! ~   ( )
 * Functions: min(a,b,...), max(a,b,...), cdiv(a,b) (ceiling division), abs, floor, ceil, round, sqrt, log2,
 * pow(a,b), is_pow2(a), int(a), float(a), select(c,a,b). Literals: 12, 0x1F, 1.5, 1e-3, true, false.
 * Names: [A-Za-z_][A-Za-z0-9_.]* so "device.max_shared_memory" is one name.
 * Errors come with the file and line given at parse time. */
#ifndef VKAT_EXPR_H
#define VKAT_EXPR_H

#include "vkautotune.h"

#include <stdbool.h>

typedef struct vkat_value {
    bool is_float;
    int64_t i; /* valid when !is_float */
    double f;  /* valid when is_float */
} vkat_value;

static inline vkat_value vkat_int(int64_t i) { vkat_value v = {false, i, 0.0}; return v; }
static inline vkat_value vkat_float(double f) { vkat_value v = {true, 0, f}; return v; }
static inline double vkat_value_f64(vkat_value v) { return v.is_float ? v.f : (double)v.i; }
static inline bool vkat_value_truthy(vkat_value v) { return v.is_float ? v.f != 0.0 : v.i != 0; }

/* Name -> slot table. Slots are dense, 0..count-1, in order of addition. */
typedef struct vkat_symtab vkat_symtab;
vkat_symtab *vkat_symtab_create(void);
void vkat_symtab_destroy(vkat_symtab *t);
/* Adds a name; returns its slot, or -1 if the name exists already or memory ran out. */
int vkat_symtab_add(vkat_symtab *t, const char *name);
/* Slot of a name or -1. */
int vkat_symtab_find(const vkat_symtab *t, const char *name);
size_t vkat_symtab_count(const vkat_symtab *t);
const char *vkat_symtab_name(const vkat_symtab *t, int slot);

typedef struct vkat_expr vkat_expr;

/* Compiles `text`. Unknown names are an error (VKAT_ERR_SPACE, "unknown name 'X'"); syntax errors are
 * VKAT_ERR_SYNTAX. `file`/`line` are only for messages (file may be NULL). */
vkat_result vkat_expr_parse(const char *text, const vkat_symtab *syms, const char *file, int line, vkat_expr **out,
                            vkat_error *err);
void vkat_expr_destroy(vkat_expr *e);

/* Evaluates with env[slot] as each name's value. Division or remainder by integer zero and other domain errors
 * give VKAT_ERR_EXPR with the expression's file:line. Thread-safe for concurrent evaluations of one expr. */
vkat_result vkat_expr_eval(const vkat_expr *e, const vkat_value *env, vkat_value *out, vkat_error *err);

/* Convenience: evaluates and converts to an integer (a double must be integral, else VKAT_ERR_EXPR). */
vkat_result vkat_expr_eval_int(const vkat_expr *e, const vkat_value *env, int64_t *out, vkat_error *err);

/* Does the expression read this slot? (Lets the search order constraints by the parameters they use.) */
bool vkat_expr_uses(const vkat_expr *e, int slot);
const char *vkat_expr_text(const vkat_expr *e);

/* Lowers the expression to the runtime's formula ops (runtime/vkautotune_runtime.h: integer RPN, no jumps) for
 * `vkautotune export --header`. Per slot, var_index[slot] >= 0 makes the name runtime variable number
 * var_index[slot]; -1 folds env[slot] in as a constant (it must be an integer); -2 marks it unavailable.
 * Supported: integer literals, names, unary - ! ~, + - * / % << >> & | ^, comparisons, && || (evaluated without
 * short-circuit), min, max, cdiv. Anything else (floats, ?:, select, other functions) or an unavailable name is
 * VKAT_ERR_UNSUPPORTED with a message naming it; nothing is allocated then. On success *ops is malloc'ed pairs
 * (op, arg) of *count entries (the caller frees). */
struct vkat_rt_op;
vkat_result vkat_expr_lower(const vkat_expr *e, const vkat_value *env, const int *var_index, struct vkat_rt_op **ops,
                            size_t *count, vkat_error *err);
int vkat_expr_line(const vkat_expr *e);

#endif
