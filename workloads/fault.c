/* fault.c - test-only workloads that break inside the critical section,
 * compiled into build/slicebench-faults only (-DSB_FAULTS), never into the
 * suite: fault-crash-in-cs (SIGSEGV in a holder) and fault-hang-in-cs (a
 * holder that never releases).  The isolation tests use them. */
#ifdef SB_FAULTS
#include <signal.h>

#include "../harness/loop.h"
#include "tas.h"

static const struct key_desc fault_keys[] = { TAS_KEYS, { 0 } };

/* Thread 0 breaks after this many critical sections: after the warm-up
 * has started, so the fault hits a run in full swing. */
#define FAULT_AFTER 10000

static __thread uint64_t fault_count;

static inline void fault_crash(struct tas_lock *l, const struct wl_thread *t)
{
	tas_acquire(l);
	if (t->index == 0 && ++fault_count > FAULT_AFTER)
		raise(SIGSEGV);
}

static inline void fault_hang(struct tas_lock *l, const struct wl_thread *t)
{
	tas_acquire(l);
	if (t->index == 0 && ++fault_count > FAULT_AFTER)
		for (;;) /* holds the lock forever: everyone else spins */
			tm_busy_iters(1000);
}

#define CRASH_LOCK(l, t) fault_crash(l, t)
#define HANG_LOCK(l, t) fault_hang(l, t)
#define FAULT_UNLOCK(l, t) tas_release(l)
WL_DEFINE_LOOPS(fcrash, CRASH_LOCK, FAULT_UNLOCK, SP_NONE)
WL_DEFINE_LOOPS(fhang, HANG_LOCK, FAULT_UNLOCK, SP_NONE)

const struct workload_ops wl_fault_crash = {
	.name = "fault-crash-in-cs",
	.desc = "test only: spin-tas whose thread 0 raises SIGSEGV inside its critical section",
	.keys = fault_keys,
	.lock_size = sizeof(struct tas_lock),
	.init = tas_init,
	.loop = WL_LOOPS(fcrash),
};

const struct workload_ops wl_fault_hang = {
	.name = "fault-hang-in-cs",
	.desc = "test only: spin-tas whose thread 0 never leaves its critical section",
	.keys = fault_keys,
	.lock_size = sizeof(struct tas_lock),
	.init = tas_init,
	.loop = WL_LOOPS(fhang),
};
#endif
