/* cmptime.c - how long a design takes to reach a minimum detectable effect
 * (see cmptime.h). */
#define _GNU_SOURCE
#include "cmptime.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmppower.h"
#include "resget.h"

/* The window starts of r in seconds, in file order (a new array, or NULL
 * when none is recorded); their count in *n. */
static double *starts(const json_t *r, size_t *n)
{
	const json_t *reps = json_object_get(r, "repetitions"), *rep;
	double *s = malloc((json_array_size(reps) + 1) * sizeof(*s));
	size_t i;

	*n = 0;
	if (!s)
		return NULL;
	json_array_foreach(reps, i, rep) {
		double t = res_num(rep, "window_start_ns");

		if (isfinite(t))
			s[(*n)++] = t / 1e9;
	}
	return s;
}

/* The mean spacing of n window starts, NAN below two. */
static double period(const double *s, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, s[i]);
		hi = fmax(hi, s[i]);
	}
	return n >= 2 && hi > lo ? (hi - lo) / (double)(n - 1) : NAN;
}

void cmp_time_sides(json_t *row, const json_t *ra, const json_t *rb)
{
	size_t na, nb;
	double *sa = starts(ra, &na), *sb = starts(rb, &nb);
	double pa = period(sa, na), pb = period(sb, nb);
	const json_t *ia = res_get(ra, "interleave.point"), *ib = res_get(rb, "interleave.point");
	int shared = ia && ib && json_equal(ia, ib) && isfinite(pa) && isfinite(pb);

	if (isfinite(pa))
		json_object_set_new(json_object_get(row, "a"), "window_period_s", json_real(pa));
	if (isfinite(pb))
		json_object_set_new(json_object_get(row, "b"), "window_period_s", json_real(pb));
	/* Arms of one point take one window each a round: their i-th windows
	 * lie within a round of each other.  An arm that stopped on its own
	 * check has fewer windows; the rounds they share still pair up. */
	for (size_t i = 0; shared && i < na && i < nb; i++)
		shared = fabs(sa[i] - sb[i]) < 1.5 * fmax(pa, pb);
	if (shared)
		json_object_set_new(row, "shared_rounds", json_true());
	free(sa);
	free(sb);
}

void cmp_time_row(json_t *row)
{
	json_t *mde = json_object_get(row, "mde");
	double reps = power_reps_for(row, CMP_MDE_GOAL);
	double pa = res_num(row, "a.window_period_s"), pb = res_num(row, "b.window_period_s");
	double each = json_is_true(json_object_get(row, "shared_rounds")) ? fmax(pa, pb) : pa + pb;

	/* A row in two states is sized by its share, not its ratio: the
	 * ratio's goal would ask thousands of windows of a mixture. */
	if (!json_is_object(mde) || !isfinite(reps) || !isfinite(each) ||
	    json_object_get(row, "states"))
		return;
	json_object_set_new(mde, "goal", json_pack("{s:f,s:f,s:f}", "ratio", CMP_MDE_GOAL, "reps",
						   reps, "seconds", reps * each));
}

double cmp_time_to_goal(const json_t *rows, const char *metric, const char *group,
			size_t *without)
{
	json_t *points = json_object(), *r, *v;
	const char *k;
	size_t i;
	double sum = 0;
	int any = 0;

	json_array_foreach(rows, i, r) {
		if ((metric && strcmp(res_str(r, "metric", ""), metric)) ||
		    (group && strcmp(res_str(r, "group", ""), group)))
			continue;
		/* A point is its group and description; its time, the longest
		 * of its rows' (-1: none has an estimate). */
		char *key = NULL;
		double t = res_num(r, "mde.goal.seconds");

		if (asprintf(&key, "%s\n%s", res_str(r, "group", ""), res_str(r, "point", "")) < 0)
			continue;
		json_t *was = json_object_get(points, key);

		if (!was)
			json_object_set_new(points, key, json_real(isfinite(t) ? t : -1));
		else if (isfinite(t) && t > json_number_value(was))
			json_object_set_new(points, key, json_real(t));
		free(key);
	}
	*without = 0;
	json_object_foreach(points, k, v) {
		double t = json_number_value(v);

		if (t < 0) {
			(*without)++;
			continue;
		}
		sum += t;
		any = 1;
	}
	json_decref(points);
	return any ? sum : NAN;
}

json_t *cmp_time_goal(const json_t *rows, const char *metric, const char *group)
{
	size_t without;
	double t = cmp_time_to_goal(rows, metric, group, &without);

	return json_pack("{s:f,s:o,s:I}", "mde", CMP_MDE_GOAL, "seconds",
			 isfinite(t) ? json_real(t) : json_null(), "points_without",
			 (json_int_t)without);
}
