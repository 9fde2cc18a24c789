/* mcs - the MCS queue lock (Mellor-Crummey and Scott, "Algorithms for
 * Scalable Synchronization on Shared-Memory Multiprocessors", ACM TOCS
 * 1991): each waiter spins on its own node, handed over in FIFO order.  The
 * lock that collapses first when threads outnumber CPUs: a preempted
 * waiter stalls everyone queued behind it.  The node lives in the thread's
 * wl_thread.slot. */
#include <immintrin.h>

#include "../../harness/core/loop.h"

struct mcs_node {
	_Atomic(struct mcs_node *) next;
	_Atomic uint32_t locked; /* 1 while queued; the predecessor clears it */
};

struct mcs_lock {
	_Alignas(64) _Atomic(struct mcs_node *) tail;
};

_Static_assert(sizeof(struct mcs_node) <= sizeof(((struct wl_thread *)0)->slot),
	       "the MCS node fits the thread's slot");

static inline struct mcs_node *mcs_node_of(struct wl_thread *t)
{
	struct mcs_node *n = (struct mcs_node *)t->slot;

	atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&n->locked, 1, memory_order_relaxed);
	return n;
}

static inline void mcs_acquire(void *lock, struct wl_thread *t)
{
	struct mcs_lock *l = lock;
	struct mcs_node *me = mcs_node_of(t);
	/* acq_rel: release publishes the node's fields to the successor that
	 * finds it in tail; acquire pairs with the previous holder's release. */
	struct mcs_node *pred = atomic_exchange_explicit(&l->tail, me, memory_order_acq_rel);

	if (!pred)
		return;
	atomic_store_explicit(&pred->next, me, memory_order_release);
	/* acquire: pairs with the predecessor's release store of locked = 0 */
	while (atomic_load_explicit(&me->locked, memory_order_acquire))
		_mm_pause();
}

/* Only when nobody holds or waits: tail from NULL to our node. */
static inline int mcs_trylock(void *lock, struct wl_thread *t)
{
	struct mcs_lock *l = lock;
	struct mcs_node *me = mcs_node_of(t), *none = NULL;

	return atomic_compare_exchange_strong_explicit(&l->tail, &none, me, memory_order_acq_rel,
						       memory_order_relaxed);
}

static inline void mcs_release(void *lock, struct wl_thread *t)
{
	struct mcs_lock *l = lock;
	struct mcs_node *me = (struct mcs_node *)t->slot, *expect = me;
	struct mcs_node *next = atomic_load_explicit(&me->next, memory_order_acquire);

	if (!next) {
		/* No successor yet: leave the lock empty, unless one is just
		 * linking itself in behind us; then wait for its link. */
		if (atomic_compare_exchange_strong_explicit(&l->tail, &expect, NULL,
							    memory_order_release,
							    memory_order_relaxed))
			return;
		while (!(next = atomic_load_explicit(&me->next, memory_order_acquire)))
			_mm_pause();
	}
	atomic_store_explicit(&next->locked, 0, memory_order_release);
}

WL_DEFINE_LOOPS(mcs)

const struct wl_lock wl_lock_mcs = {
	.name = "mcs",
	.desc = "MCS queue lock: FIFO, each waiter spins on its own node",
	.lock_size = sizeof(struct mcs_lock),
	.fifo = 1,
	.loop = WL_LOOP_TABLE(mcs),
};
