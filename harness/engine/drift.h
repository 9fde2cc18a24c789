/* drift.h - per-repetition check of the busy-loop calibration.
 * Private to runner.c (and its tests). */
#ifndef SB_DRIFT_H
#define SB_DRIFT_H

#include <stdint.h>

#include <jansson.h>

#include "rep.h"

/* A repetition's "calibration" object: the lock threads' sampled hold p50
 * against cs_ns and think p50 against think_ns, each flagged when the
 * ratio leaves [1/1.25, 1.25].  When one is, the busy loop's rate is
 * measured again; if it moved by more than that the next repetitions use
 * the new rate ("recalibrated"), else "reason" says why not. */
json_t *drift_check_rep(const struct rep *r, int64_t cs_ns, int64_t think_ns);
/* The verdict on a drifted repetition, given the rate in use and the rate
 * the probe measured now (iterations per ns) and whether a side came out
 * short: sets probe_iters_per_ns, probe_ratio, recalibrated and, where the
 * probe alone did not decide, reason, in j.  Returns 1 when the caller must
 * put the probe's rate in use.  No measurement: the tests drive it with
 * rates of their choosing. */
int drift_judge(json_t *j, double rate, double now, int fast);
/* summary.calibration: the tolerance, how many repetitions were checked,
 * which drifted and after which the loop was recalibrated. */
void drift_summary(json_t *res);

#endif
