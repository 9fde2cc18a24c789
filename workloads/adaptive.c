/* adaptive - bounded spinning, then FUTEX_WAIT on the 3-state word. */
#include "../harness/loop.h"
#include "adaptive.h"

static const struct key_desc adaptive_keys[] = { ADAPTIVE_KEYS, { 0 } };

#define AD_LOCK(l, t) adaptive_acquire(l)
#define AD_UNLOCK(l, t) adaptive_release(l)
WL_DEFINE_LOOPS(adaptive, AD_LOCK, AD_UNLOCK, SP_NONE)

const struct workload_ops wl_adaptive = {
	.name = "adaptive",
	.desc = "spin-then-sleep mutex: bounded spin, then FUTEX_WAIT (spin_budget)",
	.keys = adaptive_keys,
	.lock_size = sizeof(struct adaptive_lock),
	.init = adaptive_init,
	.loop = WL_LOOPS(adaptive),
};
