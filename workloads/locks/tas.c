/* tas - the test-and-test-and-set spinlock of tas.h. */
#include "../../harness/core/loop.h"
#include "tas.h"

WL_DEFINE_LOOPS(tas)

const struct wl_lock wl_lock_tas = {
	.name = "tas",
	.desc = "test-and-test-and-set spinlock with pause and bounded exponential backoff",
	.keys = tas_keys,
	.lock_size = sizeof(struct tas_lock),
	.loop = WL_LOOP_TABLE(tas),
};
