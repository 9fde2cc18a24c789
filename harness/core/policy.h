/* policy.h - waiting policies: where a lock thread places its rseq
 * time-slice extension request, the second axis beside the lock algorithm
 * (multicore-locks/litl's src/waiting_policy.h keeps the two apart the same
 * way).  Three placements of the request: around the critical section,
 * from before the acquisition, and re-armed per acquisition attempt (as
 * FlexGuard's preemption-aware spin and MCS locks do, SOSP'25).
 *
 * A policy never changes which rseq area a thread registers: every lock
 * thread of every policy registers the same area where the kernel offers
 * the extension (runner.c), so arms differ only in the requests.  A dry run
 * makes the same stores on a thread-private area that is never registered,
 * so the kernel never reads it: the control for the stores themselves. */
#ifndef SB_POLICY_H
#define SB_POLICY_H

#include "../os/slice.h"
#include "../lib/vocab.h"
#include "workload.h"

/* The policies are listed once, in vocab.h.  What each placement does
 * before the thread may sleep in the kernel (FUTEX_WAIT, FUTEX_LOCK_PI, a
 * glibc mutex, nanosleep): see wl_sleep_enter() below. */
#define SB_POL_ENUM(A, ID, ...) POL_##ID,
enum wl_policy { SB_POLICIES(SB_POL_ENUM, ) POL_COUNT };

_Static_assert(POL_COUNT == WL_POLICIES, "workload.h sizes the loop table by WL_POLICIES");

extern const char *const wl_policy_names[POL_COUNT];
extern const char *const wl_policy_help[POL_COUNT];
/* POL_COUNT when name is none of them. */
enum wl_policy wl_policy_find(const char *name);

/* Whether policy p writes a request at all. */
static inline int wl_policy_requests(enum wl_policy p)
{
	return p != POL_NONE;
}

/* Whether policy p gives a grant back at once (rseq_slice_yield): a
 * constant where p is one, as in every loop. */
#define SB_POL_YIELDS(A, ID, name, yields, ...) case POL_##ID: return yields;
static inline int wl_policy_yields(enum wl_policy p)
{
	switch (p) {
		SB_POLICIES(SB_POL_YIELDS, )
	default:
		return 0;
	}
}

/* Called by a lock right before it may sleep in the kernel.  A sleeping
 * thread must not hold a request: the request is cleared, and a grant in
 * force is given back with rseq_slice_yield when the policy yields (the
 * sleep's own syscall would revoke it anyway: per the kernel's
 * Documentation/userspace-api/rseq.rst any other syscall in a grant does).  Only POL_PRE and POL_HOG can get here with
 * the request set (POL_CS and POL_NOYIELD set it after the acquisition,
 * POL_REARM's trylock never sleeps); on the slow path only, so the runtime
 * test costs nothing measurable next to the syscall that follows. */
static inline void wl_sleep_enter(struct wl_thread *t)
{
	struct sb_rseq *rs = t ? t->slice.rs : NULL;

	if (!rs || !atomic_load_explicit(&rs->request, memory_order_relaxed))
		return;
	t->rearm_after_sleep = 1;
	if (slice_clear(rs)) {
		t->sleep_grants++;
		if (wl_policy_yields((enum wl_policy)t->policy))
			t->sleep_yields += slice_yield() == 1;
	}
}

/* Called right after the sleep: the request the thread held is set again. */
static inline void wl_sleep_exit(struct wl_thread *t)
{
	if (!t || !t->rearm_after_sleep)
		return;
	t->rearm_after_sleep = 0;
	slice_request(t->slice.rs);
	t->sleep_requests++;
}

#endif
