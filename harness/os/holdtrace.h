/* holdtrace.h - where the lock threads were switched out: holding the lock
 * (inside the section's faulting part or in its user-space part) or
 * waiting, from sched:sched_switch in a tracefs instance of our own and
 * the threads' logs of their long holds.
 *
 * The proxy, said plainly: the kernel's event has no user-space state, so
 * each thread stamps its holds with rdtsc (acquired, faulting part's start
 * and end, released) and logs those at least holder_trace_us long; the
 * instance's trace clock is x86-tsc, the same counter.  A runnable switch-out
 * (prev_state without a sleep bit: preempted, or a yield) whose stamp falls
 * in a logged hold is a holder preemption; "in_fault" when it falls between
 * the faulting part's stamps (the thread was then in the fault handler or
 * between two faults, mostly the former with one write per page), "in_user"
 * otherwise.  A switch-out off the CPU at least the threshold cannot hide in
 * a shorter, unlogged hold, so it is a waiter's when no hold contains it;
 * shorter ones are counted as "short", not classified.  Where a grant could
 * be decided (return to user space) and where it cannot (preemption inside
 * the kernel) is what in_user and in_fault stand for: a refinement by the
 * switch's kernel stack is left to a kernel that can be instrumented. */
#ifndef SB_HOLDTRACE_H
#define SB_HOLDTRACE_H

#include <stdint.h>

#include <jansson.h>

struct hl_rec {
	uint64_t acq, f0, f1, rel; /* TSC; f0 = f1 = 0 without a faulting part */
};

struct hl_log {
	struct hl_rec *rec;
	uint32_t n, cap;
	uint64_t dropped; /* long holds past cap: the classification undercounts */
};

/* A log for one thread (NULL when out of memory); reset at the window's
 * start by hl_reset. */
struct hl_log *hl_log_new(void);
void hl_reset(struct hl_log *l);
void hl_log_free(struct hl_log *l);

struct holdtrace;

/* want 0: not traced (the result says why).  Never NULL. */
struct holdtrace *holdtrace_open(int want, const char *instance_tag);
/* The window opens: only these tids' switches are kept. */
void holdtrace_begin(struct holdtrace *h, const int *tids, unsigned n);
/* The window closed: tracing off (call before the threads are joined). */
void holdtrace_stop(struct holdtrace *h);
/* After the join: the window's counts (NULL untraced); logs[i] is tids[i]'s;
 * thr_tsc the logging threshold; grants the threads' counted slice grants. */
json_t *holdtrace_end(struct holdtrace *h, const int *tids, struct hl_log *const *logs,
		      unsigned n, uint64_t thr_tsc, uint64_t grants);
/* The run's totals, or {"status": "unsupported"|"skipped", "reason"}. */
json_t *holdtrace_summary(struct holdtrace *h);
void holdtrace_close(struct holdtrace *h);

#endif
