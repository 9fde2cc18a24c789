/* cmpmech.h - the mechanism beside a compare row's ratio: how often the
 * extension could have fired, and how the kernel's grants ended.
 *
 * A grant can only matter where a lock holder is preempted inside its
 * critical section.  A lock thread is switched out involuntarily p times
 * a second (getrusage's nivcsw over the window) and holds the lock for a
 * share h / n of its time (the sampled hold median h times the ops/s,
 * spread over n threads), so holders are preempted about p * h * ops / n
 * times a second: per 1000 acquisitions, 1000 * p * h / n.  That is the
 * model (can_fire_per_1000); the measured grants per 1000 acquisitions
 * stand beside it, and the kernel's own counts (debugfs rseq/stats over
 * the windows) say how the grants ended: yielded by the holder, or
 * revoked (the timer's expiry among them). */
#ifndef SB_CMPMECH_H
#define SB_CMPMECH_H

#include <jansson.h>

/* Sets side.can_fire_per_1000 (median over r's windows; left out without
 * the counts) and side.grants_ended {granted, yielded, revoked, expired}
 * (r's summary.rseq_stats, where it was read). */
void cmp_mechanism(json_t *side, const json_t *r);

#endif
