/* interleave.h - the arms of one point take turns: one repetition each per
 * round, in an order shuffled from the suite's seed, so drift and host load
 * land on every arm alike instead of on whichever ran during them. */
#ifndef SB_INTERLEAVE_H
#define SB_INTERLEAVE_H

#include <stddef.h>

#include <jansson.h>

#include "config.h"

/* The child's ends: the parent writes one byte to go_fd per turn, the child
 * answers on ack_fd. */
struct il_gate {
	int go_fd, ack_fd;
};

/* A repetition's answer: it wants more turns (IL_MORE), it has what its
 * own rule asks and may go on (IL_DONE: an arm of an A/A check, whose
 * pair decides), or it takes no further turn (IL_LAST). */
enum il_answer { IL_MORE = 'm', IL_DONE = 'd', IL_LAST = 'l' };

/* Child side; each is a no-op for a NULL g.  il_ready: set up, waiting
 * for turns.  il_turn: blocks until the arm's next turn; 0, or when the
 * parent ends the arm 1 (its A/A check is decided) or 2 (its own rule is
 * met and no check holds it), -1 when it gives none.
 * il_turn_done: the repetition is over, with its ops/s and its think
 * section's sampled median in ns, the emulator's pace that window (NAN:
 * none). */
void il_ready(const struct il_gate *g);
int il_turn(const struct il_gate *g);
void il_turn_done(const struct il_gate *g, enum il_answer a, double ops, double pace);

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
