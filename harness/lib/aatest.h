/* aatest.h - the A/A check's test: a real arm against its dry control
 * where the kernel cannot act, one function for the runner's stop rule
 * (harness/engine/aastop.c) and compare's check (harness/report/aacheck.c).
 *
 * The design decides the test, never the arms' own operations:
 *  - arms that took turns (an interleaved point) ran one window each per
 *    round, so the round is a block and each round's log ratio real/dry is
 *    the unit: a one-sample t on those n differences (df n - 1).  Drift of
 *    the host or the emulator between rounds falls on both arms alike and
 *    drops out, with no covariate;
 *  - arms that did not take turns are two samples: Welch's test on logs.
 * Equivalence is two one-sided tests of the log ratio against
 * +-log(1 + margin) (TOST, Schuirmann 1987); a difference is the two-sided
 * test rejecting with the ratio outside the margin.
 *
 * Collapses are data: a window with no operation is never dropped.  It
 * enters at the floor, half an operation in the window (the continuity
 * correction of a zero count), so an arm that collapsed in a round pulls
 * that round's ratio far from 1 and the check cannot call it equivalent. */
#ifndef SB_AATEST_H
#define SB_AATEST_H

#include <stddef.h>

#include <jansson.h>

#include "stats.h"

struct aa_test {
	struct st_welch w;	 /* log ratio real/dry: ratio, 95% interval, p, se, df */
	int paired;		 /* 1: rounds as blocks; 0: Welch's two samples */
	size_t n_real, n_dry;	 /* windows tested: every window given */
	size_t collapsed_real;	 /* of those, windows with no operation */
	size_t collapsed_dry;
	int decision;		 /* 1 equivalent, -1 different, 0 neither (or no test) */
	double tost_p, mde;	 /* NAN without a test; mde at the level and power given */
};

/* The check of real[nr] against dry[nd] (ops/s per window, in the order
 * the windows ran).  paired: window i of each arm ran in round i (the
 * first min(nr, nd) rounds are tested, the rest of the longer arm
 * counted in n_ only when not paired).  floor: the ops/s a window with no
 * operation enters as (aa_floor).  The decision at level with the margin
 * (a fraction); mde: the smallest ratio the design detects at level with
 * power, from n and the measured spread alone. */
void aa_test_run(const double *real, size_t nr, const double *dry, size_t nd, int paired,
		 double floor, double margin, double level, double power, struct aa_test *t);
/* The floor for windows of window_s seconds: 0.5 / window_s ops/s. */
double aa_floor(double window_s);
/* {design: "rounds"|"two samples", n_real, n_dry, collapsed: {real, dry}}
 * plus ratio, ratio_ci95, p, tost_p and mde where defined. */
json_t *aa_test_json(const struct aa_test *t);

#endif
