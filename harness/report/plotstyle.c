/* plotstyle.c - the colour, point and dash of every workload, from the
 * one list of locks and policies (harness/lib/vocab.h): a name is resolved
 * through the registry, so an alias (slice-spin), its triple (tas+cs) and
 * a result recording lock "tas" and policy "cs" look the same. */
#include "plotstyle.h"

#include <stdio.h>
#include <string.h>

#include "../core/policy.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

#define LOCK_LOOK(A, n, rgb, sleeps) { rgb, sleeps },
static const struct {
	unsigned rgb;
	int sleeps;
} lock_looks[] = { SB_LOCKS(LOCK_LOOK, ) };

#define UNLOCKED_LOOK(A, name, rgb) { name, rgb },
static const struct {
	const char *name;
	unsigned rgb;
} unlocked_looks[] = { SB_UNLOCKED(UNLOCKED_LOOK, ) };

#define POL_LOOK(A, ID, name, yields, try, pt, dash, ...) [POL_##ID] = { pt, dash },
static const struct {
	int pt;
	const char *dash;
} pol_looks[POL_COUNT] = { SB_POLICIES(POL_LOOK, ) };

/* Names the lists do not know (a result from a build with other locks):
 * a colour, shape and dash picked by a hash of the name, so they look the
 * same in every report. */
static const unsigned spare[] = { 0x4D4D4D, 0x7F3C8D, 0x11A579, 0x3969AC, 0xE73F74, 0x80BA5A };
static const int spare_pt[] = { 3, 1, 2 }; /* star, plus, cross: never filled, never dry */
static const char *const spare_dash[] = { "---  ", "-  .  ", "--  ..  " };

/* FNV-1a: the same name gets the same fallback in every report. */
static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The lock's place in the list, or past it; what a workload without a
 * lock looks like after the locks. */
static size_t lock_index(const char *lock, int *known)
{
	const struct wl_lock *l = wl_lock_find(lock);
	size_t i, j;

	*known = 1;
	for (i = 0; l && wl_locks[i] && wl_locks[i] != l; i++)
		;
	if (l && i < NELEM(lock_looks))
		return i;
	for (j = 0; j < NELEM(unlocked_looks); j++)
		if (!strcmp(unlocked_looks[j].name, lock))
			return NELEM(lock_looks) + j;
	*known = 0;
	return NELEM(lock_looks) + NELEM(unlocked_looks);
}

/* The lock, policy and dry flag a workload name stands for, through the
 * registry: an alias, LOCK+POLICY[+dry], a program arm (the program as
 * it is, or under the preload library with its placement), or the name
 * of a lock alone (the policy none). */
static void resolve(const char *workload, const char **lock, const char **policy, int *dry)
{
	const struct workload_ops *o = wl_find(workload);

	*lock = workload;
	*policy = "none";
	*dry = 0;
	if (!o)
		return;
	*dry = o->dry;
	if (o->lock) {
		*lock = o->lock->name;
		*policy = wl_policy_names[o->policy];
	} else if (o->run) {
		*lock = o->preload ? "preload" : "program";
		*policy = o->preload ? o->preload : "none";
	}
}

void pstyle_of(const char *workload, const json_t *params, struct pstyle *s)
{
	const char *lock = json_string_value(json_object_get(params, "lock"));
	const char *policy = json_string_value(json_object_get(params, "policy"));
	const json_t *dry = json_object_get(params, "dry");
	const char *nlock, *npolicy;
	int ndry, lknown;
	size_t li;

	memset(s, 0, sizeof(*s));
	resolve(workload, &nlock, &npolicy, &ndry);
	if (!lock) {
		lock = nlock;
		policy = policy ? policy : npolicy;
	}
	policy = policy ? policy : "none";
	s->dry = dry ? json_is_true(dry) : ndry;
	snprintf(s->lock, sizeof(s->lock), "%s", lock);
	snprintf(s->policy, sizeof(s->policy), "%s", policy);

	li = lock_index(lock, &lknown);
	if (li < NELEM(lock_looks)) {
		s->rgb = lock_looks[li].rgb;
		s->sleeps = lock_looks[li].sleeps;
	} else {
		s->rgb = lknown ? unlocked_looks[li - NELEM(lock_looks)].rgb
				: spare[hash(lock) % NELEM(spare)];
	}
	s->order = (int)li * 100;

	enum wl_policy p = wl_policy_find(policy);

	if (p < POL_COUNT) {
		s->pt = pol_looks[p].pt - (s->dry ? 1 : 0);
		s->dash = s->dry ? SB_DRY_DASH : pol_looks[p].dash;
	} else {
		s->pt = spare_pt[hash(policy) % NELEM(spare_pt)];
		s->dash = s->dry ? SB_DRY_DASH : spare_dash[hash(policy) % NELEM(spare_dash)];
	}
	s->known = lknown && p < POL_COUNT;
	s->order += (int)p * 2 + s->dry;
}
