/* power.c - what a compare row could have seen: the minimum detectable
 * effect against a second, independent formula for the t quantiles, the
 * equivalence test, a collapse, and the false-positive rate of true A/A
 * pairs drawn from one lognormal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../harness/report/aacheck.h"
#include "../../harness/report/compare.h"
#include "../../harness/lib/stats.h"
#include "tap.h"

#define NEAR(x, y, tol) (fabs((x) - (y)) <= (tol))

/* The t quantile from the normal one by the Cornish-Fisher expansion
 * (Abramowitz & Stegun 26.7.5), not by GSL's inversion. */
static double t_quantile_cf(double z, double nu)
{
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;

	return z + g1 / nu + g2 / (nu * nu) + g3 / (nu * nu * nu) + g4 / (nu * nu * nu * nu);
}

/* A result of spin-tas at 1 thread with these ops/s per window. */
static json_t *result(const char *label, const double *v, size_t n)
{
	json_t *reps = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(reps, json_pack("{s:f}", "ops_per_sec", v[i]));
	return json_pack("{s:s,s:s,s:{s:i},s:s,s:o}", "workload", "spin-tas", "label", label,
			 "params", "threads", 1, "status", "ok", "repetitions", reps);
}

static json_t *doc_of(json_t *results)
{
	return json_pack("{s:s,s:{},s:o}", "schema", "slicebench/1", "meta", "results", results);
}

static json_t *compare2(json_t *a, json_t *b, const struct cmp_opts *o)
{
	json_t *docs[2] = { doc_of(json_pack("[o]", a)), doc_of(json_pack("[o]", b)) }, *rep;
	const char *names[2] = { "a.json", "b.json" };
	char err[256];

	if (cmp_docs(docs, names, 2, o, &rep, err, sizeof(err)))
		rep = NULL;
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rep;
}

int main(void)
{
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .nmetrics = 1 };
	double a[10], b[12];

	o.metrics[0] = cmp_metric_find("ops_per_sec");
	/* Logs at mean +- s, alternating: the sample variance of n such logs
	 * is s^2 n / (n - 1) exactly. */
	const double sa = 0.1, sb = 0.2;

	for (int i = 0; i < 10; i++)
		a[i] = 1e6 * exp(i % 2 ? sa : -sa);
	for (int i = 0; i < 12; i++)
		b[i] = 1.1e6 * exp(i % 2 ? sb : -sb);
	double va = sa * sa * 10 / 9 / 10, vb = sb * sb * 12 / 11 / 12;
	double se = sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / 9 + vb * vb / 11);
	/* z(0.975) and z(0.8) from the normal tables. */
	double want = exp((t_quantile_cf(1.959963985, df) + t_quantile_cf(0.8416212336, df)) * se);
	struct st_welch w;

	st_welch_log(a, 10, b, 12, &w);
	CHECK(NEAR(w.se, se, 1e-12) && NEAR(w.df, df, 1e-9), "welch: se %.6f df %.3f (want %.6f, %.3f)",
	      w.se, w.df, se, df);
	double mde = st_mde_log(&w, 0.05, 0.8);

	CHECK(NEAR(mde, want, 1e-4 * want), "mde: x%.6f at alpha 0.05, power 0.8 (want x%.6f)", mde,
	      want);
	json_t *rep = compare2(result("a", a, 10), result("b", b, 12), &o);
	const json_t *row = json_array_get(json_object_get(rep, "rows"), 0);

	CHECK(row && NEAR(json_number_value(json_object_get(json_object_get(row, "mde"), "ratio")),
			  want, 1e-4 * want),
	      "compare: the only row's mde is x%.4f at alpha 0.05", want);
	char buf[64];

	snprintf(buf, sizeof(buf), "underpowered: could detect >= x%.3g", want);
	CHECK(row && !strcmp(json_string_value(json_object_get(row, "reading")), buf),
	      "compare: the row reads \"%s\" (got \"%s\")", buf,
	      json_string_value(json_object_get(row, "reading")));
	json_decref(rep);

	/* The MDE comes from the design, never from the row's p or its rank:
	 * four rows of one spread and n, their B sides 0%, 3%, 10% and 30% up
	 * (four different p), read one MDE, at alpha / 4 with the unadjusted
	 * one beside it; tested as exploratory rows, at alpha each. */
	{
		const double up[4] = { 1.0, 1.03, 1.1, 1.3 };
		json_t *ra = json_array(), *rb = json_array();
		char lbl[16];

		for (int k = 0; k < 4; k++) {
			double bb[12];

			for (int i = 0; i < 12; i++)
				bb[i] = up[k] * 1.1e6 * exp(i % 2 ? sb : -sb);
			snprintf(lbl, sizeof(lbl), "r%d", k);
			json_array_append_new(ra, result(lbl, a, 10));
			json_array_append_new(rb, result(lbl, bb, 12));
		}
		for (int fam = 0; fam < 2; fam++) {
			json_t *docs[2] = { doc_of(json_deep_copy(ra)), doc_of(json_deep_copy(rb)) };
			const char *names[2] = { "a.json", "b.json" };
			char err[256];
			struct cmp_opts of = o;

			of.family = fam ? CMP_FAM_EXPLORATORY : CMP_FAM_REPORT;
			json_t *r4 = NULL;
			int rc = cmp_docs(docs, names, 2, &of, &r4, err, sizeof(err));
			const json_t *rows = json_object_get(r4, "rows"), *x;
			size_t i, same = 0, nrows = json_array_size(rows);
			double m0 = json_number_value(json_object_get(
				json_object_get(json_array_get(rows, 0), "mde"), "ratio"));
			double want_l = fam ? 0.05 : 0.05 / 4;

			json_array_foreach(rows, i, x) {
				const json_t *md = json_object_get(x, "mde");

				same += NEAR(json_number_value(json_object_get(md, "ratio")), m0, 1e-12) &&
					NEAR(json_number_value(json_object_get(md, "alpha")), want_l,
					     1e-15) &&
					(fam ? !json_object_get(md, "unadjusted")
					     : NEAR(json_number_value(json_object_get(
							    json_object_get(md, "unadjusted"), "ratio")),
						    mde, 1e-4 * mde));
			}
			CHECK(!rc && nrows == 4 && same == 4 &&
				      NEAR(m0, st_mde_log(&w, want_l, 0.8), 1e-4 * m0),
			      "compare: 4 rows of one spread and n, different p, %s: one MDE x%.4f at "
			      "%g%s",
			      fam ? "exploratory" : "one family", m0, want_l,
			      fam ? "" : ", the unadjusted one beside it");
			json_decref(r4);
			json_decref(docs[0]);
			json_decref(docs[1]);
		}
		json_decref(ra);
		json_decref(rb);
	}
	double mde3 = st_mde_log(&w, 0.05 / 3, 0.8);
	double want3 = exp((t_quantile_cf(gsl_cdf_ugaussian_Qinv(0.05 / 6), df) +
			    t_quantile_cf(0.8416212336, df)) * se);

	CHECK(NEAR(mde3, want3, 2e-4 * want3) && mde3 > mde,
	      "mde: at alpha/3 x%.5f (want x%.5f), larger than at alpha", mde3, want3);

	/* TOST: log ratio d, margin e: max(Q((d+e)/se), P((d-e)/se)). */
	double d = log(w.ratio), e = log(1.3);
	double tost = st_tost_log(&w, 0.3);
	double tref = fmax(gsl_cdf_tdist_Q((d + e) / se, df), gsl_cdf_tdist_P((d - e) / se, df));

	CHECK(NEAR(tost, tref, 1e-12), "tost: p %.5f against +-30%% (want %.5f)", tost, tref);
	for (int i = 0; i < 10; i++)
		b[i] = 1.01e6 * exp(i % 2 ? 0.01 : -0.01);
	for (int i = 0; i < 10; i++)
		a[i] = 1e6 * exp(i % 2 ? 0.01 : -0.01);
	rep = compare2(result("a", a, 10), result("b", b, 10), &o);
	row = json_array_get(json_object_get(rep, "rows"), 0);
	CHECK(row && !strcmp(json_string_value(json_object_get(row, "reading")),
			     "equivalent within +-5%") &&
		      json_is_true(json_object_get(json_object_get(row, "tost"), "equivalent")),
	      "compare: +1%% with a 1%% spread reads \"equivalent within +-5%%\" (got \"%s\")",
	      json_string_value(json_object_get(row, "reading")));
	json_decref(rep);
	o.equiv = 0.005;
	rep = compare2(result("a", a, 10), result("b", b, 10), &o);
	row = json_array_get(json_object_get(rep, "rows"), 0);
	CHECK(row && !json_is_true(json_object_get(json_object_get(row, "tost"), "equivalent")),
	      "compare: +1%% is not equivalent within a 0.5%% margin (reading \"%s\")",
	      json_string_value(json_object_get(row, "reading")));
	json_decref(rep);
	o.equiv = 0;

	/* A collapse: B ran 0 ops in 3 of 5 windows; all of B below all of
	 * A, so the exact Mann-Whitney p is 2/C(10,5) = 2/252. */
	double ca[5] = { 8.9e5, 9.1e5, 8.8e5, 9.0e5, 8.95e5 }, cb[5] = { 0, 65, 0, 120, 0 };

	rep = compare2(result("a", ca, 5), result("b", cb, 5), &o);
	row = json_array_get(json_object_get(rep, "rows"), 0);
	CHECK(row && !strcmp(json_string_value(json_object_get(row, "verdict")), "collapsed") &&
		      !strcmp(json_string_value(json_object_get(row, "reading")),
			      "collapsed: 0 ops in 3 of 5 windows of B, regressed (Mann-Whitney)") &&
		      NEAR(json_number_value(json_object_get(row, "holm_p")), 2.0 / 252, 1e-12),
	      "compare: 0 ops in 3 of 5 windows is \"collapsed\", regressed at p 2/252 (\"%s\")",
	      row ? json_string_value(json_object_get(row, "reading")) : "no row");
	CHECK(cmp_regressions(rep) == 1, "compare: a collapse that regressed counts as a regression");
	json_decref(rep);

	/* True A/A: 200 points, each declared twice (labels aa and aa2), all
	 * windows drawn from one lognormal.  The rate of pairs significant at
	 * alpha must lie where Binomial(200, alpha) puts 99.9% of its mass. */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	json_t *res = json_array();
	const size_t npairs = 200;

	gsl_rng_set(rng, 20261205);
	for (size_t k = 0; k < npairs; k++)
		for (int t = 0; t < 2; t++) {
			double v[6];

			for (int i = 0; i < 6; i++)
				v[i] = gsl_ran_lognormal(rng, log(1e6), 0.15);
			json_t *r = result(t ? "aa2" : "aa", v, 6);

			json_object_set_new(json_object_get(r, "params"), "cs_ns",
					    json_integer((json_int_t)k));
			json_array_append_new(res, r);
		}
	gsl_rng_free(rng);
	json_t *doc = doc_of(res), *tw = aa_twins(doc, &o);
	size_t pos = (size_t)json_integer_value(json_object_get(tw, "positives"));
	size_t lo = 0, hi = npairs;

	while (lo < npairs && gsl_cdf_binomial_P((unsigned)lo, 0.05, (unsigned)npairs) < 0.0005)
		lo++;
	while (hi > 0 && gsl_cdf_binomial_Q((unsigned)hi - 1, 0.05, (unsigned)npairs) < 0.0005)
		hi--;
	CHECK(json_integer_value(json_object_get(tw, "pairs")) == (json_int_t)npairs &&
		      pos >= lo && pos <= hi,
	      "true A/A: %zu of %zu pairs significant at 0.05 (binomial 99.9%%: %zu..%zu)", pos,
	      npairs, lo, hi);
	json_t *ci = json_object_get(tw, "rate_ci95");

	CHECK(json_number_value(json_array_get(ci, 0)) < 0.05 &&
		      json_number_value(json_array_get(ci, 1)) > 0.05,
	      "true A/A: the rate's 95%% interval [%.3f, %.3f] holds alpha",
	      json_number_value(json_array_get(ci, 0)), json_number_value(json_array_get(ci, 1)));
	json_decref(tw);
	json_decref(doc);

	printf("%d failed\n", tap_failed);
	return tap_failed ? 1 : 0;
}
