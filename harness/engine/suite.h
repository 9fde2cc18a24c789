/* suite.h - a suite's runs one after another (or a point's arms taking
 * turns), with progress and an ETA, until the end or a stop signal. */
#ifndef SB_SUITE_H
#define SB_SUITE_H

#include <jansson.h>

#include "config.h"

/* The seconds the runs' windows, warm-ups and repetitions plan
 * (iso_planned_s of each). */
double suite_planned_s(const struct cfg_suite *s);
/* Runs every run of s, each in its own process, interleaved when the suite
 * says so, and appends each result, with its id and label, to doc's
 * "results" (res_new); progress lines on stderr unless quiet.  doc's meta
 * gets perf_keys, interleave and, when a signal stopped the suite,
 * interrupted: the runs not started are left out.  Returns that signal, 0
 * when every run ran. */
int suite_run(const struct cfg_suite *s, json_t *doc, int quiet);

#endif
