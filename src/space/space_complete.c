/* space_complete.c — a partial configuration made whole: the parameters a user did not name (`vkautotune compile
 * --config`, vkat_space_compile) take the first valid values in the space's own order, so a space whose first values
 * break a constraint still compiles something the tuner would run. */
#include "space.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Steps the unnamed parameters as an odometer, the last one fastest (the space's index order); 0 once it wraps. */
static int next_unnamed(const vkat_space *s, uint32_t *choice, const bool *named)
{
    for (size_t i = s->param_count; i-- > 0;) {
        if (named[i])
            continue;
        if (++choice[i] < s->params[i].value_count)
            return 1;
        choice[i] = 0;
    }
    return 0;
}

int vkat_space_complete_config(const vkat_space *s, const vkat_value *env_template, uint32_t *choice,
                               const bool *named, vkat_error *err)
{
    size_t nsym = vkat_symtab_count(s->symbols), np = s->param_count;
    vkat_value *env = malloc((nsym ? nsym : 1) * sizeof *env);
    uint32_t *c = malloc((np ? np : 1) * sizeof *c);
    int found = 0;
    if (!env || !c) {
        vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        found = -1;
        goto done;
    }
    memcpy(c, choice, np * sizeof *c);
    for (size_t i = 0; i < np; i++)
        if (!named[i])
            c[i] = 0;
    do {
        memcpy(env, env_template, nsym * sizeof *env);
        vkat_space_env_apply(s, c, env);
        size_t failed;
        found = vkat_space_check(s, env, &failed, err);
    } while (found == 0 && next_unnamed(s, c, named));
    if (found == 1)
        memcpy(choice, c, np * sizeof *c);
done:
    free(env);
    free(c);
    return found;
}
