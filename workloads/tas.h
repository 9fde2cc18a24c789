/* tas.h - test-and-test-and-set spinlock with bounded exponential backoff,
 * shared by spin-tas and slice-spin (same lock, different waiting policy). */
#ifndef WL_TAS_H
#define WL_TAS_H

#include <immintrin.h>
#include <stdatomic.h>
#include <stdint.h>

#include "../harness/workload.h"

struct tas_lock {
	_Alignas(64) _Atomic uint32_t word;
	uint32_t backoff_max; /* pause iterations; read-only after init */
};

static inline void tas_acquire(struct tas_lock *l)
{
	uint32_t backoff = 1;

	for (;;) {
		/* Spin on a plain load so waiters share the line until it is
		 * released, then race with one exchange. */
		if (!atomic_load_explicit(&l->word, memory_order_relaxed) &&
		    !atomic_exchange_explicit(&l->word, 1, memory_order_acquire))
			return;
		for (uint32_t i = 0; i < backoff; i++)
			_mm_pause();
		if (backoff < l->backoff_max)
			backoff <<= 1;
	}
}

static inline void tas_release(struct tas_lock *l)
{
	atomic_store_explicit(&l->word, 0, memory_order_release);
}

/* backoff_max default 64 pauses: long enough to take the line off the bus
 * under contention, short against a 100 ns critical section on current
 * x86, where one pause costs 10-140 cycles depending on the core. */
#define TAS_KEYS                                                                          \
	{ "backoff_max", KT_INT, "64", 1, 65536, "pauses",                                \
	  "cap of the exponential backoff between attempts" }

/* The workload_ops.init of both users of this lock. */
static inline int tas_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)err;
	(void)len;
	((struct tas_lock *)lock)->backoff_max = (uint32_t)wl_param_int(params, "backoff_max");
	return 0;
}

#endif
