/* autorep.c - `ci_target_pct`: repeat a run until its interval is narrow
 * enough, or a maximum is reached, and say which stopped it.
 *
 * A fixed count spends the same time on a quiet point as on a noisy one,
 * and under TCG a point moved by more than its interval from one run to
 * the next.  Time to a verdict, not a count: the Student-t half-width of
 * the mean ops/s against a target, checked after each repetition once
 * there are enough to have an interval. */
#include "autorep.h"

#include "../lib/fields.h"
#include "../lib/stats.h"

static double half_width_pct(const double *x, size_t n)
{
	struct st_summary s;

	st_summarize(x, n, &s);
	return s.mean > 0 ? 100 * (s.ci95_hi - s.ci95_lo) / 2 / s.mean : 0;
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

	return json_pack("{s:f,s:I,s:I,s:I,s:f,s:s}", "target_pct", p->ci_target_pct,
			 fld_key(fld_s_auto_min), (json_int_t)min_reps(p), fld_key(fld_s_auto_max),
			 (json_int_t)autorep_cap(p), fld_key(fld_s_auto_n), (json_int_t)n,
			 "half_width_pct", hw, "stopped_by",
			 by_check ? "check"
			 : n >= min_reps(p) && hw <= p->ci_target_pct ? "target" : "maximum");
}
