/* drift.c - the per-repetition calibration check.
 *
 * First the verdict itself (drift_judge), with rates of the test's
 * choosing: which probe ratios recalibrate, which are put down to time off
 * the CPU, what the JSON says.  Then two real runs, the true rate and a
 * rate twice the measured one (the loop then really spins about twice
 * cs_ns), judged only on what holds however the host's load and the PU's
 * speed move while they run: each repetition's flag agrees with its
 * ratios, each verdict with its probe, each repetition uses the rate the
 * one before it left, and the summary lists exactly the flagged and
 * recalibrated ones.  Whether the doubled loop comes out near 2 and is
 * recalibrated needs the PU to keep its speed for a second, which this
 * machine's PUs do not promise (up to 1.7x within minutes, timing.h): that
 * is harness/selfbench/driftcheck.c, in `make bench`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/core/keys.h"
#include "../../harness/engine/drift.h"
#include "../../harness/engine/runner.h"
#include "../../harness/os/timing.h"
#include "../../harness/os/topo.h"
#include "../../harness/core/workload.h"
#include "../../harness/selfbench/driftscene.h"
#include "tap.h"

/* One verdict: the rate in use, the probe's, whether a side ran short. */
static void judge(const char *what, double rate, double now, int fast, int want_recal,
		  const char *want_reason)
{
	json_t *j = json_object();
	int r = drift_judge(j, rate, now, fast);
	const char *reason = json_string_value(json_object_get(j, "reason"));
	double pr = json_number_value(json_object_get(j, "probe_ratio"));

	CHECK(r == want_recal && json_is_true(json_object_get(j, "recalibrated")) == want_recal &&
		      fabs(pr - rate / now) < 1e-12 &&
		      json_number_value(json_object_get(j, "probe_iters_per_ns")) == now &&
		      (want_reason ? reason && strstr(reason, want_reason) : !reason),
	      "drift verdict, %s: probe ratio %.3f, %srecalibrated, reason %s", what, pr,
	      r ? "" : "not ", reason ? reason : "(none)");
	json_decref(j);
}

static double num(const json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	return json_number_value(b ? json_object_get(v, b) : v);
}

static int outside(double r)
{
	return r > 1.25 || r < 1 / 1.25;
}

/* What holds of a real run under any load: rate0 is the rate in use when
 * it started. */
static void invariants(const char *what, const struct workload_ops *ops, json_t *p, double rate0)
{
	json_t *res = runner_run(ops, p);
	json_t *reps = json_object_get(res, "repetitions"), *rep;
	json_t *sum = json_object_get(json_object_get(res, "summary"), "calibration");
	json_t *dr = json_array(), *rc = json_array();
	double rate = rate0;
	int flag_ok = 1, verdict_ok = 1, chain_ok = 1;
	size_t i;
	char seen[512] = "";

	json_array_foreach(reps, i, rep) {
		json_t *c = json_object_get(rep, "calibration");
		double h = num(c, "hold", "ratio"), t = num(c, "think", "ratio");
		double pr = num(c, "probe_ratio", NULL);
		int drifted = json_is_true(json_object_get(c, "drifted"));
		int recal = json_is_true(json_object_get(c, "recalibrated"));
		size_t len = strlen(seen);

		snprintf(seen + len, sizeof(seen) - len, "%s[hold %.3f think %.3f probe %.3f %s]",
			 i ? " " : "", h, t, drifted ? pr : 0,
			 !drifted ? "ok" : recal ? "recalibrated" : "off the CPU");
		flag_ok &= drifted == (outside(h) || outside(t));
		chain_ok &= fabs(num(c, "iters_per_ns", NULL) / rate - 1) < 1e-9;
		if (drifted) {
			json_array_append_new(dr, json_integer((json_int_t)i));
			verdict_ok &= recal == (outside(pr) || h < 1 / 1.25 || t < 1 / 1.25) &&
				      fabs(pr - rate / num(c, "probe_iters_per_ns", NULL)) < 1e-9 &&
				      (recal || json_is_string(json_object_get(c, "reason")));
		}
		if (recal) {
			json_array_append_new(rc, json_integer((json_int_t)i));
			rate = num(c, "probe_iters_per_ns", NULL);
		}
	}
	CHECK(!strcmp(json_string_value(json_object_get(res, "status")), "ok") &&
		      json_array_size(reps) == 3 && json_integer_value(json_object_get(sum, "checked")) == 3,
	      "drift, %s: status %s, %lld of %zu repetitions checked", what,
	      json_string_value(json_object_get(res, "status")),
	      (long long)json_integer_value(json_object_get(sum, "checked")), json_array_size(reps));
	CHECK(flag_ok, "drift, %s: a repetition is flagged exactly when a ratio leaves [0.8, 1.25]: %s",
	      what, seen);
	CHECK(verdict_ok, "drift, %s: each flagged repetition is recalibrated exactly when its probe "
			  "left the tolerance or a side ran short, and otherwise says why",
	      what);
	CHECK(chain_ok && fabs(tm_iters_per_ns() / rate - 1) < 1e-9,
	      "drift, %s: each repetition runs at the rate the one before left (the first at %.4g "
	      "iterations/ns), and the run leaves the last in use (%.4g)",
	      what, rate0, tm_iters_per_ns());
	CHECK(json_equal(json_object_get(sum, "drifted_repetitions"), dr) &&
		      json_equal(json_object_get(sum, "recalibrated_after"), rc),
	      "drift, %s: the summary lists exactly the flagged (%zu) and recalibrated (%zu) "
	      "repetitions",
	      what, json_array_size(dr), json_array_size(rc));
	json_decref(dr);
	json_decref(rc);
	json_decref(res);
}

int main(void)
{
	const struct workload_ops *ops = wl_find("spin-tas");
	char err[256];
	int cpu;

	judge("the probe finds the rate in use", 2.0, 2.0, 0, 0, "off the CPU or shared it");
	judge("a loop at half its rate", 2.0, 1.0, 0, 1, NULL);
	judge("a loop at 1.3x its rate", 1.0, 1.3, 0, 1, NULL);
	judge("the probe at exactly the tolerance", 1.25, 1.0, 0, 0, "probe 1.25x");
	judge("a side ran short, the probe within", 1.0, 1.1, 1, 1, "ran short");

	if (topo_init(err, sizeof(err)) || topo_assign("compact", 1, &cpu, err, sizeof(err))) {
		CHECK(0, "drift: topology: %s", err);
		return 1;
	}
	json_t *p = drift_scene();

	tm_calibrate();
	tm_calibrate_on(cpu);
	invariants("the measured rate", ops, p, tm_iters_per_ns());
	/* Twice the PU's rate, measured just before: the loop spins about
	 * twice its time, as far as the PU keeps its speed. */
	double twice = 2 * tm_probe_on(cpu);

	tm_set_iters_per_ns(twice);
	invariants("twice the measured rate", ops, p, twice);
	json_decref(p);
	return tap_failed ? 1 : 0;
}
