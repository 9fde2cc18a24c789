/* aastop.c - the looks of an A/A check and its decision at each (the
 * runner's side of harness/report/aacheck.c: the same test of log ops/s, adjusted
 * for the emulator's pace where every window measured it, the same TOST,
 * Schuirmann 1987). */
#include "aastop.h"

#include <math.h>

#include "../lib/fields.h"
#include "../lib/stats.h"

void aastop_plan(const struct run_params *p, struct aa_plan *pl)
{
	size_t lo = p->repetitions < 2 ? 2 : (size_t)p->repetitions;
	size_t hi = p->repetitions_max > (int64_t)lo ? (size_t)p->repetitions_max : lo;
	size_t cap = sizeof(pl->looks) / sizeof(pl->looks[0]);

	pl->margin = p->check_margin_pct / 100;
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

json_t *aastop_check(const struct aa_plan *pl, const double *dry, const double *dry_pace,
		     const double *real, const double *real_pace, size_t n, int *decided)
{
	struct st_pace t;
	json_t *looks = json_array(), *j, *adj;
	double tost;

	for (size_t i = 0; i < pl->nlooks; i++)
		json_array_append_new(looks, json_integer((json_int_t)pl->looks[i]));
	st_pace_test(dry, dry_pace, n, real, real_pace, n, &t);
	const struct st_welch w = t.w;
	int d = st_equiv_decide(&w, pl->margin, pl->level, &tost);
	const char *verdict = d > 0 ? "equivalent" : d < 0 ? "different" : NULL;

	*decided = d != 0;
	j = json_pack("{s:f,s:f,s:o,s:f,s:I,s:s?}", "margin_pct", 100 * pl->margin, "alpha",
		      AASTOP_ALPHA, "looks", looks, "level", pl->level, "n", (json_int_t)n,
		      "decided", verdict);
	if (w.ok) {
		json_object_set_new(j, "ratio", json_real(w.ratio));
		if (isfinite(w.p)) {
			json_object_set_new(j, "p", json_real(w.p));
			json_object_set_new(j, "ratio_ci95", json_pack("[f,f]", w.lo, w.hi));
		}
		if (isfinite(tost))
			json_object_set_new(j, "tost_p", json_real(tost));
	}
	if ((adj = st_pace_json(&t, fld_cal_think_p50, pl->level, AASTOP_POWER)))
		json_object_set_new(j, "adjusted", adj);
	return j;
}
