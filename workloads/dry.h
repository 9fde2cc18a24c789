/* dry.h - the control half of a slice workload: the same loop, with the
 * request and clear on a thread-private area that is never registered with
 * rseq, so the kernel never reads it and nothing is ever granted or yielded.
 * What remains is the cost of the stores themselves. */
#ifndef WL_DRY_H
#define WL_DRY_H

#include "../harness/workload.h"

static _Thread_local struct sb_rseq dry_area;

static inline int dry_thread_init(void *lock, struct wl_thread *t, char *reason, size_t len)
{
	(void)lock, (void)reason, (void)len;
	t->slice.rs = &dry_area; /* own_area stays NULL: nothing to unregister */
	return 0;
}

#endif
