/* aatest.c - the A/A check's test (aatest.h): rounds as blocks, collapses
 * at the floor, TOST and the difference test at one level. */
#include "aatest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double aa_floor(double window_s)
{
	return window_s > 0 ? 0.5 / window_s : NAN;
}

/* v at the floor when it counted no operation (or is not a number above
 * zero); *collapsed counts those. */
static double at_floor(double v, double floor, size_t *collapsed)
{
	if (isfinite(v) && v > 0)
		return v;
	(*collapsed)++;
	return floor;
}

/* The one-sample t of the n paired log differences d[]. */
static void paired_log(const double *d, size_t n, struct st_welch *w)
{
	double s = 0, ss = 0;

	memset(w, 0, sizeof(*w));
	w->ratio = w->lo = w->hi = w->t = w->df = w->p = w->se = NAN;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		s += d[i];
	double m = s / (double)n;

	w->ok = 1;
	w->ratio = exp(m);
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - m) * (d[i] - m);
	st_log_test(w, m, sqrt(ss / (double)(n - 1) / (double)n), (double)(n - 1));
}

void aa_test_run(const double *real, size_t nr, const double *dry, size_t nd, int paired,
		 double floor, double margin, double level, double power, struct aa_test *t)
{
	size_t m = nr < nd ? nr : nd;
	double *v = malloc((nr + nd + 1) * sizeof(*v)), *vr = v, *vd = v + nr;

	if (!v)
		abort();
	memset(t, 0, sizeof(*t));
	t->paired = paired;
	if (paired)
		nr = nd = m;
	t->n_real = nr;
	t->n_dry = nd;
	for (size_t i = 0; i < nr; i++)
		vr[i] = at_floor(real[i], floor, &t->collapsed_real);
	for (size_t i = 0; i < nd; i++)
		vd[i] = at_floor(dry[i], floor, &t->collapsed_dry);
	if (!(floor > 0) && (t->collapsed_real || t->collapsed_dry)) {
		/* No floor to enter a collapse at: no test, never a verdict
		 * that leaves the collapse out. */
		memset(&t->w, 0, sizeof(t->w));
		t->w.ratio = t->w.p = NAN;
	} else if (paired) {
		for (size_t i = 0; i < m; i++)
			vr[i] = log(vr[i]) - log(vd[i]);
		paired_log(vr, m, &t->w);
	} else {
		st_welch_log(vd, nd, vr, nr, &t->w);
	}
	t->decision = st_equiv_decide(&t->w, margin, level, &t->tost_p);
	t->mde = t->w.ok ? st_mde_log(&t->w, level, power) : NAN;
	free(v);
}

json_t *aa_test_json(const struct aa_test *t)
{
	json_t *j = json_pack("{s:s,s:I,s:I,s:{s:I,s:I}}", "design",
			      t->paired ? "rounds" : "two samples", "n_real", (json_int_t)t->n_real,
			      "n_dry", (json_int_t)t->n_dry, "collapsed", "real",
			      (json_int_t)t->collapsed_real, "dry", (json_int_t)t->collapsed_dry);

	if (!t->w.ok)
		return j;
	json_object_set_new(j, "ratio", json_real(t->w.ratio));
	if (isfinite(t->w.lo))
		json_object_set_new(j, "ratio_ci95", json_pack("[f,f]", t->w.lo, t->w.hi));
	if (isfinite(t->w.p))
		json_object_set_new(j, "p", json_real(t->w.p));
	if (isfinite(t->tost_p))
		json_object_set_new(j, "tost_p", json_real(t->tost_p));
	if (isfinite(t->mde))
		json_object_set_new(j, "mde", json_real(t->mde));
	return j;
}
