/* plotstyle.c - the colour, point and dash of every workload.
 *
 * Colours are the Okabe-Ito palette (Okabe and Ito, "Color Universal
 * Design", 2008), distinguishable with the common colour-vision
 * deficiencies, plus a brown and a grey; yellow is left out, it vanishes
 * on white. */
#include "plotstyle.h"

#include <stdio.h>
#include <string.h>

static const struct {
	const char *name;
	unsigned rgb;
	int sleeps;
} locks[] = {
	{ "tas", 0x0072B2, 0 },	      { "ticket", 0xD55E00, 0 },
	{ "mcs", 0xCC79A7, 0 },	      { "adaptive", 0xE69F00, 1 },
	{ "futex", 0x009E73, 1 },     { "pthread", 0x56B4E9, 1 },
	{ "pthread-adaptive", 0x000000, 1 }, { "futex-pi", 0x8C510A, 1 },
	{ "hog", 0x999999, 0 },	      { "idle", 0x555555, 0 },
};

/* Filled shapes; a dry control uses the hollow one gnuplot numbers one
 * lower (7 filled circle, 6 hollow circle, ...).  Dash patterns as
 * strings: gnuplot's numbered dash types repeat after five. */
static const struct {
	const char *name;
	int pt;
	const char *dash;
} policies[] = {
	{ "none", 7, NULL },	    { "slice", 5, "-- " },	{ "before", 9, "-. " },
	{ "per-attempt", 13, "-.. " }, { "noyield", 11, "--- . " }, { "noclear", 15, "- - . . " },
};
static const char dry_dash[] = ". ", *const spare_dash[] = { "---  ", "-  .  ", "--  ..  " };

/* What the workloads that exist before locks and policies were separate
 * axes are made of. */
static const struct {
	const char *workload, *lock, *policy;
	int dry;
} known[] = {
	{ "spin-tas", "tas", "none", 0 },
	{ "slice-spin", "tas", "slice", 0 },
	{ "slice-dry", "tas", "slice", 1 },
	{ "spin-ticket", "ticket", "none", 0 },
	{ "mcs", "mcs", "none", 0 },
	{ "adaptive", "adaptive", "none", 0 },
	{ "slice-adaptive", "adaptive", "slice", 0 },
	{ "slice-adaptive-dry", "adaptive", "slice", 1 },
	{ "futex", "futex", "none", 0 },
	{ "pthread", "pthread", "none", 0 },
	{ "pthread-adaptive", "pthread-adaptive", "none", 0 },
	{ "futex-pi", "futex-pi", "none", 0 },
	{ "cpu-hog", "hog", "none", 0 },
	{ "slice-hog", "hog", "noclear", 0 },
	{ "slice-noyield", "hog", "noyield", 0 },
	{ "idle", "idle", "none", 0 },
};

/* Colours for locks the table does not know, picked by name. */
static const unsigned spare[] = { 0x4D4D4D, 0x7F3C8D, 0x11A579, 0x3969AC, 0xE73F74, 0x80BA5A };
static const int spare_pt[] = { 3, 1, 2 }; /* star, plus, cross: never filled, never dry */

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* FNV-1a: the same name gets the same fallback in every report. */
static unsigned hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void pstyle_of(const char *workload, const json_t *params, struct pstyle *s)
{
	const char *lock = json_string_value(json_object_get(params, "lock"));
	const char *policy = json_string_value(json_object_get(params, "policy"));
	const json_t *dry = json_object_get(params, "dry");
	size_t i;

	memset(s, 0, sizeof(*s));
	s->dry = json_is_true(dry);
	if (!lock) {
		for (i = 0; i < NELEM(known) && strcmp(known[i].workload, workload); i++)
			;
		lock = i < NELEM(known) ? known[i].lock : workload;
		if (!policy)
			policy = i < NELEM(known) ? known[i].policy : "none";
		if (!dry && i < NELEM(known))
			s->dry = known[i].dry;
	}
	if (!policy)
		policy = "none";
	snprintf(s->lock, sizeof(s->lock), "%s", lock);
	snprintf(s->policy, sizeof(s->policy), "%s", policy);
	for (i = 0; i < NELEM(locks) && strcmp(locks[i].name, lock); i++)
		;
	s->rgb = i < NELEM(locks) ? locks[i].rgb : spare[hash(lock) % NELEM(spare)];
	s->sleeps = i < NELEM(locks) ? locks[i].sleeps : 0;
	s->order = (int)i * 100;
	for (i = 0; i < NELEM(policies) && strcmp(policies[i].name, policy); i++)
		;
	if (i < NELEM(policies)) {
		s->pt = policies[i].pt - (s->dry ? 1 : 0);
		s->dash = s->dry ? dry_dash : policies[i].dash;
	} else {
		s->pt = spare_pt[hash(policy) % NELEM(spare_pt)];
		s->dash = s->dry ? dry_dash : spare_dash[hash(policy) % NELEM(spare_dash)];
	}
	s->order += (int)i * 2 + s->dry;
}
