/* expr.c — the expression language of space files: a symbol table, a recursive-descent compiler to a small stack
 * program, and the evaluator that runs that program millions of times per search.
 *
 * The evaluator must not allocate, look names up or touch anything but the program and the caller's environment:
 * everything that can be decided once (names -> slots, function arity, stack depth) is decided by the compiler.
 * This file knows nothing of INI files or devices; space.c feeds it text and a symbol table. */
#include "expr.h"
#include "util.h"
#include "vkautotune_runtime.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---- Symbol table: open addressing over dense slots ------------------------------------------------------------ */

struct vkat_symtab {
    char **names;   /* [count], slot order */
    size_t count, cap;
    int *table;     /* [table_size] slot + 1, 0 = empty; table_size a power of two, at most half full */
    size_t table_size;
};

vkat_symtab *vkat_symtab_create(void)
{
    return calloc(1, sizeof(vkat_symtab));
}

void vkat_symtab_destroy(vkat_symtab *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->count; i++)
        free(t->names[i]);
    free(t->names);
    free(t->table);
    free(t);
}

static size_t sym_hash(const char *name, size_t len)
{
    return (size_t)XXH3_64bits(name, len);
}

/* Returns the table position holding `name`, or the empty position where it would go. */
static size_t sym_probe(const vkat_symtab *t, const char *name, size_t len)
{
    size_t mask = t->table_size - 1, i = sym_hash(name, len) & mask;
    while (t->table[i]) {
        const char *s = t->names[t->table[i] - 1];
        if (strncmp(s, name, len) == 0 && s[len] == 0)
            return i;
        i = (i + 1) & mask;
    }
    return i;
}

static int sym_find_len(const vkat_symtab *t, const char *name, size_t len)
{
    if (!t || t->table_size == 0)
        return -1;
    return t->table[sym_probe(t, name, len)] - 1;
}

static bool sym_rehash(vkat_symtab *t, size_t size)
{
    int *table = calloc(size, sizeof(int));
    if (!table)
        return false;
    free(t->table);
    t->table = table;
    t->table_size = size;
    for (size_t s = 0; s < t->count; s++)
        t->table[sym_probe(t, t->names[s], strlen(t->names[s]))] = (int)s + 1;
    return true;
}

int vkat_symtab_add(vkat_symtab *t, const char *name)
{
    if (vkat_symtab_find(t, name) >= 0)
        return -1;
    if ((t->count + 1) * 2 > t->table_size && !sym_rehash(t, t->table_size ? t->table_size * 2 : 16))
        return -1;
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **names = realloc(t->names, cap * sizeof(char *));
        if (!names)
            return -1;
        t->names = names;
        t->cap = cap;
    }
    char *copy = vkat_strdup(name);
    if (!copy)
        return -1;
    int slot = (int)t->count;
    t->names[t->count++] = copy;
    t->table[sym_probe(t, name, strlen(name))] = slot + 1;
    return slot;
}

int vkat_symtab_find(const vkat_symtab *t, const char *name)
{
    return sym_find_len(t, name, strlen(name));
}

size_t vkat_symtab_count(const vkat_symtab *t)
{
    return t ? t->count : 0;
}

const char *vkat_symtab_name(const vkat_symtab *t, int slot)
{
    return t && slot >= 0 && (size_t)slot < t->count ? t->names[slot] : NULL;
}

/* ---- Program ----------------------------------------------------------------------------------------------------- */

typedef enum opcode {
    OP_CONST, OP_LOAD,
    OP_NEG, OP_NOT, OP_BNOT,
    OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_BAND, OP_BXOR, OP_BOR,
    OP_AND, /* a: if falsy, push 0 and jump; else pop and go on */
    OP_OR,  /* a: if truthy, push 1 and jump; else pop and go on */
    OP_BOOL, OP_JFALSE, OP_JUMP,
    OP_MIN, OP_MAX, OP_CDIV, OP_ABS, OP_FLOOR, OP_CEIL, OP_ROUND, OP_SQRT, OP_LOG2, OP_POW, OP_IS_POW2,
    OP_INT, OP_FLOAT,
} opcode;

typedef struct insn {
    int32_t op;
    int32_t arg; /* slot, jump target or argument count */
    vkat_value k;
} insn;

/* Deep enough for any expression a person writes; bounds the evaluator's stack array and the parser's recursion. */
#define EXPR_MAX_STACK 128
#define EXPR_MAX_DEPTH 200

struct vkat_expr {
    char *text;
    char *file;
    int line;
    insn *code;
    size_t count;
};

/* ---- Compiler ---------------------------------------------------------------------------------------------------- */

typedef struct parser {
    const char *text, *p;
    const vkat_symtab *syms;
    const char *file;
    int line;
    vkat_error *err;
    vkat_result failed;
    insn *code;
    size_t count, cap;
    int depth, max_depth, stack, max_stack;
} parser;

static void skip_space(parser *ps)
{
    while (isspace((unsigned char)*ps->p))
        ps->p++;
}

static bool fail_here(parser *ps, vkat_result code, const char *fmt, ...) VKAT_PRINTF(3, 4);
static bool fail_here(parser *ps, vkat_result code, const char *fmt, ...)
{
    if (!ps->failed) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        ps->failed = vkat_fail(ps->err, code, ps->file, ps->line, "%s", msg);
    }
    return false;
}

/* "unexpected 'x' at column 7" or "unexpected end of expression after 'a +'" */
static bool unexpected(parser *ps)
{
    skip_space(ps);
    if (!*ps->p) {
        char before[256];
        size_t n = strlen(ps->text);
        while (n && isspace((unsigned char)ps->text[n - 1]))
            n--;
        snprintf(before, sizeof before, "%.*s", (int)n, ps->text);
        if (n == 0)
            return fail_here(ps, VKAT_ERR_SYNTAX, "empty expression");
        return fail_here(ps, VKAT_ERR_SYNTAX, "unexpected end of expression after '%s'", before);
    }
    char tok[64];
    size_t len = 1;
    if (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
        while (len < 40 && (isalnum((unsigned char)ps->p[len]) || ps->p[len] == '_' || ps->p[len] == '.'))
            len++;
    snprintf(tok, sizeof tok, "%.*s", (int)len, ps->p);
    return fail_here(ps, VKAT_ERR_SYNTAX, "unexpected '%s' at column %d", tok, (int)(ps->p - ps->text) + 1);
}

static bool expect(parser *ps, char c)
{
    skip_space(ps);
    if (*ps->p == c) {
        ps->p++;
        return true;
    }
    if (!*ps->p) {
        char msg[300];
        size_t n = strlen(ps->text);
        while (n && isspace((unsigned char)ps->text[n - 1]))
            n--;
        snprintf(msg, sizeof msg, "expected '%c' after '%.*s'", c, (int)(n > 200 ? 200 : n), ps->text);
        return fail_here(ps, VKAT_ERR_SYNTAX, "%s", msg);
    }
    return fail_here(ps, VKAT_ERR_SYNTAX, "expected '%c' at column %d", c, (int)(ps->p - ps->text) + 1);
}

static bool emit(parser *ps, int op, int arg, vkat_value k, int stack_delta)
{
    if (ps->count == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 16;
        insn *code = realloc(ps->code, cap * sizeof(insn));
        if (!code)
            return fail_here(ps, VKAT_ERR_NOMEM, "out of memory");
        ps->code = code;
        ps->cap = cap;
    }
    insn in = {op, arg, k};
    ps->code[ps->count++] = in;
    ps->stack += stack_delta;
    if (ps->stack > ps->max_stack)
        ps->max_stack = ps->stack;
    if (ps->stack > EXPR_MAX_STACK)
        return fail_here(ps, VKAT_ERR_SYNTAX, "expression too complex (more than %d pending values)",
                         EXPR_MAX_STACK);
    return true;
}

static bool emit_op(parser *ps, int op, int stack_delta)
{
    return emit(ps, op, 0, vkat_int(0), stack_delta);
}

static bool parse_ternary(parser *ps);

static const struct func {
    const char *name;
    int op, min_args, max_args;
} funcs[] = {
    {"min", OP_MIN, 1, EXPR_MAX_STACK}, {"max", OP_MAX, 1, EXPR_MAX_STACK},
    {"cdiv", OP_CDIV, 2, 2},  {"abs", OP_ABS, 1, 1},   {"floor", OP_FLOOR, 1, 1},
    {"ceil", OP_CEIL, 1, 1},  {"round", OP_ROUND, 1, 1}, {"sqrt", OP_SQRT, 1, 1},
    {"log2", OP_LOG2, 1, 1},  {"pow", OP_POW, 2, 2},   {"is_pow2", OP_IS_POW2, 1, 1},
    {"int", OP_INT, 1, 1},    {"float", OP_FLOAT, 1, 1}, {"select", OP_JFALSE, 3, 3},
};

static bool parse_number(parser *ps)
{
    const char *start = ps->p;
    char *end;
    bool is_float = false;
    if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X')) {
        errno = 0;
        unsigned long long v = strtoull(start + 2, &end, 16);
        if (end == start + 2)
            return unexpected(ps);
        if (errno || v > INT64_MAX)
            return fail_here(ps, VKAT_ERR_SYNTAX, "number '%.*s' is out of range",
                             (int)(end - start > 40 ? 40 : end - start), start);
        ps->p = end;
        if (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
            return unexpected(ps);
        return emit(ps, OP_CONST, 0, vkat_int((int64_t)v), 1);
    }
    const char *q = start;
    while (isdigit((unsigned char)*q))
        q++;
    if (*q == '.' || *q == 'e' || *q == 'E')
        is_float = true;
    errno = 0;
    if (is_float) {
        double d = strtod(start, &end);
        if (errno == ERANGE && fabs(d) > 1.0) {
            char num[64];
            snprintf(num, sizeof num, "%.*s", (int)(end - start > 40 ? 40 : end - start), start);
            return fail_here(ps, VKAT_ERR_SYNTAX, "number '%s' is out of range", num);
        }
        ps->p = end;
        if (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
            return unexpected(ps);
        return emit(ps, OP_CONST, 0, vkat_float(d), 1);
    }
    long long v = strtoll(start, &end, 10);
    if (errno == ERANGE) {
        char num[64];
        snprintf(num, sizeof num, "%.*s", (int)(end - start > 40 ? 40 : end - start), start);
        return fail_here(ps, VKAT_ERR_SYNTAX, "number '%s' is out of range", num);
    }
    ps->p = end;
    if (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
        return unexpected(ps);
    return emit(ps, OP_CONST, 0, vkat_int(v), 1);
}

/* After the name and '(' of a call: arguments, ')' and the operation. */
static bool parse_call(parser *ps, const struct func *f)
{
    int args = 0;
    skip_space(ps);
    if (f->op == OP_JFALSE) {
        /* select(c, a, b) evaluates only the chosen branch, like c ? a : b. */
        if (!parse_ternary(ps) || !expect(ps, ','))
            return false;
        size_t jf = ps->count;
        if (!emit(ps, OP_JFALSE, 0, vkat_int(0), -1) || !parse_ternary(ps) || !expect(ps, ','))
            return false;
        size_t jmp = ps->count;
        if (!emit(ps, OP_JUMP, 0, vkat_int(0), -1))
            return false;
        ps->code[jf].arg = (int32_t)ps->count;
        if (!parse_ternary(ps) || !expect(ps, ')'))
            return false;
        ps->code[jmp].arg = (int32_t)ps->count;
        return true;
    }
    if (*ps->p != ')') {
        for (;;) {
            if (!parse_ternary(ps))
                return false;
            args++;
            skip_space(ps);
            if (*ps->p == ',') {
                ps->p++;
                continue;
            }
            break;
        }
    }
    if (!expect(ps, ')'))
        return false;
    if (args < f->min_args || args > f->max_args) {
        char msg[160];
        if (f->min_args == f->max_args)
            snprintf(msg, sizeof msg, "'%s' takes %d argument%s, got %d", f->name, f->min_args,
                     f->min_args == 1 ? "" : "s", args);
        else
            snprintf(msg, sizeof msg, "'%s' takes at least %d argument, got %d", f->name, f->min_args, args);
        return fail_here(ps, VKAT_ERR_SYNTAX, "%s", msg);
    }
    return emit(ps, f->op, args, vkat_int(0), 1 - args);
}

static bool parse_primary(parser *ps)
{
    skip_space(ps);
    char c = *ps->p;
    if (ps->depth > EXPR_MAX_DEPTH)
        return fail_here(ps, VKAT_ERR_SYNTAX, "expression nested too deeply (more than %d levels)",
                         EXPR_MAX_DEPTH);
    if (c == '(') {
        ps->p++;
        ps->depth++;
        bool ok = parse_ternary(ps) && expect(ps, ')');
        ps->depth--;
        return ok;
    }
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)ps->p[1])))
        return parse_number(ps);
    if (isalpha((unsigned char)c) || c == '_') {
        const char *start = ps->p;
        while (isalnum((unsigned char)*ps->p) || *ps->p == '_' || *ps->p == '.')
            ps->p++;
        size_t len = (size_t)(ps->p - start);
        const char *after = ps->p;
        while (isspace((unsigned char)*after))
            after++;
        if (*after == '(') {
            for (size_t i = 0; i < VKAT_COUNTOF(funcs); i++) {
                if (strlen(funcs[i].name) == len && strncmp(funcs[i].name, start, len) == 0) {
                    ps->p = after + 1;
                    ps->depth++;
                    bool ok = parse_call(ps, &funcs[i]);
                    ps->depth--;
                    return ok;
                }
            }
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len > 60 ? 60 : len), start);
            return fail_here(ps, VKAT_ERR_SYNTAX, "unknown function '%s'", name);
        }
        if (len == 4 && strncmp(start, "true", 4) == 0)
            return emit(ps, OP_CONST, 0, vkat_int(1), 1);
        if (len == 5 && strncmp(start, "false", 5) == 0)
            return emit(ps, OP_CONST, 0, vkat_int(0), 1);
        int slot = sym_find_len(ps->syms, start, len);
        if (slot < 0) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(len > 120 ? 120 : len), start);
            return fail_here(ps, VKAT_ERR_SPACE, "unknown name '%s'", name);
        }
        return emit(ps, OP_LOAD, slot, vkat_int(0), 1);
    }
    return unexpected(ps);
}

static bool parse_unary(parser *ps)
{
    skip_space(ps);
    char c = *ps->p;
    if (c == '-' || c == '!' || c == '~' || c == '+') {
        ps->p++;
        if (++ps->depth > EXPR_MAX_DEPTH)
            return fail_here(ps, VKAT_ERR_SYNTAX, "expression nested too deeply (more than %d levels)",
                             EXPR_MAX_DEPTH);
        bool ok = parse_unary(ps);
        ps->depth--;
        if (!ok)
            return false;
        return c == '+' || emit_op(ps, c == '-' ? OP_NEG : c == '!' ? OP_NOT : OP_BNOT, 0);
    }
    return parse_primary(ps);
}

/* Binary levels, tightest last. Each entry: operator text and op. Longer operators first within a level so "<="
 * wins over "<"; '&' must not eat "&&", '|' not "||", '<' not "<<". */
typedef struct binop {
    const char *text;
    int op;
} binop;

static const binop level_mul[] = {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {NULL, 0}};
static const binop level_add[] = {{"+", OP_ADD}, {"-", OP_SUB}, {NULL, 0}};
static const binop level_shift[] = {{"<<", OP_SHL}, {">>", OP_SHR}, {NULL, 0}};
static const binop level_rel[] = {{"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}, {NULL, 0}};
static const binop level_eq[] = {{"==", OP_EQ}, {"!=", OP_NE}, {NULL, 0}};
static const binop level_band[] = {{"&", OP_BAND}, {NULL, 0}};
static const binop level_bxor[] = {{"^", OP_BXOR}, {NULL, 0}};
static const binop level_bor[] = {{"|", OP_BOR}, {NULL, 0}};
static const binop *const levels[] = {level_bor, level_bxor, level_band, level_eq, level_rel, level_shift,
                                      level_add, level_mul};

static const binop *match_binop(parser *ps, const binop *ops)
{
    skip_space(ps);
    for (const binop *b = ops; b->text; b++) {
        size_t n = strlen(b->text);
        if (strncmp(ps->p, b->text, n) != 0)
            continue;
        char next = ps->p[n];
        /* Keep "&&", "||", "<<" and "<=" whole for the levels that own them. */
        if ((b->op == OP_BAND && next == '&') || (b->op == OP_BOR && next == '|') ||
            ((b->op == OP_LT || b->op == OP_GT) && (next == '<' || next == '>' || next == '=')))
            continue;
        ps->p += n;
        return b;
    }
    return NULL;
}

static bool parse_level(parser *ps, size_t level)
{
    if (level == VKAT_COUNTOF(levels))
        return parse_unary(ps);
    if (!parse_level(ps, level + 1))
        return false;
    const binop *b;
    while ((b = match_binop(ps, levels[level])) != NULL)
        if (!parse_level(ps, level + 1) || !emit_op(ps, b->op, -1))
            return false;
    return true;
}

static bool match2(parser *ps, const char *s)
{
    skip_space(ps);
    if (ps->p[0] == s[0] && ps->p[1] == s[1]) {
        ps->p += 2;
        return true;
    }
    return false;
}

static bool parse_and(parser *ps)
{
    if (!parse_level(ps, 0))
        return false;
    while (match2(ps, "&&")) {
        size_t j = ps->count;
        if (!emit(ps, OP_AND, 0, vkat_int(0), -1) || !parse_level(ps, 0) || !emit_op(ps, OP_BOOL, 0))
            return false;
        ps->code[j].arg = (int32_t)ps->count;
    }
    return true;
}

static bool parse_or(parser *ps)
{
    if (!parse_and(ps))
        return false;
    while (match2(ps, "||")) {
        size_t j = ps->count;
        if (!emit(ps, OP_OR, 0, vkat_int(0), -1) || !parse_and(ps) || !emit_op(ps, OP_BOOL, 0))
            return false;
        ps->code[j].arg = (int32_t)ps->count;
    }
    return true;
}

static bool parse_ternary(parser *ps)
{
    if (++ps->depth > EXPR_MAX_DEPTH)
        return fail_here(ps, VKAT_ERR_SYNTAX, "expression nested too deeply (more than %d levels)",
                         EXPR_MAX_DEPTH);
    bool ok = parse_or(ps);
    skip_space(ps);
    if (ok && *ps->p == '?') {
        ps->p++;
        size_t jf = ps->count;
        ok = emit(ps, OP_JFALSE, 0, vkat_int(0), -1) && parse_ternary(ps) && expect(ps, ':');
        if (ok) {
            size_t jmp = ps->count;
            ok = emit(ps, OP_JUMP, 0, vkat_int(0), -1);
            if (ok) {
                ps->code[jf].arg = (int32_t)ps->count;
                ok = parse_ternary(ps);
                ps->code[jmp].arg = (int32_t)ps->count;
            }
        }
    }
    ps->depth--;
    return ok;
}

vkat_result vkat_expr_parse(const char *text, const vkat_symtab *syms, const char *file, int line, vkat_expr **out,
                            vkat_error *err)
{
    *out = NULL;
    parser ps = {0};
    ps.text = ps.p = text;
    ps.syms = syms;
    ps.file = file;
    ps.line = line;
    ps.err = err;
    if (parse_ternary(&ps)) {
        skip_space(&ps);
        if (*ps.p)
            unexpected(&ps);
    }
    if (ps.failed) {
        free(ps.code);
        return ps.failed;
    }
    vkat_expr *e = calloc(1, sizeof *e);
    if (e) {
        e->text = vkat_strdup(text);
        e->file = file ? vkat_strdup(file) : NULL;
    }
    if (!e || !e->text || (file && !e->file)) {
        free(ps.code);
        vkat_expr_destroy(e);
        return vkat_fail(err, VKAT_ERR_NOMEM, file, line, "out of memory");
    }
    e->line = line;
    e->code = ps.code;
    e->count = ps.count;
    *out = e;
    return VKAT_OK;
}

void vkat_expr_destroy(vkat_expr *e)
{
    if (!e)
        return;
    free(e->text);
    free(e->file);
    free(e->code);
    free(e);
}

/* ---- Evaluator --------------------------------------------------------------------------------------------------- */

static vkat_result eval_fail(const vkat_expr *e, vkat_error *err, const char *what)
{
    return vkat_fail(err, VKAT_ERR_EXPR, e->file, e->line, "%s in '%s'", what, e->text);
}

/* A double that must become an integer (floor, ceil, round, int): NaN and out-of-range are errors. */
static bool f64_to_i64(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
        return false;
    *out = (int64_t)d;
    return true;
}

static bool int_pow(int64_t b, int64_t x, int64_t *out)
{
    int64_t r = 1;
    while (x > 0) {
        if (x & 1)
            if (__builtin_mul_overflow(r, b, &r))
                return false;
        x >>= 1;
        if (x && __builtin_mul_overflow(b, b, &b))
            return false;
    }
    *out = r;
    return true;
}

/* The evaluator in families of instructions: each helper returns NULL or the error's text (eval_fail adds the
 * expression and its file:line), so the loop in vkat_expr_eval keeps only the stack and the jumps. */

/* Two integers: overflow, division by zero and shift counts are errors, never wrapped or undefined. */
static const char *binary_int(opcode op, int64_t x, int64_t y, vkat_value *r)
{
    int64_t z = 0;
    switch (op) {
    case OP_MUL:
        if (__builtin_mul_overflow(x, y, &z))
            return "integer overflow";
        break;
    case OP_ADD:
        if (__builtin_add_overflow(x, y, &z))
            return "integer overflow";
        break;
    case OP_SUB:
        if (__builtin_sub_overflow(x, y, &z))
            return "integer overflow";
        break;
    case OP_DIV: case OP_MOD: case OP_CDIV:
        if (y == 0)
            return op == OP_MOD ? "remainder by zero" : "division by zero";
        if (x == INT64_MIN && y == -1)
            return "integer overflow";
        if (op == OP_DIV)
            z = x / y;
        else if (op == OP_MOD)
            z = x % y;
        else /* ceiling: round the truncated quotient up when the exact one is above it */
            z = x / y + ((x % y != 0) && ((x < 0) == (y < 0)));
        break;
    case OP_SHL: case OP_SHR:
        if (y < 0 || y > 63)
            return "shift count out of range 0..63";
        z = op == OP_SHL ? (int64_t)((uint64_t)x << y) : x >> y;
        break;
    case OP_LT: z = x < y; break;
    case OP_LE: z = x <= y; break;
    case OP_GT: z = x > y; break;
    case OP_GE: z = x >= y; break;
    case OP_EQ: z = x == y; break;
    case OP_NE: z = x != y; break;
    case OP_BAND: z = x & y; break;
    case OP_BXOR: z = x ^ y; break;
    case OP_BOR: z = x | y; break;
    case OP_POW:
        if (y < 0) { /* a negative power of an integer is a fraction */
            *r = vkat_float(pow((double)x, (double)y));
            return NULL;
        }
        if (!int_pow(x, y, &z))
            return "integer overflow";
        break;
    default: break;
    }
    *r = vkat_int(z);
    return NULL;
}

/* One operand or both floating point: IEEE arithmetic, comparisons give integers, bitwise operators are errors. */
static const char *binary_float(opcode op, double x, double y, vkat_value *r)
{
    switch (op) {
    case OP_MUL: *r = vkat_float(x * y); break;
    case OP_DIV: *r = vkat_float(x / y); break;
    case OP_MOD: *r = vkat_float(fmod(x, y)); break;
    case OP_CDIV: *r = vkat_float(ceil(x / y)); break;
    case OP_ADD: *r = vkat_float(x + y); break;
    case OP_SUB: *r = vkat_float(x - y); break;
    case OP_POW: *r = vkat_float(pow(x, y)); break;
    case OP_LT: *r = vkat_int(x < y); break;
    case OP_LE: *r = vkat_int(x <= y); break;
    case OP_GT: *r = vkat_int(x > y); break;
    case OP_GE: *r = vkat_int(x >= y); break;
    case OP_EQ: *r = vkat_int(x == y); break;
    case OP_NE: *r = vkat_int(x != y); break;
    default: return "bitwise operator on a non-integer";
    }
    return NULL;
}

/* min/max of k arguments: integers compared as integers (exact beyond 2^53), else as doubles; the first wins ties. */
static vkat_value min_max(opcode op, const vkat_value *args, int k)
{
    vkat_value best = args[0];
    for (int i = 1; i < k; i++) {
        vkat_value v = args[i];
        bool ints = !v.is_float && !best.is_float;
        bool take;
        if (op == OP_MIN)
            take = ints ? v.i < best.i : vkat_value_f64(v) < vkat_value_f64(best);
        else
            take = ints ? v.i > best.i : vkat_value_f64(v) > vkat_value_f64(best);
        if (take)
            best = v;
    }
    return best;
}

/* The one-operand instructions, in place on the top of the stack. */
static const char *unary(opcode op, vkat_value *v)
{
    switch (op) {
    case OP_NEG:
        if (v->is_float)
            v->f = -v->f;
        else if (v->i == INT64_MIN)
            return "integer overflow";
        else
            v->i = -v->i;
        break;
    case OP_NOT:
        *v = vkat_int(!vkat_value_truthy(*v));
        break;
    case OP_BOOL:
        *v = vkat_int(vkat_value_truthy(*v));
        break;
    case OP_BNOT:
        if (v->is_float)
            return "'~' needs an integer";
        v->i = ~v->i;
        break;
    case OP_ABS:
        if (v->is_float)
            v->f = fabs(v->f);
        else if (v->i == INT64_MIN)
            return "integer overflow";
        else if (v->i < 0)
            v->i = -v->i;
        break;
    case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_INT:
        if (v->is_float) {
            double d = v->f;
            d = op == OP_FLOOR ? floor(d) : op == OP_CEIL ? ceil(d) : op == OP_ROUND ? round(d) : d;
            int64_t i;
            if (!f64_to_i64(d, &i))
                return "value is not a finite integer in range";
            *v = vkat_int(i);
        }
        break;
    case OP_SQRT:
        *v = vkat_float(sqrt(vkat_value_f64(*v)));
        break;
    case OP_LOG2:
        *v = vkat_float(log2(vkat_value_f64(*v)));
        break;
    case OP_IS_POW2:
        if (v->is_float) {
            int ex;
            double m = frexp(v->f, &ex);
            *v = vkat_int(v->f >= 1.0 && m == 0.5);
        } else {
            *v = vkat_int(v->i > 0 && (v->i & (v->i - 1)) == 0);
        }
        break;
    case OP_FLOAT:
        *v = vkat_float(vkat_value_f64(*v));
        break;
    default: break;
    }
    return NULL;
}

vkat_result vkat_expr_eval(const vkat_expr *e, const vkat_value *env, vkat_value *out, vkat_error *err)
{
    vkat_value st[EXPR_MAX_STACK + 1];
    int sp = -1; /* index of the top */
    const insn *code = e->code;
    size_t n = e->count;
    for (size_t pc = 0; pc < n; pc++) {
        const insn *in = &code[pc];
        opcode op = (opcode)in->op;
        const char *fail = NULL;
        switch (op) {
        case OP_CONST:
            st[++sp] = in->k;
            break;
        case OP_LOAD:
            st[++sp] = env[in->arg];
            break;
        case OP_AND:
            if (!vkat_value_truthy(st[sp])) {
                st[sp] = vkat_int(0);
                pc = (size_t)in->arg - 1;
            } else {
                sp--;
            }
            break;
        case OP_OR:
            if (vkat_value_truthy(st[sp])) {
                st[sp] = vkat_int(1);
                pc = (size_t)in->arg - 1;
            } else {
                sp--;
            }
            break;
        case OP_JFALSE:
            if (!vkat_value_truthy(st[sp--]))
                pc = (size_t)in->arg - 1;
            break;
        case OP_JUMP:
            pc = (size_t)in->arg - 1;
            break;
        case OP_MUL: case OP_DIV: case OP_MOD: case OP_ADD: case OP_SUB: case OP_SHL: case OP_SHR:
        case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
        case OP_BAND: case OP_BXOR: case OP_BOR: case OP_CDIV: case OP_POW: {
            vkat_value b = st[sp--], a = st[sp];
            if (!a.is_float && !b.is_float)
                fail = binary_int(op, a.i, b.i, &st[sp]);
            else
                fail = binary_float(op, vkat_value_f64(a), vkat_value_f64(b), &st[sp]);
            break;
        }
        case OP_MIN: case OP_MAX:
            sp -= in->arg - 1;
            st[sp] = min_max(op, &st[sp], in->arg);
            break;
        default:
            fail = unary(op, &st[sp]);
            break;
        }
        if (fail)
            return eval_fail(e, err, fail);
    }
    *out = st[0];
    return VKAT_OK;
}

vkat_result vkat_expr_eval_int(const vkat_expr *e, const vkat_value *env, int64_t *out, vkat_error *err)
{
    vkat_value v;
    vkat_result r = vkat_expr_eval(e, env, &v, err);
    if (r)
        return r;
    if (!v.is_float) {
        *out = v.i;
        return VKAT_OK;
    }
    int64_t i;
    if (!f64_to_i64(v.f, &i) || (double)i != v.f) {
        char what[96];
        snprintf(what, sizeof what, "value %.17g is not an integer", v.f);
        return eval_fail(e, err, what);
    }
    *out = i;
    return VKAT_OK;
}

bool vkat_expr_uses(const vkat_expr *e, int slot)
{
    for (size_t i = 0; i < e->count; i++)
        if (e->code[i].op == OP_LOAD && e->code[i].arg == slot)
            return true;
    return false;
}

const char *vkat_expr_text(const vkat_expr *e)
{
    return e->text;
}

int vkat_expr_line(const vkat_expr *e)
{
    return e->line;
}

/* ---- Lowering for the runtime library ------------------------------------------------------------------------ */

static vkat_result lower_fail(const vkat_expr *e, vkat_error *err, const char *what)
{
    return vkat_fail(err, VKAT_ERR_UNSUPPORTED, e->file, e->line,
                     "'%s': %s, which the runtime's formulas do not have (docs/runtime.md)", e->text, what);
}

vkat_result vkat_expr_lower(const vkat_expr *e, const vkat_value *env, const int *var_index, struct vkat_rt_op **ops,
                            size_t *count, vkat_error *err)
{
    /* Each insn becomes at most one op, min/max of n arguments n-1, and each && / || one op at its target. */
    size_t cap = 1;
    for (size_t i = 0; i < e->count; i++)
        cap += (e->code[i].op == OP_MIN || e->code[i].op == OP_MAX) ? (size_t)e->code[i].arg : 2;
    vkat_rt_op *out = malloc(cap * sizeof *out);
    int32_t *pending = malloc((e->count + 1) * sizeof *pending); /* targets of open && / ||, innermost last */
    int32_t *pending_op = malloc((e->count + 1) * sizeof *pending_op);
    size_t n = 0, np = 0;
    vkat_result r = VKAT_OK;
    if (!out || !pending || !pending_op) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto fail;
    }
#define PUT(o, a) (out[n].op = (o), out[n].arg = (a), n++)
    for (size_t pc = 0; pc <= e->count; pc++) {
        while (np && pending[np - 1] == (int32_t)pc) {
            np--;
            PUT(pending_op[np], 0);
        }
        if (pc == e->count)
            break;
        const insn *in = &e->code[pc];
        switch ((opcode)in->op) {
        case OP_CONST:
            if (in->k.is_float) {
                r = lower_fail(e, err, "it has a floating-point literal");
                goto fail;
            }
            PUT(VKAT_RT_CONST, in->k.i);
            break;
        case OP_LOAD: {
            int v = var_index[in->arg];
            if (v >= 0) {
                PUT(VKAT_RT_VAR, v);
            } else if (v == -1 && !env[in->arg].is_float) {
                PUT(VKAT_RT_CONST, env[in->arg].i);
            } else {
                r = vkat_fail(err, VKAT_ERR_UNSUPPORTED, e->file, e->line,
                              "'%s': a name it reads is %s (docs/runtime.md)", e->text,
                              v == -1 ? "not an integer" : "not known when exporting (a device limit of a device "
                                                           "that is not present)");
                goto fail;
            }
            break;
        }
        case OP_NEG: PUT(VKAT_RT_NEG, 0); break;
        case OP_NOT: PUT(VKAT_RT_NOT, 0); break;
        case OP_BNOT: PUT(VKAT_RT_BNOT, 0); break;
        case OP_BOOL: PUT(VKAT_RT_BOOL, 0); break;
        case OP_MUL: PUT(VKAT_RT_MUL, 0); break;
        case OP_DIV: PUT(VKAT_RT_DIV, 0); break;
        case OP_MOD: PUT(VKAT_RT_MOD, 0); break;
        case OP_ADD: PUT(VKAT_RT_ADD, 0); break;
        case OP_SUB: PUT(VKAT_RT_SUB, 0); break;
        case OP_SHL: PUT(VKAT_RT_SHL, 0); break;
        case OP_SHR: PUT(VKAT_RT_SHR, 0); break;
        case OP_LT: PUT(VKAT_RT_LT, 0); break;
        case OP_LE: PUT(VKAT_RT_LE, 0); break;
        case OP_GT: PUT(VKAT_RT_GT, 0); break;
        case OP_GE: PUT(VKAT_RT_GE, 0); break;
        case OP_EQ: PUT(VKAT_RT_EQ, 0); break;
        case OP_NE: PUT(VKAT_RT_NE, 0); break;
        case OP_BAND: PUT(VKAT_RT_BAND, 0); break;
        case OP_BXOR: PUT(VKAT_RT_BXOR, 0); break;
        case OP_BOR: PUT(VKAT_RT_BOR, 0); break;
        case OP_CDIV: PUT(VKAT_RT_CDIV, 0); break;
        case OP_AND:
        case OP_OR:
            /* a AND(target) b BOOL target: -> a b LAND, emitted when the walk reaches the target. */
            pending[np] = in->arg;
            pending_op[np++] = in->op == OP_AND ? VKAT_RT_LAND : VKAT_RT_LOR;
            break;
        case OP_MIN:
        case OP_MAX:
            for (int32_t k = 1; k < in->arg; k++)
                PUT(in->op == OP_MIN ? VKAT_RT_MIN : VKAT_RT_MAX, 0);
            break;
        case OP_JFALSE:
        case OP_JUMP:
            r = lower_fail(e, err, "it has a conditional (?: or select)");
            goto fail;
        default:
            r = lower_fail(e, err, "it calls a function other than min, max and cdiv");
            goto fail;
        }
    }
#undef PUT
    free(pending);
    free(pending_op);
    *ops = out;
    *count = n;
    return VKAT_OK;
fail:
    free(out);
    free(pending);
    free(pending_op);
    *ops = NULL;
    *count = 0;
    return r;
}
