/* pthread - glibc's default pthread mutex (PTHREAD_MUTEX_NORMAL semantics
 * of the default type: a futex mutex with no spinning). */
#define _GNU_SOURCE
#include "ptmutex.h"

static int pt_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)params;
	return pt_init_type(lock, PT_NO_ATTR, "pthread_mutex_init", err, len);
}

WL_DEFINE_LOOPS(pt, PT_LOCK, PT_UNLOCK, SP_NONE)

const struct workload_ops wl_pthread = {
	.name = "pthread",
	.desc = "glibc pthread_mutex_t, default type",
	.lock_size = sizeof(struct pt_lock),
	.init = pt_init,
	.fini = pt_fini,
	.loop = WL_LOOPS(pt),
};
