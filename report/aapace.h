/* aapace.h - an A/A pair's test, adjusted for the emulator's pace. */
#ifndef SB_AAPACE_H
#define SB_AAPACE_H

#include <jansson.h>

#include "../lib/stats.h"

/* The comparison of result b against result a (ops/s per window, b / a):
 * w is the test the check decides on: adjusted for the think section's
 * sampled median of each window (calibration.think.p50_ns) when every
 * window of both with ops > 0 carries one that fits (adjusted 1), else
 * Welch's (adjusted 0).  raw is Welch's in both cases. */
struct aa_test {
	struct st_welch w, raw;
	double slope; /* of log ops/s on log think p50; NAN unadjusted */
	int adjusted;
	size_t na, nb; /* windows with ops > 0 */
};
void aa_test(const json_t *a, const json_t *b, struct aa_test *t);
/* {covariate, slope, unadjusted: {ratio, ratio_ci95, p, mde}} for an
 * adjusted test (mde at level and power), else NULL. */
json_t *aa_test_json(const struct aa_test *t, double level, double power);

#endif
