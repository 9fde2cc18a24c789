/* forest.h - the answer figure of a study: every comparison's ratio to its
 * baseline with the 95% interval, as a dot-and-whisker (forest) chart, from
 * the report compare builds (its statistics are not recomputed here). */
#ifndef SB_FOREST_H
#define SB_FOREST_H

#include <jansson.h>

#include "gnuplot.h"

/* Draws one forest chart of the rows of reps[0..n) (compare reports, of
 * one metric) into the plot slot NAME.  Rows are grouped into panels and
 * groups by the run parameters that vary across them; a row's verdict is
 * printed beside it when it is improved or regressed.  tags[k] (or NULL) names the input of reps[k] when there are
 * several; xlabel names the ratio's axis. */
void plot_forest(struct plotctx *c, const char *name, const char *title, const char *caption,
		 const char *xlabel, json_t *const *reps, const char *const *tags, size_t n,
		 const char *empty);

/* The question's answer: the same rows on a symmetric log axis of at most
 * 0.25x-4x (up to 1/128x-128x when a report says "axis_max": 128, qref.h), each row's minimum detectable effect drawn as a band around
 * 1 (1/mde .. mde: a true effect inside it could have gone unseen), a
 * point beyond the axis drawn at its edge with its value, a collapse
 * (0-op windows) at its centres' ratio, the verdict or "equivalent" in a
 * column on the right, and a line at the published effect (0: none). */
void plot_answer(struct plotctx *c, const char *name, const char *title, const char *caption,
		 const char *xlabel, json_t *const *reps, const char *const *tags, size_t n,
		 double published);

#endif
