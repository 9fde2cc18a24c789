/* spin-ticket - FIFO ticket spinlock: fair, but every waiter queued behind a
 * preempted holder (or a preempted next-in-line) waits for it. */
#include <immintrin.h>

#include "../harness/loop.h"

struct ticket_lock {
	_Alignas(64) _Atomic uint32_t next;
	_Alignas(64) _Atomic uint32_t owner; /* own line: waiters poll it, takers bump next */
};

static inline void ticket_acquire(struct ticket_lock *l)
{
	uint32_t me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);

	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		_mm_pause();
}

static inline void ticket_release(struct ticket_lock *l)
{
	/* Only the holder writes owner: a load and a store, no RMW needed. */
	uint32_t o = atomic_load_explicit(&l->owner, memory_order_relaxed);

	atomic_store_explicit(&l->owner, o + 1, memory_order_release);
}

#define TICKET_LOCK(l, t) ticket_acquire(l)
#define TICKET_UNLOCK(l, t) ticket_release(l)
WL_DEFINE_LOOPS(ticket, TICKET_LOCK, TICKET_UNLOCK, SP_NONE)

const struct workload_ops wl_spin_ticket = {
	.name = "spin-ticket",
	.desc = "FIFO ticket spinlock with pause",
	.lock_size = sizeof(struct ticket_lock),
	.loop = WL_LOOPS(ticket),
};
