/* slice-adaptive-dry - slice-adaptive's exact loop with the extension out
 * of the picture (dry.h): the control for the hybrid. */
#include "../harness/loop.h"
#include "adaptive.h"
#include "dry.h"

static const struct key_desc sadry_keys[] = { ADAPTIVE_KEYS, { 0 } };

#define SADRY_LOCK(l, t) adaptive_acquire(l)
#define SADRY_UNLOCK(l, t) adaptive_release(l)
WL_DEFINE_LOOPS(sadry, SADRY_LOCK, SADRY_UNLOCK, SP_YIELD)

const struct workload_ops wl_slice_adaptive_dry = {
	.name = "slice-adaptive-dry",
	.desc = "slice-adaptive's loop with the request going to an unregistered area: the "
		"control for the hybrid (runs on any kernel, never granted)",
	.keys = sadry_keys,
	.lock_size = sizeof(struct adaptive_lock),
	.init = adaptive_init,
	.thread_init = dry_thread_init,
	.loop = WL_LOOPS(sadry),
};
