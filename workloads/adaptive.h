/* adaptive.h - spin-then-sleep mutex: a bounded spin on the 3-state futex
 * word, then FUTEX_WAIT.  Shared by adaptive and slice-adaptive. */
#ifndef WL_ADAPTIVE_H
#define WL_ADAPTIVE_H

#include <immintrin.h>

#include "../harness/workload.h"
#include "futex.h"

struct adaptive_lock {
	_Alignas(64) _Atomic uint32_t word;
	uint32_t spin_budget; /* spins before sleeping; read-only after init */
};

static inline void adaptive_acquire(struct adaptive_lock *l)
{
	if (fx_trylock(&l->word))
		return;
	for (uint32_t i = 0; i < l->spin_budget; i++) {
		_mm_pause();
		/* Only try when it looks free: a failed CAS would steal the line. */
		if (!atomic_load_explicit(&l->word, memory_order_relaxed) && fx_trylock(&l->word))
			return;
	}
	fx_lock_slow(&l->word);
}

static inline void adaptive_release(struct adaptive_lock *l)
{
	fx_unlock(&l->word);
}

/* 200 spins of one pause and one load is ~1-6 us on current x86: about
 * the cost of a futex sleep/wake round trip, the break-even point. */
#define ADAPTIVE_KEYS                                                                     \
	{ "spin_budget", KT_INT, "200", 0, 10000000, "spins",                             \
	  "spins (pause + load) before FUTEX_WAIT" }

/* The workload_ops.init of both users of this lock. */
static inline int adaptive_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)err;
	(void)len;
	((struct adaptive_lock *)lock)->spin_budget =
		(uint32_t)wl_param_int(params, "spin_budget");
	return 0;
}

#endif
