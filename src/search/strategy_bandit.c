/* strategy_bandit.c — "auto", the default measured on replays: a bandit that shares the budget among the
 * model, local search, annealing and the Gaussian process (the members that did best on the development tables;
 * genetic and de lagged there, and the GP replaced the random forest in the third session: better at 25-200
 * evaluations on the shared and the held-out tables) by their recent gains. Each proposal comes from one member,
 * chosen epsilon-greedily by its discounted mean gain (relative improvement of the best time its proposals
 * brought); every observation is told to every member, so a member resumes from the best point whoever found it.
 * Once the best time has not improved for STALE observations the incumbent's basin is taken as exhausted: for
 * STALE_SURROGATE more observations the GP (whose uncertainty ranks unmeasured regions across the whole space, not
 * only near the incumbent) and local search (the member that leaves a basin: kicks and far restarts) take turns,
 * then local search proposes alone until something better turns up. Giving the surrogate that window only, not the
 * whole stale phase, is what keeps local search's restarts: the one way out of an isolated optimum's surroundings
 * found so far (convolution_A100). Only successful observations count towards staleness: a failure (a compile
 * error, or in a replay with missing configurations charged, one of them) says nothing of the incumbent's basin,
 * and counting them sent searches of mostly invalid spaces into the stale phase early (replayed with missing
 * configurations charged, the four shared tables: 0.978 -> 0.980 after 400, 0.989 -> 0.993 after 800; unchanged
 * with them free; records/session6-issue-22.md). The members are fixed here, not looked up by name, so
 * registering a new strategy does not silently change the default. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const vkat_strategy_ops vkat_strategy_annealing, vkat_strategy_local, vkat_strategy_model, vkat_strategy_gp;

#define ARMS 4
#define EPSILON 0.2
#define DISCOUNT 0.97 /* per observation: gains older than ~30 evaluations fade */
#define STALE 40      /* observations without a new best after which only local search and the GP propose */
/* Observations of a stale phase in which the GP and local search take turns: 20 on the shared tables (10..40
 * within seed noise there; 0 cost MI50_GEMM 0.005 after 200), records/strategies-session3.md. */
#define STALE_SURROGATE 20
#define LOCAL_ARM 1
#define SURROGATE_ARM 3

typedef struct bandit_state {
    vkat_search_space sp;
    uint64_t rng;
    const vkat_strategy_ops *ops[ARMS];
    void *arm[ARMS];
    double gain[ARMS], pulls[ARMS];
    uint64_t proposals[ARMS];
    double best_s;
    uint64_t stale; /* observations since the best time last improved */
    vkat_index_map owner; /* encoded proposal -> arm (tag), until observed */
    vkat_validity *validity; /* the chance of success learned so far: the members' oracle and weight */
    unsigned next;
} bandit_state;

static void bandit_destroy(void *state)
{
    bandit_state *s = state;
    if (!s)
        return;
    for (int i = 0; i < ARMS; i++)
        if (s->arm[i])
            s->ops[i]->destroy(s->arm[i]);
    vkat_index_map_free(&s->owner);
    vkat_validity_free(s->validity);
    free(s);
}

static void *bandit_create(const vkat_search_space *space, uint64_t seed)
{
    bandit_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    /* The surrogate last (the forest's seat until the third session): the others keep their seeds. */
    const vkat_strategy_ops *ops[ARMS] = {&vkat_strategy_model, &vkat_strategy_local, &vkat_strategy_annealing,
                                          &vkat_strategy_gp};
    s->sp = *space;
    s->rng = seed ^ 0x243f6a8885a308d3ull;
    s->best_s = INFINITY;
    vkat_search_space member_space = *space;
    /* The members walk the space through a learned oracle: what is unlikely to succeed, judged by what failed so
     * far (search_validity.c), costs them no evaluation. Its own seed, so the members keep theirs. */
    if (!(s->validity = vkat_validity_create(space, seed ^ 0x13198a2e03707344ull))) {
        bandit_destroy(s);
        return NULL;
    }
    vkat_validity_attach(s->validity, &member_space);
    for (int i = 0; i < ARMS; i++) {
        s->ops[i] = ops[i];
        uint64_t arm_seed = vkat_rng_next(&s->rng);
        if (!(s->arm[i] = ops[i]->create(&member_space, arm_seed))) {
            bandit_destroy(s);
            return NULL;
        }
    }
    return s;
}

static int pick(bandit_state *s)
{
    /* Every member proposes twice before gains decide, so none is judged on nothing. */
    for (int i = 0; i < ARMS; i++)
        if (s->proposals[i] < 2)
            return i;
    /* Stalled: the model and annealing keep proposing around the incumbent, which is what stalled. */
    if (s->stale >= STALE)
        return s->stale < STALE + STALE_SURROGATE && (s->next++ & 1) == 0 ? SURROGATE_ARM : LOCAL_ARM;
    if (vkat_rng_uniform(&s->rng) < EPSILON)
        return (int)vkat_rng_below(&s->rng, ARMS);
    int best = 0;
    double best_v = -1;
    for (int i = 0; i < ARMS; i++) {
        double v = s->pulls[i] > 0 ? s->gain[i] / s->pulls[i] : 0;
        /* Ties (no gains yet) go round-robin rather than to the first member. */
        if (v > best_v || (v == best_v && (s->next + (unsigned)i) % ARMS == 0)) {
            best_v = v;
            best = i;
        }
    }
    s->next++;
    return best;
}

static bool bandit_propose(void *state, uint32_t *choice)
{
    bandit_state *s = state;
    int first = pick(s);
    for (int k = 0; k < ARMS; k++) {
        int i = (first + k) % ARMS;
        if (!s->ops[i]->propose(s->arm[i], choice))
            continue;
        s->proposals[i]++;
        int added;
        size_t slot = vkat_index_map_put(&s->owner, vkat_search_encode(&s->sp, choice), 0, (uint32_t)i, &added);
        if (slot != SIZE_MAX && !added)
            s->owner.tags[slot] = (uint32_t)i;
        return true;
    }
    return false;
}

static void bandit_observe(void *state, const uint32_t *choice, double seconds)
{
    bandit_state *s = state;
    size_t slot = vkat_index_map_find(&s->owner, vkat_search_encode(&s->sp, choice));
    int who = slot != SIZE_MAX && s->owner.tags[slot] < (uint32_t)ARMS ? (int)s->owner.tags[slot] : -1;
    if (slot != SIZE_MAX)
        s->owner.tags[slot] = UINT32_MAX;
    double gain = 0;
    if (isfinite(seconds) && seconds < s->best_s) {
        gain = isfinite(s->best_s) ? (s->best_s - seconds) / s->best_s : 0;
        s->best_s = seconds;
        s->stale = 0;
    } else if (isfinite(seconds))
        s->stale++; /* a failure says nothing of the incumbent's basin */
    for (int i = 0; i < ARMS; i++) {
        s->gain[i] *= DISCOUNT;
        s->pulls[i] *= DISCOUNT;
    }
    if (who >= 0) {
        s->gain[who] += gain;
        s->pulls[who] += 1;
    }
    vkat_validity_observe(s->validity, choice, seconds);
    for (int i = 0; i < ARMS; i++)
        s->ops[i]->observe(s->arm[i], choice, seconds);
}

/* The member that proposed choice, until it is observed (the owner map's tag). */
static const char *bandit_origin(void *state, const uint32_t *choice)
{
    const bandit_state *s = state;
    size_t slot = vkat_index_map_find(&s->owner, vkat_search_encode(&s->sp, choice));
    return slot != SIZE_MAX && s->owner.tags[slot] < (uint32_t)ARMS ? s->ops[s->owner.tags[slot]]->name : NULL;
}

const vkat_strategy_ops vkat_strategy_bandit = {
    "auto", "a bandit sharing the budget among model, local, annealing and gp by their recent gains",
    bandit_create, bandit_propose, bandit_observe, bandit_destroy, bandit_origin,
};
