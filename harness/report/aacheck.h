/* aacheck.h - A/A checks of the dry controls, for compare's report. */
#ifndef SB_AACHECK_H
#define SB_AACHECK_H

#include <stdio.h>

#include <jansson.h>

#include "compare.h"

/* For each ok dry control (params.dry) at one thread per PU with no noise
 * and no victim, paired with the real workload at the same parameters:
 * {control, real, nthreads, band_pct, n_real, n_dry, ratio, ratio_ci95, p,
 * grants, verdict: valid | invalid | inconclusive}. */
json_t *aa_checks(const json_t *doc, const struct cmp_opts *o);
/* The true A/A pairs of doc (the same workload and point under two
 * labels): {pairs, positives, rate, rate_ci95, alpha, list: [{workload,
 * a_label, b_label, nthreads, ratio, p, positive}]}, or NULL when none. */
json_t *aa_twins(const json_t *doc, const struct cmp_opts *o);
/* Adds doc's checks to rep.aa_checks (tagged with file), a warning per
 * invalid control, its true A/A pairs to rep.true_aa, and control_aa {control, verdict, ratio} to every row
 * whose A or B workload is a checked control. */
void aa_attach(json_t *rep, const json_t *doc, const char *file, const struct cmp_opts *o);
/* The checks as a list under the header (text, markdown, html). */
void aa_print(FILE *f, const json_t *rep, enum cmp_format fmt);

#endif
