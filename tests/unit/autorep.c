/* autorep.c - ci_target_pct's stop: on the interval of the geometric
 * mean (the windows' logs), which compare's ratio and MDE use.  One
 * collapsed window among steady ones hardly widens the linear interval
 * and widens the log one many times; a window without an operation has
 * no log and never lets the arm stop early. */
#include <math.h>
#include <string.h>

#include "../../harness/engine/autorep.h"
#include "tap.h"

static struct run_params target(double pct, int64_t reps, int64_t max)
{
	struct run_params p;

	memset(&p, 0, sizeof(p));
	p.ci_target_pct = pct;
	p.repetitions = reps;
	p.repetitions_max = max;
	return p;
}

static double half_width(const struct run_params *p, const double *x, size_t n, const char **by)
{
	json_t *j = autorep_json(p, x, n, 0);
	json_t *h = json_object_get(j, "half_width_pct");
	double v = json_is_real(h) ? json_real_value(h) : NAN;
	static char why[16];

	snprintf(why, sizeof(why), "%s", json_string_value(json_object_get(j, "stopped_by")) ?: "?");
	*by = why;
	json_decref(j);
	return v;
}

int main(void)
{
	double x[12];
	const char *by;
	struct run_params p = target(50, 2, 40);

	/* Ten windows at 1000 ops/s within +-1%, one collapsed to 1. */
	for (size_t i = 0; i < 10; i++)
		x[i] = 1000 * (1 + 0.01 * ((double)i - 4.5) / 4.5);
	x[10] = 1;
	double hw = half_width(&p, x, 11, &by);

	/* Linear: mean 909, sd 301, t(10) 2.228: a half-width of 22% would
	 * stop at 50%.  Logs: sd 2.08, half-width 1.40, e^1.40 - 1 = 305%. */
	CHECK(!autorep_done(&p, x, 11) && hw > 250 && hw < 350 && !strcmp(by, "maximum"),
	      "autorep: one collapsed window in eleven keeps a 50%% target open (half-width %.0f%% on the logs, %s)",
	      hw, by);
	x[10] = 1000;
	hw = half_width(&p, x, 11, &by);
	CHECK(autorep_done(&p, x, 11) && hw < 1 && !strcmp(by, "target"),
	      "autorep: eleven steady windows meet it (half-width %.2f%%, %s)", hw, by);

	/* A constant factor: the share is the geometric mean's, e^h - 1, h
	 * the t half-width of the logs: logs 0 and ln 2 give sd 0.49, h =
	 * 12.706 * 0.49 / sqrt(2) = 4.404, e^h - 1 = 8075%. */
	double two[2] = { 100, 200 };
	struct run_params wide = target(100, 2, 40);

	hw = half_width(&wide, two, 2, &by);
	CHECK(fabs(hw - 100 * expm1(12.706205 * M_LN2 / 2)) < 1, "autorep: the share is 100 (e^h - 1) on the logs (%.0f%%)",
	      hw);

	/* A window without an operation: no log, no interval. */
	for (size_t i = 0; i < 12; i++)
		x[i] = 1000;
	x[5] = 0;
	struct run_params q = target(100, 2, 12);

	hw = half_width(&q, x, 11, &by);
	CHECK(!autorep_done(&q, x, 11) && isnan(hw) && !strcmp(by, "maximum"),
	      "autorep: a window of no operation leaves the interval open (half_width_pct null)");
	CHECK(autorep_done(&q, x, 12), "autorep: ... and the arm stops at repetitions_max");

	/* Without a target the fixed count rules and there is no object. */
	struct run_params f = target(0, 3, 40);
	json_t *none = autorep_json(&f, x, 3, 0);

	CHECK(autorep_done(&f, x, 3) && !autorep_done(&f, x, 2) && !none,
	      "autorep: ci_target_pct 0 is the fixed count");
	return tap_failed != 0;
}
