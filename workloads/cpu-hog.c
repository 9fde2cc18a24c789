/* cpu-hog - no lock: think and "critical section" busy work only.  The
 * plain CPU hog of the same shape as the slice abusers, and the fixed load
 * of the cyclictest cross-check. */
#include "nolock.h"

WL_DEFINE_LOOPS(hog, NO_LOCK, NO_UNLOCK, SP_NONE)

const struct workload_ops wl_cpu_hog = {
	.name = "cpu-hog",
	.desc = "busy loop of think_ns + cs_ns with no lock (the fair baseline hog)",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.loop = WL_LOOPS(hog),
};
