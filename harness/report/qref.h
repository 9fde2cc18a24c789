/* qref.h - a question's contrast against a published number instead of a
 * control arm (question.h): { "name": ..., "metric": "gettid_per_xadd",
 * "treatment": { "workload": "primitives" }, "reference": 7.8,
 * "published_by": "Zijlstra, LKML 25 Oct 2023" }.  Each treatment result
 * becomes one row: its metric over the reference with the 95% interval of
 * its repetitions, the verdict "above" or "below" when the reference lies
 * outside it after Holm and beyond a 5% band, else "inconclusive". */
#ifndef SB_QREF_H
#define SB_QREF_H

#include <stddef.h>

#include <jansson.h>

/* Whether result r of document doc is in contrast c's treatment. */
typedef int qref_in_fn(const json_t *doc, const json_t *r, const json_t *c);

/* compare's report shape: "rows" (a: the reference, b: the result),
 * "not_compared" (results without a positive value, with why),
 * "threshold_pct", and "axis_max" 128: the answer figure's axis may reach
 * 128x either way.  NULL with why when the treatment selects nothing. */
json_t *qref_report(json_t *const *docs, size_t n, const json_t *c, qref_in_fn *in, char *why,
		    size_t len);

#endif
