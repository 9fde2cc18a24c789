/* slice-spin - spin-tas whose holder requests an rseq time-slice extension
 * for the critical section and yields when one was granted. */
#include "../harness/loop.h"
#include "tas.h"

static const struct key_desc sspin_keys[] = { TAS_KEYS, { 0 } };

#define SSPIN_LOCK(l, t) tas_acquire(l)
#define SSPIN_UNLOCK(l, t) tas_release(l)
WL_DEFINE_LOOPS(sspin, SSPIN_LOCK, SSPIN_UNLOCK, SP_YIELD)

const struct workload_ops wl_slice_spin = {
	.name = "slice-spin",
	.desc = "spin-tas with the rseq time-slice extension requested around the critical section",
	.keys = sspin_keys,
	.lock_size = sizeof(struct tas_lock),
	.slice = 1,
	.init = tas_init,
	.loop = WL_LOOPS(sspin),
};
