/* include_defines.c — the included files' texts for one variant's replace_defines macros (see the header). */
#include "include_defines.h"
#include "define_rewrite.h"
#include "template.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

long vkat_include_defining(const vkat_source_set *set, const char *name)
{
    const char *body, *end;
    int line;
    for (size_t f = 1; set && f < set->count; f++)
        if (vkat_define_find(set->files[f].text, name, &body, &end, &line))
            return (long)f;
    return -1;
}

/* The index in texts[0..n) of file `path`, appended (with a copy of `text`) when absent; -1 out of memory. */
static long text_for(vkat_include_text **texts, size_t *n, const char *path, const char *text)
{
    for (size_t i = 0; i < *n; i++)
        if (!strcmp((*texts)[i].path, path))
            return (long)i;
    vkat_include_text *grown = realloc(*texts, (*n + 1) * sizeof *grown);
    if (!grown)
        return -1;
    *texts = grown;
    grown[*n] = (vkat_include_text){vkat_strdup(path), vkat_strdup(text)};
    if (!grown[*n].path || !grown[*n].text) {
        free(grown[*n].path);
        free(grown[*n].text);
        return -1;
    }
    return (long)(*n)++;
}

vkat_result vkat_include_defines(const vkat_space *s, const vkat_source_set *set, const vkat_value *env,
                                 vkat_include_text **texts, size_t *count, vkat_error *err)
{
    *texts = NULL;
    *count = 0;
    const char *body, *end;
    int line;
    for (size_t i = 0; i < s->param_count; i++) {
        const vkat_param *p = &s->params[i];
        int replaced = 0;
        for (size_t r = 0; r < s->replace_define_count; r++)
            replaced |= !strcmp(s->replace_defines[r], p->name);
        long f = replaced && p->kind == VKAT_PARAM_DEFINE &&
                         !vkat_define_find(set->files[0].text, p->name, &body, &end, &line)
                     ? vkat_include_defining(set, p->name)
                     : -1;
        if (f < 0)
            continue; /* the template's own line (template.c), or none: template.c says so */
        char number[40];
        const char *value = vkat_template_param_value(p, env[p->slot], number, sizeof number);
        if (!value) {
            vkat_include_texts_free(*texts, *count);
            *texts = NULL, *count = 0;
            return vkat_fail(err, VKAT_ERR_TEMPLATE, set->files[f].path, 0, "define %s is not a finite number",
                             p->name);
        }
        long t = text_for(texts, count, set->files[f].path, set->files[f].text);
        char *next = NULL;
        int found = 0;
        if (t < 0 || vkat_define_rewrite((*texts)[t].text, p->name, value, &next, &found) != VKAT_OK) {
            vkat_include_texts_free(*texts, *count);
            *texts = NULL, *count = 0;
            return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        }
        free((*texts)[t].text);
        (*texts)[t].text = next;
    }
    return VKAT_OK;
}

void vkat_include_texts_free(vkat_include_text *texts, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        free(texts[i].path);
        free(texts[i].text);
    }
    free(texts);
}
