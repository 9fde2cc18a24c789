/* autorep.h - repetitions until the interval is narrow enough. */
#ifndef SB_AUTOREP_H
#define SB_AUTOREP_H

#include <stddef.h>

#include <jansson.h>

#include "../core/keys.h"

/* How many repetitions the runner may do: repetitions, or with
 * ci_target_pct > 0 the larger of repetitions and repetitions_max. */
unsigned autorep_cap(const struct run_params *p);
/* After n repetitions with ops/s x[0..n): 1 when the run should stop
 * (always at the fixed count; with a target, once n >= max(repetitions, 2)
 * and the 95% half-width of the geometric mean, on the logs, is at most
 * ci_target_pct of it: 100 (e^h - 1), h the half-width of the mean log). */
int autorep_done(const struct run_params *p, const double *x, size_t n);
/* summary.repetitions_auto {target_pct, min, max, n, half_width_pct,
 * stopped_by: "target" | "maximum" | "check" (by_check: the arm's A/A
 * check was decided, interleave.c)}, or NULL without a target. */
json_t *autorep_json(const struct run_params *p, const double *x, size_t n, int by_check);

#endif
