/* slice-hog - abuse: keeps the slice-extension request set all the time
 * (re-arms it at every op, right after each grant) and never yields, so
 * every preemption attempt meets a request.  The kernel must contain it:
 * its enforcement timer expires the grant (sexpir) and EEVDF charges the
 * extra runtime. */
#include "nolock.h"

WL_DEFINE_LOOPS(shog, NO_LOCK, NO_UNLOCK, SP_HOG)

const struct workload_ops wl_slice_hog = {
	.name = "slice-hog",
	.desc = "abuser: slice extension requested permanently, never yields, no lock",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.slice = 1,
	.loop = WL_LOOPS(shog),
};
