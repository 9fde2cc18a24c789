/* futex - the 3-state futex mutex of futex.h: one CAS uncontended, sleep in
 * the kernel when contended. */
#include "../../harness/core/loop.h"
#include "futex.h"

WL_DEFINE_LOOPS(futex)

const struct wl_lock wl_lock_futex = {
	.name = "futex",
	.desc = "3-state futex mutex (CAS fast path, FUTEX_WAIT/FUTEX_WAKE when contended)",
	.lock_size = sizeof(struct fx_lock),
	.loop = WL_LOOP_TABLE(futex),
};
