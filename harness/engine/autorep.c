/* autorep.c - `ci_target_pct`: repeat a run until its interval is narrow
 * enough, or a maximum is reached, and say which stopped it.
 *
 * A fixed count spends the same time on a quiet point as on a noisy one,
 * and under TCG a point moved by more than its interval from one run to
 * the next.  Time to a verdict, not a count: the Student-t half-width of
 * the mean of the windows' log ops/s against a target, checked after each
 * repetition once there are enough to have an interval.  Logs, because
 * compare's ratio and its MDE are taken on them (st_welch_log): a window
 * that collapsed weighs there far more than in the linear mean, and a
 * stop on the linear interval ended arms whose MDE was still wide. */
#include "autorep.h"

#include <math.h>
#include <stdlib.h>

#include "../lib/fields.h"
#include "../lib/stats.h"

/* The geometric mean's 95% interval as a share of it: 100 (e^h - 1), h
 * the half-width on the logs.  A window without an operation has no log,
 * so no interval narrows (INFINITY) and the arm runs to its maximum. */
static double half_width_pct(const double *x, size_t n)
{
	struct st_summary s;
	double *l = malloc((n ? n : 1) * sizeof(*l));

	if (!l || !st_logs(x, n, l)) {
		free(l);
		return INFINITY;
	}
	st_summarize(l, n, &s);
	free(l);
	return 100 * expm1((s.ci95_hi - s.ci95_lo) / 2);
}

static size_t min_reps(const struct run_params *p)
{
	return p->repetitions < 2 ? 2 : (size_t)p->repetitions;
}

unsigned autorep_cap(const struct run_params *p)
{
	if (p->ci_target_pct <= 0)
		return (unsigned)p->repetitions;
	size_t lo = min_reps(p);

	return (unsigned)((size_t)p->repetitions_max > lo ? (size_t)p->repetitions_max : lo);
}

int autorep_done(const struct run_params *p, const double *x, size_t n)
{
	if (p->ci_target_pct <= 0)
		return n >= (size_t)p->repetitions;
	if (n >= autorep_cap(p))
		return 1;
	return n >= min_reps(p) && half_width_pct(x, n) <= p->ci_target_pct;
}

json_t *autorep_json(const struct run_params *p, const double *x, size_t n, int by_check)
{
	if (p->ci_target_pct <= 0)
		return NULL;
	double hw = half_width_pct(x, n);

	return json_pack("{s:f,s:I,s:I,s:I,s:o,s:s}", "target_pct", p->ci_target_pct,
			 fld_key(fld_s_auto_min), (json_int_t)min_reps(p), fld_key(fld_s_auto_max),
			 (json_int_t)autorep_cap(p), fld_key(fld_s_auto_n), (json_int_t)n,
			 "half_width_pct", isfinite(hw) ? json_real(hw) : json_null(), "stopped_by",
			 by_check ? "check"
			 : n >= min_reps(p) && hw <= p->ci_target_pct ? "target" : "maximum");
}
