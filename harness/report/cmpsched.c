/* cmpsched.c - what the scheduler did in a compare row's windows (see
 * cmpsched.h). */
#include "cmpsched.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmpmech.h"
#include "compare.h"
#include "resget.h"
#include "../lib/fields.h"
#include "../lib/stats.h"

/* The direct measure of what the extension is for, where the run traced
 * its holders (holder_trace_us > 0, harness/os/holdtrace.h): how often a lock
 * holder was switched out while holding, and how many grants deferred a
 * preemption, per second of the traced windows.  Sets side.holder. */
static void holder_rate(json_t *side, const json_t *r)
{
	double pre = 0, grants = 0, secs = 0;
	size_t i, n = 0;
	json_t *rep;

	json_array_foreach(json_object_get(r, "repetitions"), i, rep) {
		const json_t *ht = json_object_get(rep, "holder_trace");
		double w = res_num(rep, "wall_s");

		if (!ht || !isfinite(w) || w <= 0)
			continue;
		pre += res_num(ht, "holder.preempted");
		grants += res_num(ht, "slice_grants");
		secs += w;
		n++;
	}
	if (n && isfinite(pre) && isfinite(grants))
		json_object_set_new(side, "holder",
				    json_pack("{s:f,s:f,s:f,s:I}", "preempted_per_s", pre / secs,
					      "grants_per_s", grants / secs, "seconds", secs,
					      "windows", (json_int_t)n));
}

/* Lock threads per PU of result r: "Nx" threads are N per PU; a number
 * on a "cpus:LIST" pin is spread over the list's PUs; NAN otherwise (the
 * PU count of another pin is the machine's, not in the result). */
static double threads_per_pu(const json_t *r)
{
	const json_t *t = json_object_get(json_object_get(r, fld_r_params), "threads");
	const char *pin = res_str(json_object_get(r, fld_r_params), "pin", "");
	double n = res_num(r, fld_r_nthreads);
	unsigned pus = 0;

	if (json_is_string(t) && strchr(json_string_value(t), 'x'))
		return atof(json_string_value(t));
	if (strncmp(pin, "cpus:", 5) || !isfinite(n))
		return NAN;
	for (const char *c = pin + 5; *c;) {
		char *end;
		long a = strtol(c, &end, 10), b = a;

		if (end == c)
			return NAN;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		pus += b >= a ? (unsigned)(b - a + 1) : 0;
		c = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return NAN;
	}
	return pus ? n / pus : NAN;
}

/* How many scheduler rounds a window of r held: the lock threads'
 * context switches in it (getrusage, voluntary and not) per thread, the
 * median over the windows.  Each round switches every runnable thread of
 * a PU out once, so below about ten the window saw a few threads' turns,
 * and which ones ran decides its count.  Sets side.rounds_per_window and
 * side.threads_per_pu; returns the rounds (NAN without rusage). */
static double window_rounds(json_t *side, const json_t *r)
{
	const json_t *reps = json_object_get(r, "repetitions"), *rep;
	double n = res_num(r, fld_r_nthreads), *x = calloc(json_array_size(reps) + 1, sizeof(*x));
	double tpp = threads_per_pu(r), med = NAN;
	size_t i, k = 0;

	if (!x)
		abort();
	json_array_foreach(reps, i, rep) {
		double v = res_num(rep, "rusage.nvcsw") + res_num(rep, "rusage.nivcsw");

		if (isfinite(v) && isfinite(n) && n > 0)
			x[k++] = v / n;
	}
	if (k) {
		med = st_center(x, k, 1);
		json_object_set_new(side, "rounds_per_window", json_real(med));
	}
	if (isfinite(tpp))
		json_object_set_new(side, "threads_per_pu", json_real(tpp));
	free(x);
	return isfinite(tpp) && tpp > 1 ? med : NAN;
}

void cmp_sched(json_t *row, json_t *flags, const json_t *ra, const json_t *rb)
{
	holder_rate(json_object_get(row, "a"), ra);
	holder_rate(json_object_get(row, "b"), rb);
	cmp_mechanism(json_object_get(row, "a"), ra);
	cmp_mechanism(json_object_get(row, "b"), rb);
	/* Oversubscribed windows shorter than ten scheduler rounds: the
	 * shorter side's figure, at its threads per PU. */
	double wa = window_rounds(json_object_get(row, "a"), ra);
	double wb = window_rounds(json_object_get(row, "b"), rb);
	int short_b = isfinite(wb) && !(isfinite(wa) && wa <= wb);
	double wr = short_b ? wb : wa;

	const char *side = short_b ? "b" : "a";

	if (isfinite(wr) && wr < CMP_MIN_ROUNDS)
		json_array_append_new(
			flags, json_sprintf("windows of %.2g scheduler rounds (%c, %.3g threads per "
					    "PU), under %d: which threads happened to run decides "
					    "the count", wr, short_b ? 'B' : 'A',
					    res_num(json_object_get(row, side), "threads_per_pu"),
					    CMP_MIN_ROUNDS));
}
