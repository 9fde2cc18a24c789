/* pthread-adaptive - glibc's PTHREAD_MUTEX_ADAPTIVE_NP: spins up to
 * glibc.mutex.spin_count (default 100) trylocks before sleeping. */
#define _GNU_SOURCE
#include "ptmutex.h"

static int pta_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)params;
	return pt_init_type(lock, PTHREAD_MUTEX_ADAPTIVE_NP, "adaptive pthread mutex", err, len);
}

WL_DEFINE_LOOPS(pta, PT_LOCK, PT_UNLOCK, SP_NONE)

const struct workload_ops wl_pthread_adaptive = {
	.name = "pthread-adaptive",
	.desc = "glibc pthread_mutex_t of type PTHREAD_MUTEX_ADAPTIVE_NP",
	.lock_size = sizeof(struct pt_lock),
	.init = pta_init,
	.fini = pt_fini,
	.loop = WL_LOOPS(pta),
};
