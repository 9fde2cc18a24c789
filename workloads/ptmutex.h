/* ptmutex.h - a glibc pthread_mutex_t as the lock, of the type the workload
 * picks: shared by pthread (the default type) and pthread-adaptive. */
#ifndef WL_PTMUTEX_H
#define WL_PTMUTEX_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../harness/loop.h"

struct pt_lock {
	_Alignas(64) pthread_mutex_t m;
};

/* The type of pthread: no attribute at all, glibc's default mutex.  Not
 * PTHREAD_MUTEX_DEFAULT: glibc turns lock elision off for a mutex whose
 * attribute sets the normal type explicitly. */
#define PT_NO_ATTR (-1)

/* Initialises the mutex as type (PTHREAD_MUTEX_* or PT_NO_ATTR); what names
 * the call in err. */
static inline int pt_init_type(void *lock, int type, const char *what, char *err, size_t len)
{
	pthread_mutex_t *m = &((struct pt_lock *)lock)->m;
	pthread_mutexattr_t a;
	int rc;

	if (type == PT_NO_ATTR) {
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

static inline void pt_fini(void *lock)
{
	pthread_mutex_destroy(&((struct pt_lock *)lock)->m);
}

#define PT_LOCK(l, t) pthread_mutex_lock(&((struct pt_lock *)(l))->m)
#define PT_UNLOCK(l, t) pthread_mutex_unlock(&((struct pt_lock *)(l))->m)

#endif
