/* spin-tas - test-and-test-and-set spinlock, pause, bounded backoff. */
#include "../harness/loop.h"
#include "tas.h"

static const struct key_desc tas_keys[] = { TAS_KEYS, { 0 } };

#define TAS_LOCK(l, t) tas_acquire(l)
#define TAS_UNLOCK(l, t) tas_release(l)
WL_DEFINE_LOOPS(tas, TAS_LOCK, TAS_UNLOCK, SP_NONE)

const struct workload_ops wl_spin_tas = {
	.name = "spin-tas",
	.desc = "test-and-test-and-set spinlock with pause and bounded exponential backoff",
	.keys = tas_keys,
	.lock_size = sizeof(struct tas_lock),
	.init = tas_init,
	.loop = WL_LOOPS(tas),
};
