/* aatest.c - the A/A check's test (harness/lib/aatest.c), by simulation
 * of the runner's own procedure: rounds in which both arms run one window
 * each at the pace the host or the emulator has that round, looks at the
 * doubling counts of harness/engine/aastop.c at alpha / looks.
 *
 * The property: a real arm that is uniformly slower than its control,
 * however the pace drifts, is called equivalent no more often than alpha.
 * A check adjusted for a covariate taken from the arms' own windows (the
 * think section's time, which slows with the arm) failed it: with a pace
 * drifting 20% per round it called an arm 25% slower equivalent in 98% of
 * the pairs.  And what it gives for that: an arm equal to its control is
 * decided equivalent under drift, without any covariate, because the
 * round is the block. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../harness/engine/aastop.h"
#include "../../harness/lib/aatest.h"
#include "tap.h"

#define ROUNDS 40

/* Rounds of a pace that drifts as a random walk of step drift (log),
 * both arms at that round's pace, the real arm `ratio` of the dry one,
 * each window with its own spread sd. */
static void rounds(gsl_rng *r, double *dry, double *real, double ratio, double drift, double sd)
{
	double pace = 1;

	for (size_t i = 0; i < ROUNDS; i++) {
		pace *= exp(gsl_ran_gaussian(r, drift));
		dry[i] = 1e6 * pace * exp(gsl_ran_gaussian(r, sd));
		real[i] = 1e6 * ratio * pace * exp(gsl_ran_gaussian(r, sd));
	}
}

/* The runner's procedure on one pair: the decision at the first look that
 * decides (1 equivalent, -1 different, 0 none by the last look). */
static int sequential(const struct aa_plan *pl, const double *dry, const double *real)
{
	for (size_t k = 0; k < pl->nlooks; k++) {
		int d;
		json_t *j = aastop_check(pl, dry, real, pl->looks[k], &d);
		const char *v = json_string_value(json_object_get(j, "decided"));
		int out = d ? (v && !strcmp(v, "equivalent") ? 1 : -1) : 0;

		json_decref(j);
		if (d)
			return out;
	}
	return 0;
}

static double equivalence_rate(gsl_rng *r, const struct aa_plan *pl, double ratio, double drift,
			       double sd, size_t trials)
{
	double dry[ROUNDS], real[ROUNDS];
	size_t eq = 0;

	for (size_t t = 0; t < trials; t++) {
		rounds(r, dry, real, ratio, drift, sd);
		eq += sequential(pl, dry, real) > 0;
	}
	return (double)eq / (double)trials;
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct run_params p;
	struct aa_plan pl;
	const size_t trials = 2000;
	/* Binomial SE of a rate of 0.05 over 2000 trials: 0.0049. */
	const double bound = 0.05 + 3 * 0.0049;

	gsl_rng_set(r, 20261207);
	memset(&p, 0, sizeof(p));
	p.repetitions = 5;
	p.repetitions_max = ROUNDS;
	p.check_margin_pct = 5;
	p.duration_s = 1;
	aastop_plan(&p, &pl);

	const double slower[] = { 0.05, 0.12, 0.25 }, drift[] = { 0, 0.2 };

	for (size_t i = 0; i < 3; i++)
		for (size_t k = 0; k < 2; k++) {
			double rate = equivalence_rate(r, &pl, 1 - slower[i], drift[k], 0.04, trials);

			CHECK(rate <= bound,
			      "aatest: the real arm %.0f%% slower, pace drift %.0f%% a round: called "
			      "equivalent in %.4f of %zu sequential checks (<= alpha 0.05)",
			      100 * slower[i], 100 * drift[k], rate, trials);
		}
	double same = equivalence_rate(r, &pl, 1, 0.2, 0.04, 1000);

	CHECK(same >= 0.9,
	      "aatest: an arm equal to its control, pace drift 20%%, 4%% spread: equivalent in "
	      "%.3f of 1000 by %d rounds, with no covariate (the round is the block)",
	      same, ROUNDS);

	/* Two samples (arms that did not take turns): the drift is noise. */
	double dry[ROUNDS], real[ROUNDS];
	struct aa_test t;

	rounds(r, dry, real, 1, 0.2, 0.04);
	aa_test_run(real, 20, dry, 20, 0, aa_floor(1), 0.05, 0.05, 0.8, &t);
	struct aa_test tp;

	aa_test_run(real, 20, dry, 20, 1, aa_floor(1), 0.05, 0.05, 0.8, &tp);
	CHECK(!t.paired && tp.paired && t.w.df > 0 && tp.w.df == 19 && tp.mde < t.mde,
	      "aatest: the same 20 rounds as two samples: MDE x%.3f; by rounds (df %.0f): x%.3f",
	      t.mde, tp.w.df, tp.mde);

	/* Collapses are data: one window of the real arm with no operation. */
	rounds(r, dry, real, 1, 0, 0.01);
	aa_test_run(real, 20, dry, 20, 1, aa_floor(1), 0.05, 0.05, 0.8, &t);
	CHECK(t.decision == 1, "aatest: 20 rounds at 1%% spread, same center: equivalent");
	real[7] = 0;
	aa_test_run(real, 20, dry, 20, 1, aa_floor(1), 0.05, 0.05, 0.8, &t);
	json_t *j = aa_test_json(&t);

	CHECK(t.decision != 1 && t.n_real == 20 && t.collapsed_real == 1 &&
		      json_integer_value(json_object_get(json_object_get(j, "collapsed"), "real")) == 1,
	      "aatest: ... one real window with no operation: kept (20 windows, 1 collapsed), no "
	      "longer equivalent (ratio %.3f)",
	      t.w.ratio);
	json_decref(j);
	rounds(r, dry, real, 1, 0, 0.01);
	for (size_t i = 0; i < 5; i++)
		real[i] = 0;
	aa_test_run(real, 40, dry, 40, 0, aa_floor(1), 0.05, 0.05, 0.8, &t);
	CHECK(t.decision != 1 && t.n_real == 40 && t.collapsed_real == 5,
	      "aatest: the real arm collapsed in 5 of 40 windows, two samples: all 40 tested, "
	      "not equivalent (ratio %.3g, p %.3g)",
	      t.w.ratio, t.w.p);
	aa_test_run(real, 20, dry, 20, 1, NAN, 0.05, 0.05, 0.8, &t);
	CHECK(!t.w.ok && t.decision == 0,
	      "aatest: a collapse and no floor to enter it at: no test, no verdict");
	gsl_rng_free(r);
	return tap_failed != 0;
}
