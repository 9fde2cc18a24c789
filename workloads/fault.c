/* fault.c - test-only locks that break inside the critical section,
 * compiled into build/slicebench-faults only (-DSB_FAULTS), never into the
 * suite: fault-crash-in-cs (SIGSEGV in a holder) and fault-hang-in-cs (a
 * holder that never releases).  The isolation tests use them. */
#ifdef SB_FAULTS
#include <signal.h>

#include "../harness/core/loop.h"
#include "locks/tas.h"

/* Thread 0 breaks after this many critical sections: after the warm-up
 * has started, so the fault hits a run in full swing. */
#define FAULT_AFTER 10000

static __thread uint64_t fault_count;

static inline void crash_acquire(void *lock, struct wl_thread *t)
{
	tas_acquire(lock, t);
	if (t->index == 0 && ++fault_count > FAULT_AFTER)
		raise(SIGSEGV);
}

static inline void hang_acquire(void *lock, struct wl_thread *t)
{
	tas_acquire(lock, t);
	if (t->index == 0 && ++fault_count > FAULT_AFTER)
		for (;;) /* holds the lock forever: everyone else spins */
			tm_busy_iters(1000);
}

#define crash_release tas_release
#define hang_release tas_release
WL_DEFINE_LOOPS_NOTRY(crash)
WL_DEFINE_LOOPS_NOTRY(hang)

const struct wl_lock wl_lock_fault_crash = {
	.name = "fault-crash-in-cs",
	.desc = "test only: tas whose thread 0 raises SIGSEGV inside its critical section",
	.keys = tas_keys,
	.lock_size = sizeof(struct tas_lock),
	.loop = WL_LOOP_TABLE_NOTRY(crash),
};

const struct wl_lock wl_lock_fault_hang = {
	.name = "fault-hang-in-cs",
	.desc = "test only: tas whose thread 0 never leaves its critical section",
	.keys = tas_keys,
	.lock_size = sizeof(struct tas_lock),
	.loop = WL_LOOP_TABLE_NOTRY(hang),
};
#endif
