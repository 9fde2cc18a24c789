/* aapace.h - an A/A pair's test, adjusted for the emulator's pace. */
#ifndef SB_AAPACE_H
#define SB_AAPACE_H

#include <jansson.h>

#include "../lib/stats.h"

/* The comparison of result b against result a (ops/s per window, b / a),
 * st_pace_test's: adjusted for the think section's sampled median of each
 * window (calibration.think.p50_ns) when every window of both with ops > 0
 * carries one that fits, else Welch's. */
void aa_test(const json_t *a, const json_t *b, struct st_pace *t);
/* st_pace_json of t, naming the covariate. */
json_t *aa_test_json(const struct st_pace *t, double level, double power);

#endif
