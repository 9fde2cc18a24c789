/* qref.c - a contrast against a published number (qref.h): each treatment
 * result's metric over the reference, in the shape of compare's rows, so
 * the answer figure and the verdict table draw it as any other contrast.
 *
 * With two or more repetitions the ratio is the geometric mean of the
 * repetitions' values over the reference, its 95% interval Student's t on
 * the logs (a one-sample version of compare's Welch, compare.h), its p the
 * t test of the log mean against the log reference, Holm-corrected over
 * the contrast's rows.  A metric a result has only once (a grant duration
 * summarises every grant of every repetition) gives the ratio alone. */
#include "qref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "cmppair.h"
#include "compare.h"
#include "resget.h"
#include "../lib/fields.h"
#include "../lib/stats.h"
#include "../lib/status.h"
#include "../lib/verdict.h"

/* The test of one result's values against ref, into row. */
static void one_sample(json_t *row, const double *x, size_t n, double ref, double alpha,
		       double *p)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += log(x[i]) / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (log(x[i]) - m) * (log(x[i]) - m);
	json_object_set_new(row, "ratio", json_real(exp(m) / ref));
	json_object_set_new(json_object_get(row, "b"), "value", json_real(exp(m)));
	*p = NAN;
	if (n < 2)
		return;
	struct st_welch w = { .ok = 1, .ratio = exp(m) / ref, .df = (double)n - 1 };
	double t;

	w.se = sqrt(ss / (double)(n - 1) / (double)n);
	t = gsl_cdf_tdist_Pinv(1 - alpha / 2, w.df);
	w.lo = exp(m - t * w.se) / ref;
	w.hi = exp(m + t * w.se) / ref;
	*p = w.se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(m - log(ref)) / w.se, w.df)
		      : (m == log(ref) ? 1 : 0);
	w.p = *p;
	json_object_set_new(row, "ratio_ci95", json_pack("[f,f]", w.lo, w.hi));
	json_object_set_new(row, "welch_p", json_real(*p));
	double mde = st_mde_log(&w, alpha, CMP_POWER);

	if (isfinite(mde))
		json_object_set_new(row, "mde", json_pack("{s:f}", "ratio", mde));
}

/* The verdicts after Holm: above or below the reference when significant
 * and outside the noise band, else inconclusive with why. */
static void verdicts(json_t *rows, double *p, size_t n, double alpha, double band)
{
	size_t i;
	json_t *row;

	st_holm(p, n);
	json_array_foreach(rows, i, row) {
		double r = res_num(row, "ratio");
		const char *v = vd_name(VD_INCONCLUSIVE), *why = "one value: no interval";
		char reading[128];

		if (isfinite(p[i])) {
			int sig = p[i] < alpha, out = r > 1 + band || r < 1 / (1 + band);

			why = !sig ? "not significant after Holm" : "within the noise band";
			if (sig && out)
				v = vd_name(r > 1 ? VD_ABOVE : VD_BELOW);
		}
		json_object_set_new(row, "verdict", json_string(v));
		json_object_set_new(row, "why", json_string(why));
		snprintf(reading, sizeof(reading), "%s (x%.3g of the reference)",
			 vd_is(v, VD_INCONCLUSIVE) ? why : v, r);
		json_object_set_new(row, "reading", json_string(reading));
	}
}

json_t *qref_report(json_t *const *docs, size_t n, const json_t *c, qref_in_fn *in, char *why,
		    size_t len)
{
	const struct cmp_metric *m = cmp_metric_find(res_str(c, "metric", "ops_per_sec"));
	double ref = res_num(c, "reference"), alpha = 0.05, band = 0.05;
	json_t *all = json_array(), *rows = json_array(), *nc = json_array(), *r;
	size_t i;

	for (size_t d = 0; d < n; d++)
		json_array_foreach(json_object_get(docs[d], fld_results), i, r)
			if (in(docs[d], r, c) && rs_is(res_str(r, fld_r_status, ""), RS_OK))
				json_array_append(all, r);
	json_t **v = malloc((json_array_size(all) + 1) * sizeof(*v));
	double *p = malloc((json_array_size(all) + 1) * sizeof(*p));

	if (!v || !p)
		abort();
	json_array_foreach(all, i, r)
		v[i] = r;
	json_t *var = cmp_variation(v, json_array_size(all));
	size_t np = 0;

	json_array_foreach(all, i, r) {
		double *x;
		int one;
		size_t k = 0, nx = cmp_metric_values(r, m, &x, &one);
		char pt[512];

		cmp_point_desc(r, var, pt, sizeof(pt));
		for (size_t j = 0; j < nx; j++)
			if (x[j] > 0 && isfinite(x[j]))
				x[k++] = x[j];
		if (k < nx || !k) { /* a zero has no log: the row would say nothing */
			json_array_append_new(nc, json_sprintf("%s %s: %zu of %zu values of %s not "
							       "above 0", res_str(r, fld_r_workload, "?"),
							       pt, nx - k, nx, m->name));
			free(x);
			continue;
		}
		json_t *row = json_pack("{s:s,s:{s:s,s:f,s:i},s:{s:s,s:i}}", "point", pt, "a",
					"workload", res_str(c, "published_by", "the reference"),
					"value", ref, "n", 0, "b", "workload",
					res_str(r, fld_r_workload, "?"), "n", (json_int_t)k);

		one_sample(row, x, k, ref, alpha, &p[np++]);
		json_array_append_new(rows, row);
		free(x);
	}
	verdicts(rows, p, np, alpha, band);
	free(v);
	free(p);
	json_decref(var);
	json_decref(all);
	if (!json_array_size(rows) && !json_array_size(nc)) {
		snprintf(why, len, "no ok result is in the treatment");
		json_decref(rows);
		json_decref(nc);
		return NULL;
	}
	/* a measured number against a published one: a discrepancy of 10x is
	 * the finding (grants of tens of us against slice_test's
	 * published mean of a few hundred ns), so the axis may reach
	 * 128x (qref.h) */
	return json_pack("{s:o,s:o,s:f,s:f}", "rows", rows, "not_compared", nc, "threshold_pct",
			 100 * band, "axis_max", 128.0);
}
