/* ticket - FIFO ticket spinlock: fair, but every waiter queued behind a
 * preempted holder (or a preempted next-in-line) waits for it. */
#include <immintrin.h>

#include "../../harness/core/loop.h"

struct ticket_lock {
	_Alignas(64) _Atomic uint32_t next;
	_Alignas(64) _Atomic uint32_t owner; /* own line: waiters poll it, takers bump next */
};

static inline void ticket_acquire(void *lock, struct wl_thread *t)
{
	struct ticket_lock *l = lock;
	uint32_t me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);

	(void)t;
	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		_mm_pause();
}

/* Takes a ticket only when it would be served at once: next == owner. */
static inline int ticket_trylock(void *lock, struct wl_thread *t)
{
	struct ticket_lock *l = lock;
	uint32_t o = atomic_load_explicit(&l->owner, memory_order_acquire);

	(void)t;
	return atomic_compare_exchange_strong_explicit(&l->next, &o, o + 1, memory_order_acquire,
						       memory_order_relaxed);
}

static inline void ticket_release(void *lock, struct wl_thread *t)
{
	struct ticket_lock *l = lock;
	/* Only the holder writes owner: a load and a store, no RMW needed. */
	uint32_t o = atomic_load_explicit(&l->owner, memory_order_relaxed);

	(void)t;
	atomic_store_explicit(&l->owner, o + 1, memory_order_release);
}

WL_DEFINE_LOOPS(ticket)

const struct wl_lock wl_lock_ticket = {
	.name = "ticket",
	.desc = "FIFO ticket spinlock with pause",
	.lock_size = sizeof(struct ticket_lock),
	.fifo = 1,
	.loop = WL_LOOP_TABLE(ticket),
};
