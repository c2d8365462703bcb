/* include_rewrite.c — the included files' texts for one variant's replace_defines macros (see the header). */
#include "include_rewrite.h"
#include "define_rewrite.h"
#include "local_size_rewrite.h"
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

/* Does `text` declare a workgroup size by value? */
static int sizes_by_value(const char *text)
{
    static const uint32_t any[3] = {1, 1, 1};
    char *out = NULL;
    int count = 0;
    vkat_local_size_rewrite(text, any, &out, &count);
    free(out);
    return count > 0;
}

long vkat_include_sizing(const vkat_source_set *set)
{
    for (size_t f = 0; set && f < set->count; f++)
        if (sizes_by_value(set->files[f].text))
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

/* replace_local_size in the first included file that declares a size by value, where the template declares none. */
static vkat_result include_local_size(const vkat_source_set *set, const uint32_t local_size[3],
                                      vkat_include_text **texts, size_t *count)
{
    long f = vkat_include_sizing(set);
    if (f <= 0)
        return VKAT_OK; /* the template's own (template.c), or none */
    long t = text_for(texts, count, set->files[f].path, set->files[f].text);
    char *next = NULL;
    int rewritten = 0;
    if (t < 0 || vkat_local_size_rewrite((*texts)[t].text, local_size, &next, &rewritten) != VKAT_OK)
        return VKAT_ERR_NOMEM;
    free((*texts)[t].text);
    (*texts)[t].text = next;
    return VKAT_OK;
}

vkat_result vkat_include_rewrite(const vkat_space *s, const vkat_source_set *set, const vkat_value *env,
                                 const uint32_t local_size[3], vkat_include_text **texts, size_t *count,
                                 vkat_error *err)
{
    *texts = NULL;
    *count = 0;
    if (s->replace_local_size && include_local_size(set, local_size, texts, count) != VKAT_OK) {
        vkat_include_texts_free(*texts, *count);
        *texts = NULL, *count = 0;
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
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
