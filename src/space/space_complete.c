/* space_complete.c — a partial configuration made whole: the parameters a user did not name (`vkautotune compile
 * --config`, vkat_space_compile) take the first valid values in the space's own order, so a space whose first values
 * break a constraint still compiles something the tuner would run. */
#include "space.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

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
    memcpy(env, env_template, nsym * sizeof *env);
    vkat_space_env_apply(s, c, env);
    do
        found = vkat_space_check(s, env, NULL, err);
    while (found == 0 && vkat_space_step_free(s, c, env, named));
    if (found == 1)
        memcpy(choice, c, np * sizeof *c);
done:
    free(env);
    free(c);
    return found;
}
