/* adaptive.h - spin-then-sleep mutex: a bounded spin on the 3-state futex
 * word of futex.h, then FUTEX_WAIT. */
#ifndef WL_ADAPTIVE_H
#define WL_ADAPTIVE_H

#include <immintrin.h>

#include "../../harness/core/workload.h"
#include "futex.h"

struct adaptive_lock {
	_Alignas(64) _Atomic uint32_t word;
	uint32_t spin_budget; /* spins before sleeping; read-only after init */
};

static inline void adaptive_acquire(void *lock, struct wl_thread *t)
{
	struct adaptive_lock *l = lock;

	if (fx_trylock(&l->word))
		return;
	for (uint32_t i = 0; i < l->spin_budget; i++) {
		_mm_pause();
		/* Only try when it looks free: a failed CAS would steal the line. */
		if (!atomic_load_explicit(&l->word, memory_order_relaxed) && fx_trylock(&l->word))
			return;
	}
	fx_lock_slow(&l->word, t);
}

static inline int adaptive_trylock(void *lock, struct wl_thread *t)
{
	(void)t;
	return fx_trylock(&((struct adaptive_lock *)lock)->word);
}

static inline void adaptive_release(void *lock, struct wl_thread *t)
{
	(void)t;
	fx_unlock(&((struct adaptive_lock *)lock)->word);
}

/* 200 spins of one pause and one load is ~1-6 us on current x86: about
 * the cost of a futex sleep/wake round trip, the break-even point. */
static const struct key_desc adaptive_keys[] = {
	{ "spin_budget", KT_INT, "200", 0, 10000000, "spins",
	  "spins (pause + load) before FUTEX_WAIT", KEY_FIELD(struct adaptive_lock, spin_budget) },
	{ 0 },
};

#endif
