/* futex - the 3-state futex mutex: one CAS uncontended, sleep in the kernel
 * when contended. */
#include "../harness/loop.h"
#include "futex.h"

struct fx_lock {
	_Alignas(64) _Atomic uint32_t word;
};

#define FX_LOCK(l, t) fx_lock(&((struct fx_lock *)(l))->word)
#define FX_UNLOCK(l, t) fx_unlock(&((struct fx_lock *)(l))->word)
WL_DEFINE_LOOPS(fx, FX_LOCK, FX_UNLOCK, SP_NONE)

const struct workload_ops wl_futex = {
	.name = "futex",
	.desc = "3-state futex mutex (CAS fast path, FUTEX_WAIT/FUTEX_WAKE when contended)",
	.lock_size = sizeof(struct fx_lock),
	.loop = WL_LOOPS(fx),
};
