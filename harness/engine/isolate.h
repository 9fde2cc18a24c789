/* isolate.h - one run in its own child process, under a watchdog. */
#ifndef SB_ISOLATE_H
#define SB_ISOLATE_H

#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#include "config.h"

/* Always returns a result object: the child's, or a "failed" one that
 * names the signal, the exit status or the watchdog that ended it. */
json_t *iso_run(const struct cfg_run *run);
/* The watchdog for a run: its timeout_s, or the planned time + 30 s. */
double iso_timeout_s(const struct run_params *p);
/* Planned wall time of a run, for progress and ETA: its windows and
 * warm-ups times the repetitions it may make (autorep_cap). */
double iso_planned_s(const struct run_params *p);


struct il_gate;
/* The child's side: runs run (waiting for its turns at g, NULL none),
 * writes its result to fd and _exits; parent: the pid it must outlive. */
void iso_child(const struct cfg_run *run, int fd, pid_t parent, const struct il_gate *g)
	__attribute__((noreturn));

/* The parent's watchdog over one child: it is charged only with time this
 * process was there to watch (a stopped parent's stall is not). */
struct iso_watch {
	uint64_t left_ns, last_ns, asked_ns;
};

void iso_watch_start(struct iso_watch *w, double limit_s);
/* Charges from now on (after a pause in which the child was not due). */
void iso_watch_resume(struct iso_watch *w);
/* Until fd is readable (1, or hung up), the budget is spent (0) or a stop
 * signal is pending (-1). */
int iso_wait(struct iso_watch *w, int fd);
/* Reads the child's result from fd to its end, reaps pid and returns the
 * result or a failed/interrupted one (limit: the timeout_s it names).
 * Under a stop signal the child is given it (iso_stop) and a few seconds
 * to report the windows it completed. */
json_t *iso_collect(const struct cfg_run *run, pid_t pid, int fd, struct iso_watch *w,
		    double limit);
/* Passes the pending stop signal on to a run's child (none: nothing). */
void iso_stop(pid_t pid);
/* A result without a child: "interrupted" by the pending signal, or the
 * status and reason given. */
json_t *iso_interrupted(const struct cfg_run *run);
json_t *iso_status(const struct cfg_run *run, const char *status, const char *why);

#endif
