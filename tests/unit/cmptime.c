/* cmptime.c - the time a design takes to reach an MDE of x1.25: the
 * repetitions it asks for really reach it when run, a round of an
 * interleaved point is paid once for both arms, two boots of one config
 * are not taken for shared rounds, and a report's time adds its points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../harness/report/compare.h"
#include "../../harness/report/cmptime.h"
#include "../../harness/report/resget.h"
#include "tap.h"

/* A spin-tas result at `threads` with n windows whose log ops/s sit at
 * log(mean) +- sd alternately (a spread of exactly sd), window i starting
 * at t0 + i * period seconds, in interleaved point `point`. */
static json_t *result(int threads, double mean, double sd, size_t n, double t0, double period,
		      int point)
{
	json_t *reps = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(reps, json_pack("{s:f,s:f}", "ops_per_sec",
						      mean * exp(i % 2 ? sd : -sd), "window_start_ns",
						      (t0 + (double)i * period) * 1e9));
	return json_pack("{s:s,s:{s:i},s:s,s:o,s:{s:i,s:i}}", "workload", "spin-tas", "params",
			 "threads", threads, "status", "ok", "repetitions", reps, "interleave",
			 "seed", 1, "point", point);
}

static json_t *doc_of(json_t *results)
{
	return json_pack("{s:s,s:{},s:o}", "schema", "slicebench/1", "meta", "results", results);
}

/* compare a.json b.json over the two lists of results, as a family of its
 * rows. */
static json_t *compare2(json_t *a, json_t *b)
{
	json_t *docs[2] = { doc_of(a), doc_of(b) }, *rep;
	const char *names[2] = { "a.json", "b.json" };
	struct cmp_opts o = { .threshold = 0.05, .alpha = 0.05, .nmetrics = 1 };
	char err[256];

	o.metrics[0] = cmp_metric_find("ops_per_sec");
	if (cmp_docs(docs, names, 2, &o, &rep, err, sizeof(err))) {
		printf("# compare: %s\n", err);
		rep = NULL;
	}
	json_decref(docs[0]);
	json_decref(docs[1]);
	return rep;
}

int main(void)
{
	/* Two arms taking turns in one point: 5 windows each, a round every
	 * 10 s, B's window 4 s after A's. */
	json_t *rep = compare2(json_pack("[o]", result(4, 1e6, 0.2, 5, 100, 10, 3)),
			       json_pack("[o]", result(4, 1.1e6, 0.2, 5, 104, 10, 3)));
	json_t *row = json_array_get(json_object_get(rep, "rows"), 0);
	double reps = res_num(row, "mde.goal.reps"), secs = res_num(row, "mde.goal.seconds");
	double mde = res_num(row, "mde.ratio");

	CHECK(json_is_true(json_object_get(row, "shared_rounds")), "arms of one point share rounds");
	CHECK(fabs(res_num(row, "a.window_period_s") - 10) < 1e-9, "a round is the spacing of "
	      "the window starts (%g s)", res_num(row, "a.window_period_s"));
	CHECK(mde > 1.25 && reps > 5, "5 windows of spread 0.2 miss x1.25 (MDE x%.3g), so more "
	      "are asked for (%g)", mde, reps);
	CHECK(fabs(secs - reps * 10) < 1e-6, "each asked repetition costs one round: %g s for %g",
	      secs, reps);
	json_decref(rep);

	/* Run what it asked for, with the same spread: the MDE is reached. */
	size_t n = (size_t)reps;

	rep = compare2(json_pack("[o]", result(4, 1e6, 0.2, n, 100, 10, 3)),
		       json_pack("[o]", result(4, 1.1e6, 0.2, n, 104, 10, 3)));
	row = json_array_get(json_object_get(rep, "rows"), 0);
	CHECK(res_num(row, "mde.ratio") <= 1.25, "%zu windows a side reach MDE x%.3g <= x1.25", n,
	      res_num(row, "mde.ratio"));
	CHECK(res_num(row, "mde.goal.reps") <= (double)n, "and ask for no more (%g)",
	      res_num(row, "mde.goal.reps"));
	json_decref(rep);

	/* The same point of the same config in two boots: the clocks start
	 * again, the windows do not pair up, the two sides' windows add. */
	rep = compare2(json_pack("[o]", result(4, 1e6, 0.2, 5, 100, 10, 3)),
		       json_pack("[o]", result(4, 1e6, 0.2, 5, 130, 8, 3)));
	row = json_array_get(json_object_get(rep, "rows"), 0);
	reps = res_num(row, "mde.goal.reps");
	CHECK(!json_object_get(row, "shared_rounds"), "two boots' windows are not shared rounds");
	CHECK(fabs(res_num(row, "mde.goal.seconds") - reps * 18) < 1e-6,
	      "a repetition of each costs both windows: %g s for %g", res_num(row,
	      "mde.goal.seconds"), reps);
	json_decref(rep);

	/* Two points, two rows at the first: a report's time is the longest
	 * row of each point, added over the points. */
	rep = compare2(json_pack("[o,o]", result(4, 1e6, 0.2, 5, 100, 10, 3),
				 result(8, 1e6, 0.05, 5, 500, 6, 4)),
		       json_pack("[o,o]", result(4, 1.1e6, 0.2, 5, 104, 10, 3),
				 result(8, 1.1e6, 0.05, 5, 503, 6, 4)));
	json_t *rows = json_object_get(rep, "rows");
	double t4 = res_num(json_array_get(rows, 0), "mde.goal.seconds");
	double t8 = res_num(json_array_get(rows, 1), "mde.goal.seconds");
	size_t without = 9;
	double all = cmp_time_to_goal(rows, NULL, NULL, &without);

	CHECK(t8 < t4, "a point of smaller spread needs less time (%g s vs %g s)", t8, t4);
	CHECK(fabs(all - (t4 + t8)) < 1e-6 && without == 0, "the report's time adds the points: %g",
	      all);
	/* A second row at the first point (its own copy, twice as slow)
	 * counts once, as the longer. */
	json_t *twin = json_deep_copy(json_array_get(rows, 0));

	json_object_set_new(json_object_get(twin, "mde"), "goal",
			    json_pack("{s:f,s:f,s:f}", "ratio", 1.25, "reps", 1.0, "seconds", 2 * t4));
	json_array_append_new(rows, twin);
	all = cmp_time_to_goal(rows, NULL, NULL, &without);
	CHECK(fabs(all - (2 * t4 + t8)) < 1e-6, "a point's time is its longest row's: %g", all);
	json_decref(rep);

	/* One window a side: no spread, no estimate, and the report says the
	 * point has none. */
	rep = compare2(json_pack("[o]", result(4, 1e6, 0.2, 1, 100, 10, 3)),
		       json_pack("[o]", result(4, 1e6, 0.2, 1, 104, 10, 3)));
	row = json_array_get(json_object_get(rep, "rows"), 0);
	all = cmp_time_to_goal(json_object_get(rep, "rows"), NULL, NULL, &without);
	CHECK(!res_get(row, "mde.goal") && isnan(all) && without == 1,
	      "one window a side has no estimate (%g, %zu without)", all, without);
	json_decref(rep);
	printf("# %d failed\n", tap_failed);
	return tap_failed != 0;
}
