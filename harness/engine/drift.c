/* drift.c - each repetition checks its own busy-loop calibration.
 *
 * cs_ns and think_ns become loop iterations once per process (timing.c).
 * If the loop later runs at another speed, every figure is measured at a
 * critical section the config did not ask for.  Under TCG this happens:
 * with cs_ns 1000 a guest run sampled a hold p50 of 592 ns once its code
 * was translated and chained, and one thread's throughput moved by 1.7x
 * in the middle of a run where nothing could be preempted.  On any
 * machine a task sharing the PU stretches the sections in wall time.
 *
 * So after each repetition the sampled hold p50 is set against cs_ns and
 * the sampled think p50 against think_ns.  A ratio outside [1/TOL, TOL]
 * flags the repetition.  The busy loop's rate is then measured again.  If
 * the loop itself runs at another speed, the next repetitions use the new
 * rate (a recalibration).  If it runs at the calibrated rate, the time was
 * lost off the CPU, and no calibration can give it back: the result says
 * so.  A section or think that came out short of its time (ratio below
 * 1/TOL) is always recalibrated: time off the CPU only stretches, so only
 * a faster loop explains it, even where the probe, a few milliseconds
 * later, lands just inside the tolerance (a CI run: think 0.81 of its
 * time after a recalibration, the PU still speeding up). */
#define _GNU_SOURCE
#include "drift.h"

#include <math.h>

#include "../lib/hist.h"
#include "../lib/resset.h"
#include "../os/timing.h"

/* Quiet runs on this suite's hosts stay within a few percent at 1 us; a
 * quarter covers the sample's own rdtsc (tens of ns under emulation) and
 * the shared line's miss inside the hold. */
#define DRIFT_TOL 1.25
/* Below this the sample's own cost is a large part of the value. */
#define DRIFT_MIN_NS 500

/* One side's check: the shape SB_FLD_CALSIDE of fields.h, its keys named
 * by the hold's. */
static json_t *one(const struct hist *h, int64_t want_ns, const char *key, int *drifted,
		   int *checked, int *fast)
{
	if (want_ns < DRIFT_MIN_NS)
		return json_pack("{s:I,s:s++}", fld_key(fld_cal_hold_expected),
				 (json_int_t)want_ns, fld_key(fld_cal_hold_unchecked), key, " below 500 ns: the sample's own cost is a large part of ",
				 "the value");
	if (!h->count)
		return json_pack("{s:I,s:s}", fld_key(fld_cal_hold_expected),
				 (json_int_t)want_ns, fld_key(fld_cal_hold_unchecked),
				 "no samples in this repetition (loop \"bare\", fewer operations "
				 "than sample_every, or a workload that times nothing)");
	double p50 = (double)hist_quantile(h, 0.5), r = p50 / (double)want_ns;
	int bad = r > DRIFT_TOL || r < 1 / DRIFT_TOL;

	*checked = 1;
	*drifted |= bad;
	*fast |= r < 1 / DRIFT_TOL;
	return json_pack("{s:I,s:f,s:f,s:I,s:b}", fld_key(fld_cal_hold_expected),
			 (json_int_t)want_ns, fld_key(fld_cal_hold_p50), p50,
			 fld_key(fld_cal_hold_ratio), r, fld_key(fld_cal_hold_samples),
			 (json_int_t)h->count, fld_key(fld_cal_hold_drifted), bad);
}

json_t *drift_check_rep(const struct rep *r, int64_t cs_ns, int64_t think_ns)
{
	struct hist *hold = calloc(1, sizeof(*hold)), *think = calloc(1, sizeof(*think));
	int drifted = 0, checked = 0, fast = 0;

	if (!hold || !think)
		abort();
	for (unsigned i = 0; i < r->n; i++) {
		hist_merge(hold, &r->w[i].t.hold_ns);
		hist_merge(think, &r->w[i].t.think_ns);
	}
	double rate = tm_iters_per_ns();
	json_t *j = json_pack("{s:f,s:f,s:o,s:o}", fld_key(fld_cal_tol), DRIFT_TOL,
			      fld_key(fld_cal_rate), rate, fld_key(fld_cal_hold),
			      one(hold, cs_ns, "cs_ns", &drifted, &checked, &fast),
			      fld_key(fld_cal_think),
			      one(think, think_ns, "think_ns", &drifted, &checked, &fast));

	free(hold);
	free(think);
	res_set(j, fld_cal_checked, json_boolean(checked));
	res_set(j, fld_cal_drifted, json_boolean(drifted));
	if (!drifted)
		return j;
	/* On the first lock thread's PU, where the rate in use was measured. */
	double now = r->n ? tm_probe_on(r->w[0].cpu) : tm_probe_iters_per_ns();

	if (drift_judge(j, rate, now, fast))
		tm_set_iters_per_ns(now);
	return j;
}

int drift_judge(json_t *j, double rate, double now, int fast)
{
	double slow = rate / now;
	int moved = slow > DRIFT_TOL || slow < 1 / DRIFT_TOL;

	res_set(j, fld_cal_probe, json_real(now));
	res_set(j, fld_cal_probe_ratio, json_real(slow));
	res_set(j, fld_cal_recal, json_boolean(moved || fast));
	if (moved)
		return 1;
	if (fast) {
		res_set(j, fld_cal_reason,
			json_sprintf("a section ran short of its calibrated time, which only a "
				     "faster loop explains: recalibrated although the probe "
				     "(%.2fx) is within the tolerance",
				     slow));
		return 1;
	}
	res_set(j, fld_cal_reason,
		json_sprintf("the busy loop runs at its calibrated rate (probe %.2fx): the "
			     "sections were stretched while their threads were off the CPU or "
			     "shared it, which a new calibration cannot undo",
			     slow));
	return 0;
}

void drift_summary(json_t *res)
{
	json_t *sum = json_object_get(res, fld_r_summary), *rep, *dr = json_array(), *rc = json_array();
	size_t i, checked = 0;

	json_array_foreach(json_object_get(res, fld_r_reps), i, rep) {
		json_t *c = json_object_get(rep, fld_cal);

		checked += json_is_true(json_object_get(c, fld_key(fld_cal_checked)));
		if (json_is_true(json_object_get(c, fld_key(fld_cal_drifted))))
			json_array_append_new(dr, json_integer((json_int_t)i));
		if (json_is_true(json_object_get(c, fld_key(fld_cal_recal))))
			json_array_append_new(rc, json_integer((json_int_t)i));
	}
	if (!sum) {
		json_decref(dr);
		json_decref(rc);
		return;
	}
	res_set(sum, fld_s_cal,
			    json_pack("{s:f,s:I,s:o,s:o}", fld_key(fld_s_cal_tol),
				      DRIFT_TOL, fld_key(fld_s_cal_checked),
				      (json_int_t)checked,
				      fld_key(fld_s_cal_drifted), dr,
				      fld_key(fld_s_cal_recal), rc));
}
