/* aapace.c - an A/A pair's test, adjusted for the emulator's pace.
 *
 * A TCG guest's CPU runs at a pace that moves from window to window by
 * 10-30%, and a workload whose think section is calibrated in iterations
 * does fewer operations in a slow window, whichever arm runs it.  Each
 * window records the think's sampled median (engine/drift.c); the arms of
 * an A/A pair cannot change it (the think runs outside the lock and the
 * request), so the pair's log ratio is adjusted for it (lib/ancova.c).
 * The plain Welch test stays beside it in the check, and a workload that
 * samples no think (think_ns below 500 ns, or none) is tested plainly. */
#include "aapace.h"

#include <math.h>
#include <stdlib.h>

#include "resload.h"
#include "../lib/fields.h"

/* Windows with ops > 0: their ops/s and think medians; *all_cov says
 * whether every such window has a think median > 0. */
static size_t windows_of(const json_t *r, double **ops, double **cov, int *all_cov)
{
	const json_t *reps = json_object_get(r, fld_r_reps), *x;
	size_t n = json_array_size(reps), i, k = 0;
	double *v = calloc(2 * (n ? n : 1), sizeof(*v));

	if (!v)
		abort();
	*all_cov = 1;
	json_array_foreach(reps, i, x) {
		double o = res_num(x, fld_ops_per_sec), c = res_num(x, fld_cal_think_p50);

		if (!(isfinite(o) && o > 0))
			continue;
		*all_cov &= isfinite(c) && c > 0;
		v[k] = o;
		v[(n ? n : 1) + k++] = c;
	}
	*ops = v;
	*cov = v + (n ? n : 1);
	return k;
}

void aa_test(const json_t *a, const json_t *b, struct aa_test *t)
{
	double *oa, *ca, *ob, *cb;
	int ka, kb;

	t->na = windows_of(a, &oa, &ca, &ka);
	t->nb = windows_of(b, &ob, &cb, &kb);
	st_welch_log(oa, t->na, ob, t->nb, &t->raw);
	t->adjusted = ka && kb && st_ancova_log(oa, ca, t->na, ob, cb, t->nb, &t->w, &t->slope);
	if (!t->adjusted) {
		t->w = t->raw;
		t->slope = NAN;
	}
	free(oa);
	free(ob);
}

json_t *aa_test_json(const struct aa_test *t, double level, double power)
{
	if (!t->adjusted)
		return NULL;
	json_t *u = json_object();

	if (t->raw.ok) {
		json_object_set_new(u, "ratio", json_real(t->raw.ratio));
		if (isfinite(t->raw.lo))
			json_object_set_new(u, "ratio_ci95", json_pack("[f,f]", t->raw.lo, t->raw.hi));
		if (isfinite(t->raw.p))
			json_object_set_new(u, "p", json_real(t->raw.p));
		double m = st_mde_log(&t->raw, level, power);

		if (isfinite(m))
			json_object_set_new(u, "mde", json_real(m));
	}
	return json_pack("{s:s,s:f,s:o}", "covariate", fld_cal_think_p50, "slope", t->slope,
			 "unadjusted", u);
}
