/* tas.h - test-and-test-and-set spinlock with bounded exponential backoff
 * (ck's include/spinlock/fas.h spins the same way: on a plain load). */
#ifndef WL_TAS_H
#define WL_TAS_H

#include <immintrin.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../../harness/core/workload.h"

struct tas_lock {
	_Alignas(64) _Atomic uint32_t word;
	uint32_t backoff_max; /* pause iterations; read-only after init */
};

/* One attempt: a plain load first, so waiters share the line until it is
 * released, then race with one exchange. */
static inline int tas_trylock(void *lock, struct wl_thread *t)
{
	struct tas_lock *l = lock;

	(void)t;
	return !atomic_load_explicit(&l->word, memory_order_relaxed) &&
	       !atomic_exchange_explicit(&l->word, 1, memory_order_acquire);
}

static inline void tas_acquire(void *lock, struct wl_thread *t)
{
	struct tas_lock *l = lock;
	uint32_t backoff = 1;

	while (!tas_trylock(l, t)) {
		for (uint32_t i = 0; i < backoff; i++)
			_mm_pause();
		if (backoff < l->backoff_max)
			backoff <<= 1;
	}
}

static inline void tas_release(void *lock, struct wl_thread *t)
{
	(void)t;
	atomic_store_explicit(&((struct tas_lock *)lock)->word, 0, memory_order_release);
}

/* backoff_max default 64 pauses: long enough to take the line off the bus
 * under contention, short against a 100 ns critical section on current
 * x86, where one pause costs 10-140 cycles depending on the core. */
static const struct key_desc tas_keys[] = {
	{ "backoff_max", KT_INT, "64", 1, 65536, "pauses",
	  "cap of the exponential backoff between attempts", KEY_FIELD(struct tas_lock, backoff_max) },
	{ 0 },
};

#endif
