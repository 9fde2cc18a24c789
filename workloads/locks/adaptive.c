/* adaptive - bounded spinning, then FUTEX_WAIT on the 3-state word
 * (adaptive.h). */
#include "../../harness/core/loop.h"
#include "adaptive.h"

WL_DEFINE_LOOPS(adaptive)

const struct wl_lock wl_lock_adaptive = {
	.name = "adaptive",
	.desc = "spin-then-sleep mutex: bounded spin, then FUTEX_WAIT (spin_budget)",
	.keys = adaptive_keys,
	.lock_size = sizeof(struct adaptive_lock),
	.loop = WL_LOOP_TABLE(adaptive),
};
