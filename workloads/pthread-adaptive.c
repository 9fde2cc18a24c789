/* pthread-adaptive - glibc's PTHREAD_MUTEX_ADAPTIVE_NP: spins up to
 * glibc.mutex.spin_count (default 100) trylocks before sleeping. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../harness/loop.h"

struct pta_lock {
	_Alignas(64) pthread_mutex_t m;
};

static int pta_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)params;
	pthread_mutexattr_t a;
	int rc = pthread_mutexattr_init(&a);

	if (!rc)
		rc = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
	if (!rc)
		rc = pthread_mutex_init(&((struct pta_lock *)lock)->m, &a);
	pthread_mutexattr_destroy(&a);
	if (rc)
		snprintf(err, len, "adaptive pthread mutex: %s", strerror(rc));
	return -rc;
}

static void pta_fini(void *lock)
{
	pthread_mutex_destroy(&((struct pta_lock *)lock)->m);
}

#define PTA_LOCK(l, t) pthread_mutex_lock(&((struct pta_lock *)(l))->m)
#define PTA_UNLOCK(l, t) pthread_mutex_unlock(&((struct pta_lock *)(l))->m)
WL_DEFINE_LOOPS(pta, PTA_LOCK, PTA_UNLOCK, SP_NONE)

const struct workload_ops wl_pthread_adaptive = {
	.name = "pthread-adaptive",
	.desc = "glibc pthread_mutex_t of type PTHREAD_MUTEX_ADAPTIVE_NP",
	.lock_size = sizeof(struct pta_lock),
	.init = pta_init,
	.fini = pta_fini,
	.loop = WL_LOOPS(pta),
};
