/* pthread - glibc's default pthread mutex (PTHREAD_MUTEX_NORMAL semantics
 * of the default type: a futex mutex with no spinning). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../harness/loop.h"

struct pt_lock {
	_Alignas(64) pthread_mutex_t m;
};

static int pt_init(void *lock, const json_t *params, char *err, size_t len)
{
	(void)params;
	int rc = pthread_mutex_init(&((struct pt_lock *)lock)->m, NULL);

	if (rc)
		snprintf(err, len, "pthread_mutex_init: %s", strerror(rc));
	return -rc;
}

static void pt_fini(void *lock)
{
	pthread_mutex_destroy(&((struct pt_lock *)lock)->m);
}

#define PT_LOCK(l, t) pthread_mutex_lock(&((struct pt_lock *)(l))->m)
#define PT_UNLOCK(l, t) pthread_mutex_unlock(&((struct pt_lock *)(l))->m)
WL_DEFINE_LOOPS(pt, PT_LOCK, PT_UNLOCK, SP_NONE)

const struct workload_ops wl_pthread = {
	.name = "pthread",
	.desc = "glibc pthread_mutex_t, default type",
	.lock_size = sizeof(struct pt_lock),
	.init = pt_init,
	.fini = pt_fini,
	.loop = WL_LOOPS(pt),
};
