/* question.h - the question a study asks, as contrasts between its arms.
 *
 * configs/questions/NAME.json (beside configs/NAME.json, which the run
 * side reads and this file stays out of):
 *   { "question": "Does requesting the extension ...?",
 *     "contrasts": [ { "name": "each placement vs its dry control",
 *                      "metric": "ops_per_sec",
 *                      "treatment": { "dry": false },
 *                      "control":   { "dry": true },
 *                      "where":     { "policy": ["cs", "pre", "rearm"] },
 *                      "ignore":    [ "slice_ext_nsec" ],
 *                      "published": 1.5,
 *                      "published_by": "who measured it, and where" } ] }
 * A contrast may name "reference": a published number, instead of a
 * control: each treatment result's metric is then set against it (qref.h).
 * Either number may come from the targets file by id instead ("target",
 * with the question's "targets": its path; qtarget.h), which is how the
 * committed questions cite the published measurements. 
 * A selector's key is "workload", "meta.PATH" (the meta the result was
 * measured under) or a run parameter; its value one JSON value or a list
 * of the values it accepts.  Each treatment result is paired with the
 * control result whose run parameters are the same except the keys the
 * selectors and "ignore" name; within one input, unless a selector names
 * a meta key (the contrast is then between inputs: preemption models).
 * The pairs are tested as `compare` tests any two files (compare.h): the
 * contrasts against a control are the study's primary ones and share alpha
 * 0.05 (each at 0.05 / k for k of them, Holm within it), per input. */
#ifndef SB_QUESTION_H
#define SB_QUESTION_H

#include <stddef.h>

#include <jansson.h>

#include "gnuplot.h"

#define Q_MAXREPS 16

struct contrast_rep {
	json_t *rep;	 /* compare's report of the pairs (rows' a = control) */
	char tag[128];	 /* the input it is from, "" when across inputs */
	const json_t *c; /* its contrast in the question */
};

struct question {
	json_t *doc;	  /* the parsed file */
	const char *text; /* "question" */
	struct contrast_rep reps[Q_MAXREPS];
	size_t n;
	char note[1200]; /* why a contrast has no report */
};

/* Parses and checks PATH.  0, or -1 with err naming the file and line,
 * column (syntax) or key path and the value given. */
int question_load(const char *path, struct question *q, char *err, size_t len);
/* One report per contrast and input of c (inputs without a pair give none;
 * q->note says why when no contrast has one). */
void question_answer(struct question *q, struct plotctx *c);
void question_free(struct question *q);
/* Whether contrast c's control is its treatment's dry control: it selects
 * dry true, or names a workload that ends in "dry". */
int question_dry_control(const json_t *c);
/* Whether each contrast's treatment and control (each with its "where")
 * match a run of runs ({workload, params} objects, a config's points) by
 * its workload and run keys (meta keys are known only once it ran).  0,
 * or -1 with err naming the contrast's arm, what it asks and config. */
int question_check_runs(const struct question *q, const json_t *runs, const char *config,
			char *err, size_t len);

#endif
