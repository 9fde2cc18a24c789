/* aastop.h - an A/A check decides when its two arms stop.
 *
 * A dry control and its real arm at a point where no grant can happen are
 * judged by equivalence.  Each arm repeating until its own interval is
 * narrow spends the time on the wrong question: what a check needs is an
 * interval of the ratio inside the margin, or a difference outside it.
 * With check_margin_pct the two arms take turns until the check is
 * decided, looking at doubling counts, each look at alpha / looks so that
 * the looks together keep the error at alpha (Bonferroni over the looks:
 * crude beside a group-sequential design, but it holds whatever the
 * looks' dependence).  The test at each look is harness/lib/aatest.c's,
 * the one compare's check makes: the arms took turns, so each round is a
 * block. */
#ifndef SB_AASTOP_H
#define SB_AASTOP_H

#include <stddef.h>

#include <jansson.h>

#include "../core/keys.h"

/* The level the looks share. */
#define AASTOP_ALPHA 0.05
/* The power its MDE is given at (compare's CMP_POWER). */
#define AASTOP_POWER 0.8

struct aa_plan {
	double margin; /* fraction */
	double level;  /* AASTOP_ALPHA / nlooks */
	double floor;  /* ops/s a window with no operation enters as */
	size_t looks[24], nlooks;
};

/* The looks of p's arms: max(repetitions, 2), doubling, and
 * repetitions_max last; nlooks 0 when check_margin_pct is 0. */
void aastop_plan(const struct run_params *p, struct aa_plan *pl);
/* 1 when n windows a side is one of the looks. */
int aastop_is_look(const struct aa_plan *pl, size_t n);
/* The check of the first n rounds, dry[] against real[] (ops/s, window i
 * of each from round i): aa_test_run's.  Its JSON {margin_pct, alpha,
 * looks, level, n, decided} with aa_test_json's fields, decided
 * "equivalent", "different" or null; *decided set when it is not null. */
json_t *aastop_check(const struct aa_plan *pl, const double *dry, const double *real, size_t n,
		     int *decided);

#endif
