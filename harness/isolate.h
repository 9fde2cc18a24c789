/* isolate.h - one run in its own child process, under a watchdog. */
#ifndef SB_ISOLATE_H
#define SB_ISOLATE_H

#include <jansson.h>

#include "config.h"

/* Always returns a result object: the child's, or a "failed" one that
 * names the signal, the exit status or the watchdog that ended it. */
json_t *iso_run(const struct cfg_run *run);
/* The watchdog for a run: its timeout_s, or the planned time + 30 s. */
double iso_timeout_s(const json_t *params);
/* Planned wall time of a run, for progress and ETA. */
double iso_planned_s(const json_t *params);

#endif
