/* ancova.c - the A/A check's test adjusted for the emulator's pace: the
 * fit against the pooled within-group slope computed by hand, the effect
 * it recovers when the pace moves, its false-positive rate over true A/A
 * pairs, what it refuses to fit, and a check built from results whose
 * windows record the think's median. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../harness/report/aacheck.h"
#include "../../harness/report/compare.h"
#include "../../harness/lib/stats.h"
#include "tap.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

/* The classic one-way ANCOVA with one covariate, on logs: the common slope
 * from the pooled within-group sums, the adjusted difference, and its
 * standard error with the residual variance over n - 3 (Montgomery,
 * Design and Analysis of Experiments, 15.3). */
static void by_hand(const double *a, const double *ca, size_t na, const double *b,
		    const double *cb, size_t nb, double *d, double *se, double *slope)
{
	double ya = 0, yb = 0, xa = 0, xb = 0, sxx = 0, sxy = 0, ss = 0;

	for (size_t i = 0; i < na; i++)
		ya += log(a[i]) / na, xa += log(ca[i]) / na;
	for (size_t i = 0; i < nb; i++)
		yb += log(b[i]) / nb, xb += log(cb[i]) / nb;
	for (size_t i = 0; i < na; i++)
		sxx += pow(log(ca[i]) - xa, 2), sxy += (log(ca[i]) - xa) * (log(a[i]) - ya);
	for (size_t i = 0; i < nb; i++)
		sxx += pow(log(cb[i]) - xb, 2), sxy += (log(cb[i]) - xb) * (log(b[i]) - yb);
	*slope = sxy / sxx;
	for (size_t i = 0; i < na; i++)
		ss += pow(log(a[i]) - ya - *slope * (log(ca[i]) - xa), 2);
	for (size_t i = 0; i < nb; i++)
		ss += pow(log(b[i]) - yb - *slope * (log(cb[i]) - xb), 2);
	double s2 = ss / (double)(na + nb - 3);

	*d = (yb - ya) - *slope * (xb - xa);
	*se = sqrt(s2 * (1.0 / na + 1.0 / nb + (xb - xa) * (xb - xa) / sxx));
}

/* n windows of one arm: the pace p (the think's median over its nominal
 * length) moves with spread sp; ops/s = base / p^k times a noise of
 * spread sn. */
static void arm(gsl_rng *r, double base, double k, double sp, double sn, size_t n, double *ops,
		double *think)
{
	for (size_t i = 0; i < n; i++) {
		double p = exp(gsl_ran_gaussian(r, sp));

		think[i] = 5000 * p;
		ops[i] = base * pow(p, -k) * exp(gsl_ran_gaussian(r, sn));
	}
}

static json_t *result(const char *w, int dry, const double *ops, const double *think, size_t n)
{
	json_t *reps = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(reps, json_pack("{s:f,s:{s:{s:f}}}", "ops_per_sec", ops[i],
						      "calibration", "think", "p50_ns", think[i]));
	return json_pack("{s:s,s:i,s:{s:b,s:i},s:s,s:o}", "workload", w, "nthreads", 2, "params",
			 "dry", dry, "noise", 0, "status", "ok", "repetitions", reps);
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double a[40], ca[40], b[40], cb[40];
	struct st_welch w, plain;
	double slope, d, se, hs;

	gsl_rng_set(r, 7);
	arm(r, 3e5, 0.8, 0.2, 0.03, 30, a, ca);
	arm(r, 3.15e5, 0.8, 0.2, 0.03, 25, b, cb);
	CHECK(st_ancova_log(a, ca, 30, b, cb, 25, &w, &slope), "fit: 30 and 25 windows fit");
	by_hand(a, ca, 30, b, cb, 25, &d, &se, &hs);
	CHECK(NEAR(log(w.ratio), d, 1e-10) && NEAR(w.se, se, 1e-10) && NEAR(slope, hs, 1e-10) &&
		      w.df == 52,
	      "fit: difference %.6f se %.6f slope %.4f df %.0f (by hand %.6f, %.6f, %.4f, 52)",
	      log(w.ratio), w.se, slope, w.df, d, se, hs);
	st_welch_log(a, 30, b, 25, &plain);
	CHECK(w.lo < 1.05 && 1.05 < w.hi && w.hi / w.lo < 1.05 && plain.hi / plain.lo > 1.15,
	      "fit: true ratio 1.05 inside [%.4f, %.4f]; Welch's interval [%.4f, %.4f] is wider",
	      w.lo, w.hi, plain.lo, plain.hi);

	/* True A/A pairs: both arms from one model, the pace spreading 20%
	 * and the rest 4%.  Significant at 0.05 in about 5% of pairs. */
	int pos = 0, npairs = 4000, eq = 0, eq_plain = 0;
	double tost;

	for (int s = 0; s < npairs; s++) {
		arm(r, 3e5, 0.9, 0.2, 0.04, 10, a, ca);
		arm(r, 3e5, 0.9, 0.2, 0.04, 10, b, cb);
		st_ancova_log(a, ca, 10, b, cb, 10, &w, &slope);
		st_welch_log(a, 10, b, 10, &plain);
		pos += w.p < 0.05;
		eq += st_equiv_decide(&w, 0.10, 0.05, &tost) == 1;
		eq_plain += st_equiv_decide(&plain, 0.10, 0.05, &tost) == 1;
	}
	double rate = (double)pos / npairs;

	/* Binomial(4000, 0.05): sd 0.0034; 0.037..0.063 is about 4 sd. */
	CHECK(rate > 0.037 && rate < 0.063,
	      "true A/A: %d of %d pairs significant at 0.05 (rate %.4f, near 0.05)", pos, npairs,
	      rate);
	CHECK(eq > 3 * npairs / 4 && eq_plain < npairs / 4,
	      "true A/A: equivalent within +-10%% in %d of %d pairs adjusted, %d plain", eq, npairs,
	      eq_plain);

	/* What it will not fit. */
	for (int i = 0; i < 5; i++)
		ca[i] = cb[i] = 5000;
	CHECK(!st_ancova_log(a, ca, 5, b, cb, 5, &w, &slope) && !w.ok && isnan(slope),
	      "refuse: a covariate without spread");
	ca[0] = 0;
	ca[1] = 4000;
	CHECK(!st_ancova_log(a, ca, 5, b, cb, 5, &w, &slope), "refuse: a think median of 0");
	CHECK(!st_ancova_log(a, ca, 1, b, cb, 5, &w, &slope), "refuse: one window on a side");

	/* A check of a control whose windows record the think's median:
	 * adjusted, decided, the plain ratio beside it. */
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .nmetrics = 1 };

	o.metrics[0] = cmp_metric_find("ops_per_sec");
	arm(r, 3e5, 1.0, 0.25, 0.02, 20, a, ca);
	arm(r, 3e5, 1.0, 0.25, 0.02, 20, b, cb);
	json_t *doc = json_pack("{s:s,s:{s:{s:i}},s:[o,o]}", "schema", "slicebench/1", "meta", "topology", "pus",
				2, "results", result("tas+pre", 0, a, ca, 20),
				result("tas+pre", 1, b, cb, 20));
	json_t *checks = aa_checks(doc, &o), *c = json_array_get(checks, 0);
	const json_t *adj = json_object_get(c, "adjusted");

	CHECK(json_array_size(checks) == 1 && adj &&
		      !strcmp(json_string_value(json_object_get(adj, "covariate")),
			      "calibration.think.p50_ns") &&
		      NEAR(json_number_value(json_object_get(adj, "slope")), -1.0, 0.15),
	      "check: adjusted for calibration.think.p50_ns, slope %.3f (model -1)",
	      json_number_value(json_object_get(adj, "slope")));
	CHECK(!strcmp(json_string_value(json_object_get(c, "verdict")), "valid") &&
		      json_object_get(json_object_get(adj, "unadjusted"), "ratio"),
	      "check: equivalent within the band (%s, ratio %.4f; unadjusted %.4f)",
	      json_string_value(json_object_get(c, "verdict")),
	      json_number_value(json_object_get(c, "ratio")),
	      json_number_value(json_object_get(json_object_get(adj, "unadjusted"), "ratio")));
	json_decref(checks);
	/* One window without a think median: the plain test, and no
	 * "adjusted" key. */
	json_t *dry = json_array_get(json_object_get(doc, "results"), 1);
	json_t *w3 = json_array_get(json_object_get(dry, "repetitions"), 3);

	json_object_del(json_object_get(w3, "calibration"), "think");
	checks = aa_checks(doc, &o);
	c = json_array_get(checks, 0);
	CHECK(c && !json_object_get(c, "adjusted") && json_object_get(c, "ratio"),
	      "check: a window without a think median leaves the check unadjusted");
	json_decref(checks);
	json_decref(doc);
	gsl_rng_free(r);
	printf("%d failed\n", tap_failed);
	return tap_failed ? 1 : 0;
}
