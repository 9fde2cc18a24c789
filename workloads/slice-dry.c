/* slice-dry - slice-spin's exact loop with the extension out of the picture:
 * the request and clear go to a thread-private area the kernel never reads
 * (no rseq registration, no prctl), so nothing is ever granted and nothing
 * yields.  The control that separates what the kernel's grants do from
 * what the two stores and a load per operation do to the spinning. */
#include "../harness/loop.h"
#include "tas.h"

static const struct key_desc sdry_keys[] = { TAS_KEYS, { 0 } };

static _Thread_local struct sb_rseq sdry_area;

static int sdry_thread_init(void *lock, struct wl_thread *t, char *reason, size_t len)
{
	(void)lock, (void)reason, (void)len;
	t->slice.rs = &sdry_area; /* own_area stays NULL: nothing to unregister */
	return 0;
}

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
	.thread_init = sdry_thread_init,
	.loop = WL_LOOPS(sdry),
};
