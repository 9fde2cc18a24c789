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

#include "../../harness/keys.h"
#include "../../harness/runner.h"
#include "../../harness/timing.h"
#include "../../harness/topo.h"
#include "../../harness/workload.h"
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
	 * nothing. */
	json_t *res = runner_run(ops, p);
	double rate = tm_iters_per_ns();
	json_t *sum = json_object_get(json_object_get(res, "summary"), "calibration");

	CHECK(!strcmp(json_string_value(json_object_get(res, "status")), "ok"), "quiet run ok");
	CHECK(json_integer_value(json_object_get(sum, "checked")) == 3,
	      "quiet run: all 3 repetitions checked");
	CHECK(json_array_size(json_object_get(sum, "drifted_repetitions")) == 0,
	      "quiet run: no repetition flagged (hold ratios %.3f %.3f %.3f)",
	      num(json_object_get(json_array_get(json_object_get(res, "repetitions"), 0),
				  "calibration"), "hold", "ratio"),
	      num(json_object_get(json_array_get(json_object_get(res, "repetitions"), 1),
				  "calibration"), "hold", "ratio"),
	      num(json_object_get(json_array_get(json_object_get(res, "repetitions"), 2),
				  "calibration"), "hold", "ratio"));
	json_decref(res);

	/* Twice the rate: the loop spins twice as long as asked. */
	tm_set_iters_per_ns(2 * rate);
	res = runner_run(ops, p);
	json_t *reps = json_object_get(res, "repetitions");
	json_t *c0 = json_object_get(json_array_get(reps, 0), "calibration");
	json_t *c1 = json_object_get(json_array_get(reps, 1), "calibration");
	double h0 = num(c0, "hold", "ratio"), t0 = num(c0, "think", "ratio");

	sum = json_object_get(json_object_get(res, "summary"), "calibration");
	CHECK(json_is_true(json_object_get(c0, "drifted")) && h0 > 1.6 && h0 < 2.5 && t0 > 1.6 &&
		      t0 < 2.5,
	      "drifted loop: repetition 0 flagged, hold ratio %.3f, think ratio %.3f (want ~2)",
	      h0, t0);
	CHECK(json_is_true(json_object_get(c0, "recalibrated")) &&
		      fabs(json_number_value(json_object_get(c0, "probe_ratio")) - 2) < 0.5,
	      "drifted loop: recalibrated after repetition 0 (probe ratio %.3f)",
	      json_number_value(json_object_get(c0, "probe_ratio")));
	CHECK(json_is_false(json_object_get(c1, "drifted")),
	      "drifted loop: repetition 1 runs at the asked-for times (hold ratio %.3f)",
	      num(c1, "hold", "ratio"));
	CHECK(json_array_size(json_object_get(sum, "drifted_repetitions")) == 1 &&
		      json_integer_value(json_array_get(
			      json_object_get(sum, "drifted_repetitions"), 0)) == 0 &&
		      json_array_size(json_object_get(sum, "recalibrated_after")) == 1,
	      "drifted loop: summary lists repetition 0 as drifted and recalibrated");
	CHECK(fabs(tm_iters_per_ns() / rate - 1) < 0.25,
	      "drifted loop: the rate in use is the measured one again (%.3f of it)",
	      tm_iters_per_ns() / rate);
	json_decref(res);
	json_decref(p);
	return tap_failed ? 1 : 0;
}
