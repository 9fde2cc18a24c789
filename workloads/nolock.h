/* nolock.h - the empty lock of the lock-less workloads (CPU hogs, slice
 * abusers, idle): the same loop, nothing acquired. */
#ifndef WL_NOLOCK_H
#define WL_NOLOCK_H

#include "../harness/loop.h"

struct no_lock {
	int unused;
};

#define NO_LOCK(l, t) ((void)(l))
#define NO_UNLOCK(l, t) ((void)(l))

#endif
