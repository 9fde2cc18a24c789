/* cmppower.h - what a row of compare could have seen: the verdict after
 * Holm, the minimum detectable effect, equivalence (TOST), collapses. */
#ifndef SB_CMPPOWER_H
#define SB_CMPPOWER_H

#include <stddef.h>

#include <jansson.h>

#include "compare.h"

/* When metric m is throughput and a window of either side had no
 * operation: row.collapse {a, a_n, b, b_n} (0-op windows of each side, of
 * how many); the row is then decided by the Mann-Whitney p, not Welch's. */
void power_collapse(json_t *row, const struct cmp_metric *m, const double *a, size_t na,
		    const double *b, size_t nb);
/* When metric m is throughput and the windows of both sides fall into two
 * states (a gap of x10 or more, one side with two or more windows on each
 * side of it): row.states {cut, gap, a, a_n, b, b_n, fisher_p}, the windows
 * above the cut on each side and Fisher's exact test of the shares. */
void power_states(json_t *row, const struct cmp_metric *m, const double *a, size_t na,
		  const double *b, size_t nb);
/* Holm over the rows' tests (none for an exploratory family), then each
 * row's verdict (improved, regressed, inconclusive, collapsed), family
 * {kind: report | primary | exploratory, tests, level}, mde {ratio, alpha,
 * power, unadjusted {ratio, alpha} where the level is not alpha}, tost
 * {margin_pct, p, holm_p, equivalent}, on a two-state row states.verdict
 * (Fisher's p at the row's level) and states.mde_share {share, alpha,
 * power}, and reading: the verdict in words
 * ("underpowered: could detect >= x1.9", "equivalent within +-5%",
 * "collapsed: 0 ops in 2 of 5 windows of B, regressed"). */
void power_decide(json_t *rows, const struct cmp_opts *o);
/* The smallest effect of interest of o, a fraction. */
double power_margin(const struct cmp_opts *o);

/* Repetitions per side row would need for an MDE of `effect` (a ratio,
 * either side of 1), scaled from its MDE at its own n; NAN when the row has
 * no MDE. */
double power_reps_for(const json_t *row, double effect);

#endif
