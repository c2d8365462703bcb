/* test_expr.c — the expression language: symbol table, values and C's typing rules, precedence, short-circuits,
 * functions, and every parse and evaluation error with its exact message. */
#include "expr.h"
#include "test.h"
#include "util.h"

static vkat_symtab *syms;
static vkat_value env[64];

/* Parses and evaluates; returns the result code, value in *out. */
static vkat_result run(const char *text, vkat_value *out, vkat_error *err)
{
    vkat_expr *e;
    vkat_result r = vkat_expr_parse(text, syms, "t.ini", 7, &e, err);
    if (r)
        return r;
    r = vkat_expr_eval(e, env, out, err);
    vkat_expr_destroy(e);
    return r;
}

static int64_t ival(const char *text)
{
    vkat_value v = {0};
    vkat_error err = {0};
    vkat_result r = run(text, &v, &err);
    CHECK_MSG(r == VKAT_OK && !v.is_float, "'%s': %s", text, err.message);
    return v.i;
}

static double fval(const char *text)
{
    vkat_value v = {0};
    vkat_error err = {0};
    vkat_result r = run(text, &v, &err);
    CHECK_MSG(r == VKAT_OK && v.is_float, "'%s': %s", text, err.message);
    return v.f;
}

/* Expects failure with this code and exact "t.ini:7: message". */
static void bad(const char *text, vkat_result code, const char *message)
{
    vkat_value v;
    vkat_error err = {0};
    char buf[1200];
    vkat_result r = run(text, &v, &err);
    CHECK_MSG(r == code, "'%s': got %d (%s), want %d", text, r, err.message, code);
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf), message);
}

static void test_symtab(void)
{
    vkat_symtab *t = vkat_symtab_create();
    CHECK(vkat_symtab_count(t) == 0);
    CHECK(vkat_symtab_find(t, "a") == -1);
    char name[32];
    for (int i = 0; i < 100; i++) { /* enough to grow the table several times */
        snprintf(name, sizeof name, "n%d", i);
        CHECK(vkat_symtab_add(t, name) == i);
    }
    CHECK(vkat_symtab_add(t, "n42") == -1);
    CHECK(vkat_symtab_count(t) == 100);
    CHECK(vkat_symtab_find(t, "n77") == 77);
    CHECK(vkat_symtab_find(t, "n7") == 7);
    CHECK(vkat_symtab_find(t, "n") == -1);
    CHECK_STR(vkat_symtab_name(t, 99), "n99");
    CHECK(vkat_symtab_name(t, 100) == NULL);
    CHECK(vkat_symtab_name(t, -1) == NULL);
    vkat_symtab_destroy(t);
    vkat_symtab_destroy(NULL);
}

int main(void)
{
    test_symtab();
    syms = vkat_symtab_create();
    const char *names[] = {"M", "N", "K", "WG_X", "TN", "ZERO", "device.max_shared_memory", "F"};
    for (size_t i = 0; i < VKAT_COUNTOF(names); i++)
        CHECK(vkat_symtab_add(syms, names[i]) == (int)i);
    env[0] = vkat_int(256);
    env[1] = vkat_int(128);
    env[2] = vkat_int(64);
    env[3] = vkat_int(16);
    env[4] = vkat_int(4);
    env[5] = vkat_int(0);
    env[6] = vkat_int(49152);
    env[7] = vkat_float(2.5);

    /* Literals, names, integer arithmetic with C's truncation. */
    CHECK(ival("42") == 42);
    CHECK(ival("0x1F") == 31);
    CHECK(ival("true") == 1 && ival("false") == 0);
    CHECK(ival("M") == 256);
    CHECK(ival("device.max_shared_memory / 1024") == 48);
    CHECK(ival("-7 / 2") == -3);
    CHECK(ival("-7 % 3") == -1);
    CHECK(ival("7 / -2") == -3);
    CHECK(fval("7 / 2.0") == 3.5);
    CHECK(fval("1e-3 * 1000") == 1.0);
    CHECK(fval(".5 + F") == 3.0);
    CHECK(fval("5.5 % 2") == 1.5);

    /* Precedence, loosest first: ?: || && | ^ & == != < <= > >= << >> + - * / % unary. */
    CHECK(ival("1 + 2 * 3") == 7);
    CHECK(ival("(1 + 2) * 3") == 9);
    CHECK(ival("1 << 2 + 1") == 8);
    CHECK(ival("1 < 2 == 1") == 1);
    CHECK(ival("6 & 3 ^ 1") == 3);
    CHECK(ival("4 | 1 ^ 1") == 4);
    CHECK(ival("1 || 0 && 0") == 1);
    CHECK(ival("0 ? 1 : 0 ? 2 : 3") == 3);
    CHECK(ival("1 ? 2 : 3 + 10") == 2);
    CHECK(ival("-2 * -3") == 6);
    CHECK(ival("!0 + !5") == 1);
    CHECK(ival("~0") == -1);
    CHECK(ival("+3") == 3);
    CHECK(ival("2 - 3 - 4") == -5);
    CHECK(ival("64 / 4 / 2") == 8);
    CHECK(ival("M >= 256 && N <= 128 && K != 63") == 1);
    CHECK(ival("M > 256 || N < 128") == 0);
    CHECK(ival("M >> 4 << 1") == 32);
    CHECK(ival("3 && 7") == 1); /* && and || give 0 or 1 */
    CHECK(ival("0 || 7") == 1);

    /* Short-circuits: the unevaluated side may divide by zero. */
    CHECK(ival("ZERO != 0 && M / ZERO > 2") == 0);
    CHECK(ival("ZERO == 0 || M / ZERO > 2") == 1);
    CHECK(ival("ZERO ? M / ZERO : 5") == 5);
    CHECK(ival("select(ZERO, M / ZERO, 6)") == 6);
    CHECK(ival("select(1, 7, M / ZERO)") == 7);

    /* Functions. */
    CHECK(ival("min(3, 1, 2)") == 1);
    CHECK(ival("max(3, 1, 2)") == 3);
    CHECK(ival("min(5)") == 5);
    CHECK(fval("max(1, 2.5)") == 2.5);
    CHECK(ival("cdiv(10, 3)") == 4);
    CHECK(ival("cdiv(9, 3)") == 3);
    CHECK(ival("cdiv(-10, 3)") == -3);
    CHECK(ival("cdiv(N, WG_X * TN)") == 2);
    CHECK(fval("cdiv(10, 4.0)") == 3.0);
    CHECK(ival("abs(-4)") == 4);
    CHECK(fval("abs(-F)") == 2.5);
    CHECK(ival("floor(F)") == 2 && ival("ceil(F)") == 3 && ival("round(F)") == 3);
    CHECK(ival("floor(-F)") == -3);
    CHECK(ival("floor(7)") == 7);
    CHECK(fval("sqrt(16)") == 4.0);
    CHECK(fval("log2(1024)") == 10.0);
    CHECK(ival("pow(2, 10)") == 1024);
    CHECK(fval("pow(2, -1)") == 0.5);
    CHECK(fval("pow(4, 0.5)") == 2.0);
    CHECK(ival("is_pow2(64)") == 1 && ival("is_pow2(48)") == 0 && ival("is_pow2(0)") == 0 &&
          ival("is_pow2(-4)") == 0);
    CHECK(ival("is_pow2(4.0)") == 1 && ival("is_pow2(0.5)") == 0 && ival("is_pow2(3.0)") == 0);
    CHECK(ival("int(F)") == 2 && ival("int(-F)") == -2);
    CHECK(fval("float(3) / 2") == 1.5);
    CHECK(ival("min ( 4 , 2 )") == 2);

    /* Syntax errors with file:line and where. */
    bad("min(M, N", VKAT_ERR_SYNTAX, "t.ini:7: expected ')' after 'min(M, N'");
    bad("(M + N", VKAT_ERR_SYNTAX, "t.ini:7: expected ')' after '(M + N'");
    bad("M < 4 x", VKAT_ERR_SYNTAX, "t.ini:7: unexpected 'x' at column 7");
    bad("M +", VKAT_ERR_SYNTAX, "t.ini:7: unexpected end of expression after 'M +'");
    bad("", VKAT_ERR_SYNTAX, "t.ini:7: empty expression");
    bad("   ", VKAT_ERR_SYNTAX, "t.ini:7: empty expression");
    bad("M * * N", VKAT_ERR_SYNTAX, "t.ini:7: unexpected '*' at column 5");
    bad("1 ? 2", VKAT_ERR_SYNTAX, "t.ini:7: expected ':' after '1 ? 2'");
    bad("min(1 2)", VKAT_ERR_SYNTAX, "t.ini:7: expected ')' at column 7");
    bad("12abc", VKAT_ERR_SYNTAX, "t.ini:7: unexpected 'abc' at column 3");
    bad("99999999999999999999", VKAT_ERR_SYNTAX, "t.ini:7: number '99999999999999999999' is out of range");
    bad("0xFFFFFFFFFFFFFFFFF", VKAT_ERR_SYNTAX, "t.ini:7: number '0xFFFFFFFFFFFFFFFFF' is out of range");
    bad("foo(1)", VKAT_ERR_SYNTAX, "t.ini:7: unknown function 'foo'");
    bad("cdiv(1)", VKAT_ERR_SYNTAX, "t.ini:7: 'cdiv' takes 2 arguments, got 1");
    bad("abs(1, 2)", VKAT_ERR_SYNTAX, "t.ini:7: 'abs' takes 1 argument, got 2");
    bad("min()", VKAT_ERR_SYNTAX, "t.ini:7: 'min' takes at least 1 argument, got 0");
    bad("M = 4", VKAT_ERR_SYNTAX, "t.ini:7: unexpected '=' at column 3");
    bad("TILE_Q * 2", VKAT_ERR_SPACE, "t.ini:7: unknown name 'TILE_Q'");
    bad("device.nope", VKAT_ERR_SPACE, "t.ini:7: unknown name 'device.nope'");
    char deep[1200] = "";
    for (int i = 0; i < 300; i++)
        strcat(deep, "(");
    bad(deep, VKAT_ERR_SYNTAX, "t.ini:7: expression nested too deeply (more than 200 levels)");
    char wide[2000] = "min(0";
    for (int i = 0; i < 150; i++) /* every argument stays pending until the call */
        strcat(wide, ", 1");
    strcat(wide, ")");
    bad(wide, VKAT_ERR_SYNTAX, "t.ini:7: expression too complex (more than 128 pending values)");

    /* Evaluation errors name the expression. */
    bad("N / (WG_X*TN*ZERO)", VKAT_ERR_EXPR, "t.ini:7: division by zero in 'N / (WG_X*TN*ZERO)'");
    bad("N % ZERO", VKAT_ERR_EXPR, "t.ini:7: remainder by zero in 'N % ZERO'");
    bad("cdiv(N, ZERO)", VKAT_ERR_EXPR, "t.ini:7: division by zero in 'cdiv(N, ZERO)'");
    bad("0x7FFFFFFFFFFFFFFF + 1", VKAT_ERR_EXPR, "t.ini:7: integer overflow in '0x7FFFFFFFFFFFFFFF + 1'");
    bad("M << 64", VKAT_ERR_EXPR, "t.ini:7: shift count out of range 0..63 in 'M << 64'");
    bad("F & 1", VKAT_ERR_EXPR, "t.ini:7: bitwise operator on a non-integer in 'F & 1'");
    bad("pow(10, 30)", VKAT_ERR_EXPR, "t.ini:7: integer overflow in 'pow(10, 30)'");
    bad("int(1e300)", VKAT_ERR_EXPR, "t.ini:7: value is not a finite integer in range in 'int(1e300)'");
    CHECK(fval("1.0 / 0") > 1e308); /* doubles follow IEEE: no error */

    /* eval_int, uses, text, line. */
    vkat_expr *e;
    vkat_error err = {0};
    int64_t i;
    CHECK(vkat_expr_parse("M / 2.0", syms, NULL, 3, &e, &err) == VKAT_OK);
    CHECK(vkat_expr_eval_int(e, env, &i, &err) == VKAT_OK && i == 128);
    CHECK(vkat_expr_uses(e, 0) && !vkat_expr_uses(e, 1));
    CHECK_STR(vkat_expr_text(e), "M / 2.0");
    CHECK(vkat_expr_line(e) == 3);
    vkat_expr_destroy(e);
    CHECK(vkat_expr_parse("F", syms, "x.ini", 4, &e, &err) == VKAT_OK);
    CHECK(vkat_expr_eval_int(e, env, &i, &err) == VKAT_ERR_EXPR);
    CHECK_STR(err.message, "value 2.5 is not an integer in 'F'");
    CHECK(err.line == 4);
    vkat_expr_destroy(e);
    vkat_expr_destroy(NULL);
    vkat_symtab_destroy(syms);
    TEST_END();
}
