/* idle - no load at all: each thread sleeps 1 ms per operation.  The
 * baseline of a victim-latency study: what the probe sees on a quiet
 * machine. */
#include "../harness/timing.h"
#include "nolock.h"

#define IDLE_LOCK(l, t) tm_sleep_ns(1000000)
WL_DEFINE_LOOPS(idle, IDLE_LOCK, NO_UNLOCK, SP_NONE)

const struct workload_ops wl_idle = {
	.name = "idle",
	.desc = "no load: threads sleep 1 ms per op (baseline for the victim probe)",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.loop = WL_LOOPS(idle),
};
