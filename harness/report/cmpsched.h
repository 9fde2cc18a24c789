/* cmpsched.h - what the scheduler did in a compare row's windows: how
 * often lock holders were switched out holding (where the runs traced
 * them) and how many scheduler rounds a window held. */
#ifndef REPORT_CMPSCHED_H
#define REPORT_CMPSCHED_H

#include <jansson.h>

/* Sets row.a and row.b's holder {preempted_per_s, grants_per_s, seconds,
 * windows} (traced runs), rounds_per_window and threads_per_pu, the
 * mechanism beside it (cmpmech.h: can_fire_per_1000, grants_ended), and
 * appends to flags the short-window flag of an oversubscribed side whose
 * windows held fewer than CMP_MIN_ROUNDS rounds.  ra is A's result. */
void cmp_sched(json_t *row, json_t *flags, const json_t *ra, const json_t *rb);

#endif
