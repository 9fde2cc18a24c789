/* slice-dry - slice-spin's exact loop with the extension out of the picture
 * (dry.h): the control that separates what the kernel's grants do from
 * what the two stores and a load per operation do to the spinning. */
#include "../harness/loop.h"
#include "dry.h"
#include "tas.h"

static const struct key_desc sdry_keys[] = { TAS_KEYS, { 0 } };

#define SDRY_LOCK(l, t) tas_acquire(l)
#define SDRY_UNLOCK(l, t) tas_release(l)
WL_DEFINE_LOOPS(sdry, SDRY_LOCK, SDRY_UNLOCK, SP_YIELD)

const struct workload_ops wl_slice_dry = {
	.name = "slice-dry",
	.desc = "slice-spin's loop with the request going to an unregistered area: the control "
		"for slice-spin (runs on any kernel, never granted)",
	.keys = sdry_keys,
	.lock_size = sizeof(struct tas_lock),
	.init = tas_init,
	.thread_init = dry_thread_init,
	.loop = WL_LOOPS(sdry),
};
