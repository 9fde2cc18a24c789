/* aastop.c - the runner's A/A check: its looks and level, its decisions
 * on samples of known spread, and the reason for the level: with the true
 * ratio on the margin's edge, looking at every doubling at alpha declares
 * equivalence more often than alpha, at alpha / looks it does not.  The
 * test itself, by rounds and under drift, is tests/unit/aatest.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../harness/engine/aastop.h"
#include "tap.h"

static void plan(struct aa_plan *pl, int64_t reps, int64_t max, double margin_pct)
{
	struct run_params p;

	memset(&p, 0, sizeof(p));
	p.repetitions = reps;
	p.repetitions_max = max;
	p.check_margin_pct = margin_pct;
	aastop_plan(&p, pl);
}

static void draw(gsl_rng *r, double *x, size_t n, double center, double sd)
{
	for (size_t i = 0; i < n; i++)
		x[i] = center * exp(gsl_ran_gaussian(r, sd));
}

static const char *decided(const struct aa_plan *pl, const double *a, const double *b, size_t n)
{
	static char out[32];
	int d;
	json_t *j = aastop_check(pl, a, b, n, &d);
	const char *v = json_string_value(json_object_get(j, "decided"));

	snprintf(out, sizeof(out), "%s", d && v ? v : "undecided");
	json_decref(j);
	return out;
}

/* Sequential looks at the given level on one pair drawn window by window,
 * true ratio `ratio`: 1 when some look declares equivalence. */
static int seq_equivalent(gsl_rng *r, const struct aa_plan *pl, double level, double ratio,
			  double sd)
{
	double a[64], b[64];
	struct aa_plan p = *pl;

	p.level = level;
	draw(r, a, pl->looks[pl->nlooks - 1], 1e6, sd);
	draw(r, b, pl->looks[pl->nlooks - 1], 1e6 * ratio, sd);
	for (size_t k = 0; k < p.nlooks; k++) {
		int d;
		json_t *j = aastop_check(&p, a, b, p.looks[k], &d);
		int eq = d && !strcmp(json_string_value(json_object_get(j, "decided")), "equivalent");

		json_decref(j);
		if (d)
			return eq;
	}
	return 0;
}
int main(void)
{
	struct aa_plan pl;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double a[64], b[64];

	gsl_rng_set(r, 20261206);
	plan(&pl, 5, 40, 5);
	CHECK(pl.nlooks == 4 && pl.looks[0] == 5 && pl.looks[1] == 10 && pl.looks[2] == 20 &&
		      pl.looks[3] == 40 && fabs(pl.level - 0.0125) < 1e-12 && fabs(pl.margin - 0.05) < 1e-12,
	      "aastop: 5..40 windows look at 5, 10, 20, 40, each at 0.05 / 4 (%zu looks, level %g)",
	      pl.nlooks, pl.level);
	plan(&pl, 1, 20, 5);
	CHECK(pl.nlooks == 5 && pl.looks[0] == 2 && pl.looks[3] == 16 && pl.looks[4] == 20 &&
		      fabs(pl.level - 0.01) < 1e-12,
	      "aastop: from at least 2 windows, the maximum the last look (2, 4, 8, 16, 20)");
	plan(&pl, 8, 4, 5);
	CHECK(pl.nlooks == 1 && pl.looks[0] == 8 && fabs(pl.level - 0.05) < 1e-12,
	      "aastop: repetitions_max below repetitions: one look at the fixed count");
	plan(&pl, 5, 40, 0);
	CHECK(pl.nlooks == 0 && !aastop_is_look(&pl, 5), "aastop: margin 0: no check, no look");

	plan(&pl, 5, 40, 5);
	CHECK(aastop_is_look(&pl, 10) && !aastop_is_look(&pl, 11) && aastop_is_look(&pl, 40),
	      "aastop: a look is one of the planned counts");
	draw(r, a, 10, 1e6, 0.01);
	draw(r, b, 10, 1e6, 0.01);
	CHECK(!strcmp(decided(&pl, a, b, 10), "equivalent"),
	      "aastop: 10 windows a side of 1%% spread, same center: equivalent within 5%%");
	draw(r, b, 10, 1.5e6, 0.01);
	CHECK(!strcmp(decided(&pl, a, b, 10), "different"),
	      "aastop: the real arm 1.5x the dry one at 1%% spread: different");
	draw(r, a, 5, 1e6, 0.2);
	draw(r, b, 5, 1e6, 0.2);
	CHECK(!strcmp(decided(&pl, a, b, 5), "undecided"),
	      "aastop: 5 windows a side of 20%% spread: neither (the arms go on)");
	draw(r, b, 10, 1.03e6, 0.01);
	json_t *j;
	int d;

	draw(r, a, 10, 1e6, 0.01);
	j = aastop_check(&pl, a, b, 10, &d);
	CHECK(json_is_number(json_object_get(j, "tost_p")) &&
		      json_array_size(json_object_get(j, "ratio_ci95")) == 2 &&
		      fabs(json_number_value(json_object_get(j, "ratio")) - 1.03) < 0.02 &&
		      json_integer_value(json_object_get(j, "n")) == 10 &&
		      json_array_size(json_object_get(j, "looks")) == 4,
	      "aastop: the check records its ratio (%.3f), interval, TOST p, n and looks",
	      json_number_value(json_object_get(j, "ratio")));
	json_decref(j);

	/* The true ratio on the margin (1.05): every declared equivalence is a
	 * false one.  8 % spread, 5..40 windows. */
	size_t trials = 4000, naive = 0, held = 0;

	for (size_t t = 0; t < trials; t++) {
		naive += seq_equivalent(r, &pl, 0.05, 1.05, 0.08);
		held += seq_equivalent(r, &pl, pl.level, 1.05, 0.08);
	}
	double rn = (double)naive / (double)trials, rh = (double)held / (double)trials;

	/* Binomial SE at 0.05 over 4000 trials: 0.0034. */
	CHECK(rh <= 0.05 + 3 * 0.0034,
	      "aastop: true ratio on the margin: equivalence declared in %.3f of %zu sequential "
	      "checks at alpha / looks (<= alpha)",
	      rh, trials);
	CHECK(rn > rh, "aastop: ... and in %.3f when every look is at alpha (the looks add up)",
	      rn);
	/* Power where the arms are equivalent, same center: at 4 % spread
	 * nearly every pair is decided by 40 windows (the standard error of
	 * the log ratio, 0.009, leaves room for the sampled difference); at
	 * 8 % only about a third is (0.018: the difference must fall within
	 * about 0.008 of 0), the price of alpha / looks. */
	for (held = 0, trials = 0; trials < 1000; trials++)
		held += seq_equivalent(r, &pl, pl.level, 1.0, 0.04);
	CHECK(held >= 950,
	      "aastop: same center, 4%% spread: %zu of 1000 decided equivalent by 40 windows", held);
	for (held = 0, trials = 0; trials < 1000; trials++)
		held += seq_equivalent(r, &pl, pl.level, 1.0, 0.08);
	CHECK(held >= 200 && held <= 500,
	      "aastop: at 8%% spread %zu of 1000 (about a third: alpha / looks costs power)", held);

	gsl_rng_free(r);
	printf("# %d failed\n", tap_failed);
	return tap_failed != 0;
}
