/* extstate.h - whether the rseq time-slice extension ran in a result, and
 * if not why, in one line: the first line of run's table and of plot's
 * report.  Read from what the result records: each run's params, status
 * and reason, its grant counts, and meta.slice_extension. */
#ifndef SB_EXTSTATE_H
#define SB_EXTSTATE_H

#include <stddef.h>

#include <jansson.h>

/* "slice extension: ran here, in N runs: G of R requests granted",
 * "slice extension: did not run here: REASON", or, when no run asked for
 * it, whether this machine has it (and why not); into buf. */
void ext_state_line(const json_t *doc, char *buf, size_t len);

#endif
