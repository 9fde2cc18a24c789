/* ancova.c - a two-sample comparison of log values adjusted for a
 * covariate measured beside each value (analysis of covariance with one
 * common slope: log y = c0 + d * [second sample] + s * log x).
 *
 * Under emulation the CPU's pace moves from window to window, and with it
 * every loop that is calibrated in iterations: a window whose think
 * section took 30% longer did proportionally fewer operations, in either
 * arm.  The pace is measured in every window (the think section's sampled
 * median, harness/engine/drift.c), and no arm of an A/A pair changes it (the
 * think runs outside the lock and the request), so it is a covariate in
 * the textbook sense: adjusting for it removes the emulator's share of
 * the spread and leaves the arms' difference unbiased (Montgomery, Design
 * and Analysis of Experiments, ch. 15; the same idea as CUPED, Deng et
 * al., WSDM 2013).  The fit is GSL's ordinary least squares; st_pace_test
 * picks it or Welch's for an A/A pair, for compare and the runner alike. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_multifit.h>

#include "stats.h"

int st_ancova_log(const double *a, const double *ca, size_t na, const double *b,
		  const double *cb, size_t nb, struct st_welch *w, double *slope)
{
	size_t n = na + nb;
	int ok = 0;

	memset(w, 0, sizeof(*w));
	w->ratio = w->lo = w->hi = w->t = w->df = w->p = w->se = NAN;
	*slope = NAN;
	/* Three coefficients, and at least one degree of freedom left on
	 * each side of them. */
	if (na < 2 || nb < 2 || n < 5)
		return 0;
	gsl_matrix *x = gsl_matrix_alloc(n, 3), *cov = gsl_matrix_alloc(3, 3);
	gsl_vector *y = gsl_vector_alloc(n), *c = gsl_vector_alloc(3);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 3);
	double chisq, xmin = INFINITY, xmax = -INFINITY;

	if (!x || !cov || !y || !c || !ws)
		abort();
	for (size_t i = 0; i < n; i++) {
		double v = i < na ? a[i] : b[i - na], cv = i < na ? ca[i] : cb[i - na];

		if (!(v > 0) || !isfinite(v) || !(cv > 0) || !isfinite(cv))
			goto out;
		gsl_vector_set(y, i, log(v));
		gsl_matrix_set(x, i, 0, 1);
		gsl_matrix_set(x, i, 1, i < na ? 0 : 1);
		gsl_matrix_set(x, i, 2, log(cv));
		xmin = fmin(xmin, log(cv));
		xmax = fmax(xmax, log(cv));
	}
	/* A covariate without spread adjusts nothing (and the fit would be
	 * singular): the caller keeps the plain test. */
	if (!(xmax > xmin))
		goto out;
	/* GSL scales cov by the residual variance chisq / (n - 3). */
	if (gsl_multifit_linear(x, y, c, cov, &chisq, ws))
		goto out;
	ok = w->ok = 1;
	*slope = gsl_vector_get(c, 2);
	st_log_test(w, gsl_vector_get(c, 1), sqrt(gsl_matrix_get(cov, 1, 1)), (double)(n - 3));
out:
	gsl_multifit_linear_free(ws);
	gsl_vector_free(c);
	gsl_vector_free(y);
	gsl_matrix_free(cov);
	gsl_matrix_free(x);
	return ok;
}

/* The values > 0 of v (and their covariates) packed to the front of o and
 * oc; *all whether each kept value has a covariate > 0. */
static size_t kept(const double *v, const double *c, size_t n, double *o, double *oc, int *all)
{
	size_t k = 0;

	*all = c != NULL;
	for (size_t i = 0; i < n; i++) {
		if (!(isfinite(v[i]) && v[i] > 0))
			continue;
		*all &= c && isfinite(c[i]) && c[i] > 0;
		oc[k] = c ? c[i] : NAN;
		o[k++] = v[i];
	}
	return k;
}

void st_pace_test(const double *a, const double *ca, size_t na, const double *b,
		  const double *cb, size_t nb, struct st_pace *t)
{
	double *v = malloc(2 * (na + nb + 1) * sizeof(*v));
	double *oa = v, *ob = v + na, *pa = v + na + nb, *pb = pa + na;
	int ka, kb;

	if (!v)
		abort();
	t->na = kept(a, ca, na, oa, pa, &ka);
	t->nb = kept(b, cb, nb, ob, pb, &kb);
	st_welch_log(oa, t->na, ob, t->nb, &t->raw);
	t->adjusted = ka && kb && st_ancova_log(oa, pa, t->na, ob, pb, t->nb, &t->w, &t->slope);
	if (!t->adjusted) {
		t->w = t->raw;
		t->slope = NAN;
	}
	free(v);
}

json_t *st_pace_json(const struct st_pace *t, const char *name, double level, double power)
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
	return json_pack("{s:s,s:f,s:o}", "covariate", name, "slope", t->slope, "unadjusted", u);
}
