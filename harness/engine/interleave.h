/* interleave.h - the arms of one point take turns: one repetition each per
 * round, in an order shuffled from the suite's seed, so drift and host load
 * land on every arm alike instead of on whichever ran during them. */
#ifndef SB_INTERLEAVE_H
#define SB_INTERLEAVE_H

#include <stddef.h>

#include <jansson.h>

#include "config.h"
#include "gate.h" /* the child's side of the turns */

/* Parent side: the suite's order (GSL mt19937 from seed; 0 = from the
 * clock), NULL when out of memory. */
struct il_order *il_new(unsigned long seed);
void il_free(struct il_order *o);
/* meta.interleave: {seed, rng}. */
json_t *il_meta(const struct il_order *o);
/* Runs the point of s->runs[first]: every run from first on that no
 * result in done[] has yet and that is equal to it in every run key but
 * the selectors (cfg_is_selector); done[i] is set for each of them. */
void il_run_point(struct il_order *o, const struct cfg_suite *s, size_t first, json_t **done);

/* How many points the suite's runs form. */
size_t il_points(const struct cfg_suite *s);

#endif
