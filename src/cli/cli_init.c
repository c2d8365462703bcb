/* cli_init.c — `vkautotune init SHADER [-o SPACE.ini]`: a starting space file for a shader as it is, read from its
 * SPIR-V (vkat_space_skeleton), for the user to fill in where it says TODO. Needs no GPU. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INCLUDE_DIRS 16
#define MAX_DEFINES 64

static void usage(FILE *f)
{
    fprintf(f, "usage: vkautotune init SHADER [-o SPACE.ini] [--force] [-I DIR]... [-D NAME[=VALUE]]...\n"
               "Writes a starting space file for a compute shader as it is: each descriptor a [buffers] entry in\n"
               "its set and binding, the push-constant block's members as [push] values, the workgroup size's\n"
               "specialization constants as parameters, [dispatch] in its workgroups, and a check of every variant\n"
               "against the shader at its own defaults. Sizes, element counts and the workgroup count are guesses\n"
               "marked TODO. Without -o it goes to standard output and names the shader as given (save it in\n"
               "the current directory); with -o the shader's path is relative to the file, which is not\n"
               "overwritten without --force. -I: more #include directories (the file keeps them as include_dirs).\n"
               "-D: a macro the shader needs to compile (a template's parameter); it becomes a parameter of one\n"
               "value, a function-like one (-D 'LOAD(b,i)=b[i]') a [defines] entry.\n");
}

/* After a compile error, what init can say about it: glslang's words for an identifier that a macro of the shader's
 * build would have defined, a missing include, an #error, a name where a type was expected, or OpenGL-only GLSL. A
 * plain error in the shader gets nothing more than its message. */
static void compile_hint(const char *message)
{
    const char *q = message[0] == '\'' ? strchr(message + 1, '\'') : NULL;
    int n = q ? (int)(q - message - 1) : 0;
    /* what OpenGL's GLSL has and SPIR-V for Vulkan does not, even by the relaxed rules init tries: a subroutine */
    if (strstr(message, "when using GLSL for Vulkan") || strstr(message, "when generating SPIR-V"))
        fprintf(stderr, "vkautotune init: the shader is written for OpenGL, and even glslang's relaxed rules for "
                        "such shaders (which init tried) do not take this: change it as Vulkan GLSL would have it\n");
    else if (n > 0 && strstr(q, ": undeclared identifier"))
        fprintf(stderr, "vkautotune init: the shader is compiled as it is; if '%.*s' is a macro its build defines, "
                        "give it with -D %.*s=VALUE\n", n, message + 1, n, message + 1);
    else if (n > 0 && strstr(q, ": no matching overloaded function found"))
        fprintf(stderr, "vkautotune init: the shader is compiled as it is; if '%.*s' is a function-like macro its "
                        "build defines, give it with -D '%.*s(ARGS)=BODY'\n", n, message + 1, n, message + 1);
    else if (strstr(message, "cannot find include"))
        fprintf(stderr, "vkautotune init: give the directories the shader includes from with -I DIR\n");
    else if (!strncmp(message, "'#error'", 8))
        fprintf(stderr, "vkautotune init: the shader stops itself (#error): give the macros its build defines with "
                        "-D NAME=VALUE\n");
    else if (strstr(message, "syntax error, unexpected IDENTIFIER"))
        fprintf(stderr, "vkautotune init: the shader is compiled as it is; if a name on that line is a macro its "
                        "build defines (a type, a qualifier), give it with -D NAME=VALUE\n");
}

/* `path` relative to directory `dir` (both made absolute); NULL when either cannot be resolved. malloc'ed. */
static char *relative_to(const char *path, const char *dir)
{
    char *p = realpath(path, NULL), *d = realpath(dir, NULL), *out = NULL;
    if (p && d) {
        size_t common = 0, i = 0;
        for (; p[i] && p[i] == d[i]; i++)
            if (p[i] == '/')
                common = i + 1;
        int inside = !d[i] && p[i] == '/'; /* p lies below d */
        if (inside)
            common = i + 1;
        size_t ups = 0; /* d's components below the common part */
        for (const char *q = d + common; !inside && *q; q++)
            ups += *q == '/';
        if (!inside && d[common])
            ups++;
        size_t need = ups * 3 + strlen(p + common) + 1;
        if ((out = malloc(need))) {
            out[0] = 0;
            for (size_t k = 0; k < ups; k++)
                strcat(out, "../");
            strcat(out, p + common);
        }
    }
    free(p);
    free(d);
    return out;
}

int vkat_cmd_init(int argc, char **argv)
{
    const char *shader = NULL, *out_path = NULL, *dirs[MAX_INCLUDE_DIRS], *defines[MAX_DEFINES];
    size_t ndirs = 0, ndefines = 0;
    int force = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if ((!strcmp(o, "-o") || !strcmp(o, "-I") || !strcmp(o, "-D")) && !v) {
            fprintf(stderr, "vkautotune init: %s needs a value\n", o);
            return VKAT_EXIT_USAGE;
        }
        if (!strcmp(o, "-o")) {
            out_path = argv[++i];
        } else if (!strcmp(o, "-I")) {
            if (ndirs == MAX_INCLUDE_DIRS) {
                fprintf(stderr, "vkautotune init: at most %d -I directories\n", MAX_INCLUDE_DIRS);
                return VKAT_EXIT_USAGE;
            }
            dirs[ndirs++] = argv[++i];
        } else if (!strcmp(o, "-D")) {
            if (ndefines == MAX_DEFINES) {
                fprintf(stderr, "vkautotune init: at most %d -D macros\n", MAX_DEFINES);
                return VKAT_EXIT_USAGE;
            }
            defines[ndefines++] = argv[++i];
        } else if (!strcmp(o, "--force")) {
            force = 1;
        } else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            usage(stdout);
            return VKAT_EXIT_OK;
        } else if (o[0] != '-' && !shader) {
            shader = o;
        } else {
            fprintf(stderr, "vkautotune init: unexpected argument '%s'\n", o);
            usage(stderr);
            return VKAT_EXIT_USAGE;
        }
    }
    if (!shader) {
        usage(stderr);
        return VKAT_EXIT_USAGE;
    }
    if (out_path && !force && access(out_path, F_OK) == 0) {
        fprintf(stderr, "vkautotune init: %s exists; give --force to replace it\n", out_path);
        return VKAT_EXIT_USAGE;
    }
    /* With -o, the file names the shader and the -I directories relative to itself, as the space format reads them */
    char *ref = NULL, *dir_refs[MAX_INCLUDE_DIRS] = {0};
    const char *refs[MAX_INCLUDE_DIRS] = {0};
    if (out_path) {
        char *dir = strdup(out_path);
        char *slash = dir ? strrchr(dir, '/') : NULL;
        if (slash)
            *slash = 0;
        const char *where = slash ? (dir[0] ? dir : "/") : ".";
        ref = relative_to(shader, where);
        for (size_t i = 0; i < ndirs; i++)
            dir_refs[i] = relative_to(dirs[i], where);
        free(dir);
    }
    for (size_t i = 0; i < ndirs; i++)
        refs[i] = dir_refs[i] ? dir_refs[i] : dirs[i];
    vkat_error err = {0};
    char *text = NULL;
    vkat_result made = vkat_space_skeleton(shader, ref ? ref : shader, dirs, refs, ndirs, defines, ndefines, &text,
                                           &err);
    for (size_t i = 0; i < ndirs; i++)
        free(dir_refs[i]);
    if (made != VKAT_OK) {
        free(ref);
        int code = vkat_cli_report(&err);
        if (err.code == VKAT_ERR_COMPILE)
            compile_hint(err.message);
        return code;
    }
    free(ref);
    int code = VKAT_EXIT_OK;
    if (!out_path)
        fputs(text, stdout);
    else if (vkat_write_file(out_path, text, strlen(text), &err) != VKAT_OK)
        code = vkat_cli_report(&err);
    else
        fprintf(stderr, "vkautotune init: wrote %s; fill in each TODO, then: vkautotune --space %s\n", out_path,
                out_path);
    free(text);
    return code;
}
