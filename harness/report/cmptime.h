/* cmptime.h - how long a design takes to reach a minimum detectable effect.
 *
 * A row's MDE shrinks as 1/sqrt(n) (cmppower.h, power_reps_for): from its
 * own spread the repetitions per side that an MDE of CMP_MDE_GOAL needs
 * follow, and from the window starts the time each repetition took.  In
 * an interleaved point every arm takes one window a round, so a pair's
 * repetition costs a round of the whole point; elsewhere it costs a window
 * of each side.  A report's time is the sum over its points of the longest
 * time one of the point's rows needs: the points run one after another. */
#ifndef SB_CMPTIME_H
#define SB_CMPTIME_H

#include <stddef.h>

#include <jansson.h>

/* The MDE every study is sized for: x1.25 either way. */
#define CMP_MDE_GOAL 1.25

/* Sets a.window_period_s and b.window_period_s of row from its results ra
 * and rb (the mean spacing of each one's window starts: in an interleaved
 * point the round's length, else its own window with warm-up and set-up;
 * none below two windows), and row.shared_rounds when the two took turns
 * in one interleaved point: the same point of the config, each window of
 * one within a round of the other's (two boots of one config are not). */
void cmp_time_sides(json_t *row, const json_t *ra, const json_t *rb);
/* row.mde.goal {ratio, reps, seconds}: the repetitions per side an MDE of
 * CMP_MDE_GOAL needs at the row's level, and the time they take (a round
 * each where the rounds are shared; else both sides' windows add); none on
 * a row in two states (row.states: its share is its measure).  Call after
 * the MDE (power_decide). */
void cmp_time_row(json_t *row);
/* The time rows (metric and group as given; NULL: any) need to reach the
 * goal, seconds; *without counts the points no row of which has an
 * estimate.  NAN when no point has one. */
double cmp_time_to_goal(const json_t *rows, const char *metric, const char *group,
			size_t *without);
/* The same as {mde: CMP_MDE_GOAL, seconds (null when none), points_without}:
 * a compare summary's, and each contrast's of answer.json. */
json_t *cmp_time_goal(const json_t *rows, const char *metric, const char *group);

#endif
