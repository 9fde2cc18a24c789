/* drift.c - the per-repetition calibration check, on real runs.
 *
 * A busy loop that runs at another speed than it was calibrated at is
 * made real here by handing the runner a rate twice the measured one: the
 * loop then really spins twice cs_ns and think_ns.  The first repetition
 * must be flagged with a ratio near 2, the loop recalibrated, and the
 * repetitions after it measured at the asked-for times again.  A run with
 * the true rate must flag nothing (tolerance 1.25 either way). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../core/keys.h"
#include "../../engine/runner.h"
#include "../../os/timing.h"
#include "../../os/topo.h"
#include "../../core/workload.h"
#include "tap.h"

static json_t *params(void)
{
	json_t *p = json_object();
	const struct workload_ops *ops = wl_find("spin-tas");

	for (const struct key_desc *k = run_keys; k->name; k++)
		json_object_set_new(p, k->name, key_default(k));
	for (const struct key_desc *k = ops->lock->keys; k && k->name; k++)
		json_object_set_new(p, k->name, key_default(k));
	json_object_set_new(p, "workload", json_string("spin-tas"));
	json_object_set_new(p, "threads", json_integer(1));
	json_object_set_new(p, "pin", json_string("compact"));
	json_object_set_new(p, "cs_ns", json_integer(20000));
	json_object_set_new(p, "think_ns", json_integer(20000));
	json_object_set_new(p, "duration_s", json_real(0.3));
	json_object_set_new(p, "warmup_s", json_real(0.05));
	json_object_set_new(p, "repetitions", json_integer(3));
	json_object_set_new(p, "sample_every", json_integer(1));
	json_object_set_new(p, "events", json_array());
	return p;
}

static double num(const json_t *o, const char *a, const char *b)
{
	return json_number_value(json_object_get(json_object_get(o, a), b));
}

/* A shared host can steal a vCPU for most of a 0.3 s repetition (seen:
 * think p50 at 5.8x its asked-for time under a load average near 40).
 * Each scenario therefore gets up to ATTEMPTS runs and is judged on the
 * first one that meets every condition; each failed attempt is printed,
 * and a scenario that never meets them fails with its last values.  A
 * pause between attempts lets a burst of foreign load pass. */
#define ATTEMPTS 3

/* Repetitions from..n-1 that were flagged, and how many of those the
 * harness recalibrated on. */
static void flags(const json_t *reps, size_t from, size_t *flagged, size_t *recal)
{
	*flagged = *recal = 0;
	for (size_t i = from; i < json_array_size(reps); i++) {
		json_t *c = json_object_get(json_array_get(reps, i), "calibration");

		if (json_is_true(json_object_get(c, "drifted"))) {
			++*flagged;
			*recal += json_is_true(json_object_get(c, "recalibrated"));
		}
	}
}

/* With the true rate, a repetition is flagged only where the loop's speed
 * really moved: this machine's PUs change speed by up to 1.7x (timing.h),
 * seen here as hold ratios of 0.76-0.95 in a quiet CI run.  A flag the
 * harness recalibrated on (its probe saw another rate, or the side ran
 * short) is the check working; a flag put down to time off the CPU is a
 * false alarm in a quiet run, and fails. */
static int quiet(const struct workload_ops *ops, json_t *p, char *msg, size_t len)
{
	json_t *res = runner_run(ops, p);
	json_t *sum = json_object_get(json_object_get(res, "summary"), "calibration");
	json_t *reps = json_object_get(res, "repetitions");
	double h[3];
	size_t flagged, confirmed;

	for (size_t i = 0; i < 3; i++)
		h[i] = num(json_object_get(json_array_get(reps, i), "calibration"), "hold", "ratio");
	flags(reps, 0, &flagged, &confirmed);
	int ok = !strcmp(json_string_value(json_object_get(res, "status")), "ok") &&
		 json_integer_value(json_object_get(sum, "checked")) == 3 && flagged == confirmed;
	snprintf(msg, len,
		 "quiet run: status %s, %lld of 3 repetitions checked, %zu flagged, %zu of them "
		 "confirmed by the probe (hold ratios %.3f %.3f %.3f)",
		 json_string_value(json_object_get(res, "status")),
		 (long long)json_integer_value(json_object_get(sum, "checked")), flagged, confirmed,
		 h[0], h[1], h[2]);
	json_decref(res);
	return ok;
}

/* Twice the rate: the loop spins twice as long as asked.  A later
 * repetition may be flagged too, where the PU's speed moved again (a CI
 * run: the loop ran 1.18x faster than its start-up calibration, and then
 * faster than the recalibration too, 0.81 of the asked-for think), but
 * only recalibrated (the probe saw another rate, or the side ran short):
 * a flag explained as time off the CPU fails, as in the quiet run. */
static int drifted(const struct workload_ops *ops, json_t *p, double rate, char *msg, size_t len)
{
	tm_set_iters_per_ns(2 * rate);
	json_t *res = runner_run(ops, p);
	json_t *reps = json_object_get(res, "repetitions");
	json_t *c0 = json_object_get(json_array_get(reps, 0), "calibration");
	json_t *c1 = json_object_get(json_array_get(reps, 1), "calibration");
	json_t *sum = json_object_get(json_object_get(res, "summary"), "calibration");
	json_t *dr = json_object_get(sum, "drifted_repetitions");
	double h0 = num(c0, "hold", "ratio"), t0 = num(c0, "think", "ratio");
	double pr = json_number_value(json_object_get(c0, "probe_ratio"));
	double now = tm_iters_per_ns() / rate;
	int flagged = json_is_true(json_object_get(c0, "drifted")) && h0 > 1.6 && h0 < 2.5 &&
		      t0 > 1.6 && t0 < 2.5;
	int recal = json_is_true(json_object_get(c0, "recalibrated")) && fabs(pr - 2) < 0.5;
	size_t later, confirmed;

	flags(reps, 1, &later, &confirmed);
	int after = json_array_size(reps) == 3 && later == confirmed;
	int listed = json_array_size(dr) == 1 + later &&
		     json_integer_value(json_array_get(dr, 0)) == 0 &&
		     json_array_size(json_object_get(sum, "recalibrated_after")) == 1 + later;
	int back = fabs(now - 1) < 0.25;

	snprintf(msg, len,
		 "drifted loop: repetition 0 flagged%s (hold ratio %.3f, think ratio %.3f, want "
		 "~2), recalibrated%s (probe ratio %.3f), later repetitions at the asked-for "
		 "times or flagged and recalibrated%s (repetition 1: hold ratio "
		 "%.3f, think ratio %.3f; %zu later flagged, %zu recalibrated), summary lists the "
		 "flagged repetitions%s, the rate in use is the measured one again%s (%.3f of it)",
		 flagged ? "" : " [NO]", h0, t0, recal ? "" : " [NO]", pr, after ? "" : " [NO]",
		 num(c1, "hold", "ratio"), num(c1, "think", "ratio"), later, confirmed,
		 listed ? "" : " [NO]", back ? "" : " [NO]", now);
	json_decref(res);
	tm_set_iters_per_ns(rate);
	return flagged && recal && after && listed && back;
}

/* One scenario, up to ATTEMPTS times: the quiet run (cpu < 0: the true
 * rate is in use) or the doubled rate.  The rate it doubles is measured
 * on the lock thread's PU just before each attempt: a rate left from an
 * earlier run can be stale by the time it is doubled (a CI run: the quiet
 * run recalibrated at 1.37x the start-up rate, the PU slowed again, and
 * the "doubled" loop came out at 1.10-1.31 of its time). */
static void attempt(const struct workload_ops *ops, json_t *p, int cpu)
{
	char msg[768];
	int ok = 0, a;

	for (a = 1; a <= ATTEMPTS && !ok; a++) {
		ok = cpu >= 0 ? drifted(ops, p, tm_probe_on(cpu), msg, sizeof(msg))
			      : quiet(ops, p, msg, sizeof(msg));
		if (!ok && a < ATTEMPTS) {
			printf("# attempt %d of %d: %s\n", a, ATTEMPTS, msg);
			sleep(2);
		}
	}
	CHECK(ok, "%s (attempt %d of %d)", msg, a - 1, ATTEMPTS);
}

int main(void)
{
	const struct workload_ops *ops = wl_find("spin-tas");
	char err[256];

	if (topo_init(err, sizeof(err))) {
		CHECK(0, "drift: topology: %s", err);
		return 1;
	}
	json_t *p = params();

	tm_calibrate();

	/* The true rate (measured by the run on its PU): a quiet run flags
	 * nothing put down to time off the CPU.  Then twice the rate of the
	 * lock thread's PU, measured anew for each attempt. */
	int cpu;

	if (topo_assign("compact", 1, &cpu, err, sizeof(err))) {
		CHECK(0, "drift: the lock thread's PU: %s", err);
		return 1;
	}
	attempt(ops, p, -1);
	attempt(ops, p, cpu);
	json_decref(p);
	return tap_failed ? 1 : 0;
}
