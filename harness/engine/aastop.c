/* aastop.c - the looks of an A/A check and its decision at each, by
 * harness/lib/aatest.c's test, the one compare's check makes. */
#include "aastop.h"

#include <math.h>

#include "../lib/aatest.h"

void aastop_plan(const struct run_params *p, struct aa_plan *pl)
{
	size_t lo = p->repetitions < 2 ? 2 : (size_t)p->repetitions;
	size_t hi = p->repetitions_max > (int64_t)lo ? (size_t)p->repetitions_max : lo;
	size_t cap = sizeof(pl->looks) / sizeof(pl->looks[0]);

	pl->margin = p->check_margin_pct / 100;
	pl->floor = aa_floor(p->duration_s);
	pl->nlooks = 0;
	if (!(p->check_margin_pct > 0))
		return;
	for (size_t n = lo; n < hi && pl->nlooks + 1 < cap; n *= 2)
		pl->looks[pl->nlooks++] = n;
	pl->looks[pl->nlooks++] = hi;
	pl->level = AASTOP_ALPHA / (double)pl->nlooks;
}

int aastop_is_look(const struct aa_plan *pl, size_t n)
{
	for (size_t i = 0; i < pl->nlooks; i++)
		if (pl->looks[i] == n)
			return 1;
	return 0;
}

json_t *aastop_check(const struct aa_plan *pl, const double *dry, const double *real, size_t n,
		     int *decided)
{
	struct aa_test t;
	json_t *looks = json_array(), *j;

	for (size_t i = 0; i < pl->nlooks; i++)
		json_array_append_new(looks, json_integer((json_int_t)pl->looks[i]));
	aa_test_run(real, n, dry, n, 1, pl->floor, pl->margin, pl->level, AASTOP_POWER, &t);
	*decided = t.decision != 0;
	j = aa_test_json(&t);
	json_object_update_new(j, json_pack("{s:f,s:f,s:o,s:f,s:I,s:s?}", "margin_pct",
					     100 * pl->margin, "alpha", AASTOP_ALPHA, "looks", looks,
					     "level", pl->level, "n", (json_int_t)n, "decided",
					     t.decision > 0	? "equivalent"
					     : t.decision < 0 ? "different"
							      : NULL));
	return j;
}
