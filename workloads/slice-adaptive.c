/* slice-adaptive - the hybrid of seed 003: spin-then-futex, with the holder
 * requesting a time-slice extension so it is rarely preempted while held. */
#include "../harness/loop.h"
#include "adaptive.h"

static const struct key_desc sadaptive_keys[] = { ADAPTIVE_KEYS, { 0 } };

#define SAD_LOCK(l, t) adaptive_acquire(l)
#define SAD_UNLOCK(l, t) adaptive_release(l)
WL_DEFINE_LOOPS(sadaptive, SAD_LOCK, SAD_UNLOCK, SP_YIELD)

const struct workload_ops wl_slice_adaptive = {
	.name = "slice-adaptive",
	.desc = "adaptive spin-then-futex plus the rseq time-slice extension (the hybrid)",
	.keys = sadaptive_keys,
	.lock_size = sizeof(struct adaptive_lock),
	.slice = 1,
	.init = adaptive_init,
	.loop = WL_LOOPS(sadaptive),
};
