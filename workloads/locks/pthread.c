/* pthread - glibc's pthread_mutex_t as the lock, of two types: the default
 * (a futex mutex with no spinning) and PTHREAD_MUTEX_ADAPTIVE_NP (spins up
 * to glibc.mutex.spin_count, default 100, trylocks before sleeping). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../../harness/core/loop.h"

struct pt_lock {
	_Alignas(64) pthread_mutex_t m;
};

/* Initialises the mutex as type; what names the call in err. */
static int pt_init_type(void *lock, int type, const char *what, char *err, size_t len)
{
	pthread_mutex_t *m = &((struct pt_lock *)lock)->m;
	pthread_mutexattr_t a;
	int rc;

	if (type < 0) {
		rc = pthread_mutex_init(m, NULL);
	} else {
		rc = pthread_mutexattr_init(&a);
		if (!rc)
			rc = pthread_mutexattr_settype(&a, type);
		if (!rc)
			rc = pthread_mutex_init(m, &a);
		pthread_mutexattr_destroy(&a);
	}
	if (rc)
		snprintf(err, len, "%s: %s", what, strerror(rc));
	return -rc;
}

/* The default type: no attribute at all.  Not PTHREAD_MUTEX_DEFAULT: glibc
 * turns lock elision off for a mutex whose attribute sets the normal type
 * explicitly. */
static int pt_init(void *lock, char *err, size_t len)
{
	return pt_init_type(lock, -1, "pthread_mutex_init", err, len);
}

static int pta_init(void *lock, char *err, size_t len)
{
	return pt_init_type(lock, PTHREAD_MUTEX_ADAPTIVE_NP, "adaptive pthread mutex", err, len);
}

static void pt_fini(void *lock)
{
	pthread_mutex_destroy(&((struct pt_lock *)lock)->m);
}

static inline int pt_trylock(void *lock, struct wl_thread *t)
{
	(void)t;
	return !pthread_mutex_trylock(&((struct pt_lock *)lock)->m);
}

/* glibc may sleep anywhere inside pthread_mutex_lock, so a request held
 * while waiting (policy.h) is dropped before it once the trylock failed:
 * the uncontended path is the same single CAS as before. */
static inline void pt_acquire(void *lock, struct wl_thread *t)
{
	if (pt_trylock(lock, t))
		return;
	wl_sleep_enter(t);
	pthread_mutex_lock(&((struct pt_lock *)lock)->m);
	wl_sleep_exit(t);
}

static inline void pt_release(void *lock, struct wl_thread *t)
{
	(void)t;
	pthread_mutex_unlock(&((struct pt_lock *)lock)->m);
}

WL_DEFINE_LOOPS(pt)

const struct wl_lock wl_lock_pthread = {
	.name = "pthread",
	.desc = "glibc pthread_mutex_t, default type",
	.lock_size = sizeof(struct pt_lock),
	.init = pt_init,
	.fini = pt_fini,
	.loop = WL_LOOP_TABLE(pt),
};

/* The same code: the mutex type is set at init. */
const struct wl_lock wl_lock_pthread_adaptive = {
	.name = "pthread-adaptive",
	.desc = "glibc pthread_mutex_t of type PTHREAD_MUTEX_ADAPTIVE_NP",
	.lock_size = sizeof(struct pt_lock),
	.init = pta_init,
	.fini = pt_fini,
	.loop = WL_LOOP_TABLE(pt),
};
