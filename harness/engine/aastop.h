/* aastop.h - an A/A check decides when its two arms stop.
 *
 * A dry control and its real arm at a point where no grant can happen are
 * judged by equivalence (harness/report/aacheck.c).  Each arm repeating until its
 * own interval is narrow spends the time on the wrong question: what a
 * check needs is an interval of the ratio inside the margin, or a
 * difference outside it.  With check_margin_pct the two arms take turns
 * until the check is decided, looking at doubling counts, each look at
 * alpha / looks so that the looks together keep the error at alpha
 * (Bonferroni over the looks: crude beside a group-sequential design,
 * but it holds whatever the looks' dependence). */
#ifndef SB_AASTOP_H
#define SB_AASTOP_H

#include <stddef.h>

#include <jansson.h>

#include "../core/keys.h"

/* The level the looks share. */
#define AASTOP_ALPHA 0.05
/* The power its unadjusted MDE is given at (compare's CMP_POWER). */
#define AASTOP_POWER 0.8

struct aa_plan {
	double margin; /* fraction */
	double level;  /* AASTOP_ALPHA / nlooks */
	size_t looks[24], nlooks;
};

/* The looks of p's arms: max(repetitions, 2), doubling, and
 * repetitions_max last; nlooks 0 when check_margin_pct is 0. */
void aastop_plan(const struct run_params *p, struct aa_plan *pl);
/* 1 when n windows a side is one of the looks. */
int aastop_is_look(const struct aa_plan *pl, size_t n);
/* The check of n windows a side, dry[] against real[] (ops/s), each
 * window's think median beside it in dry_pace[] and real_pace[] (NAN
 * without one; NULL arrays: none): the test compare's A/A check makes
 * (st_pace_test: adjusted for the pace when every window has its median).
 * Its JSON {margin_pct, alpha, looks, level, n, ratio, ratio_ci95, p,
 * tost_p, decided, adjusted}, decided "equivalent", "different" or null;
 * *decided set when it is not null. */
json_t *aastop_check(const struct aa_plan *pl, const double *dry, const double *dry_pace,
		     const double *real, const double *real_pace, size_t n, int *decided);

#endif
