/* cmpnoise.h - run-to-run noise of a comparison: the same comparison made
 * on independent runs widens each row's interval and may void its
 * verdict (compare --noise). */
#ifndef SB_CMPNOISE_H
#define SB_CMPNOISE_H

#include <stdio.h>

#include <jansson.h>

#include "compare.h"

/* others[0..n) are the reports of the same comparison on other runs
 * (names: their files).  Adds run_to_run to each row of rep that has a
 * counterpart (ratios, CV, interval of one run's ratio, wider or not), and
 * the report's run_to_run summary.  A verdict whose wider interval holds 1
 * becomes inconclusive (verdict_within_run keeps the old one). */
int noise_attach(json_t *rep, json_t *const *others, const char *const *names, size_t n);
/* The summary and the changed verdicts, for the text formats. */
void noise_print(FILE *f, const json_t *rep, enum cmp_format fmt);

#endif
