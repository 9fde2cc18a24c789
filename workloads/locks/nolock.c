/* nolock - the two lock-less "locks": none (the CPU hog, and the slice
 * abusers' carrier) and sleep (idle: 1 ms asleep per operation, the
 * baseline of a victim-latency study).  Not locks, so no trylock and no
 * POL_REARM. */
#include "../../harness/core/loop.h"

struct no_lock {
	int unused;
};

static inline void none_acquire(void *lock, struct wl_thread *t)
{
	(void)lock, (void)t;
}

static inline void none_release(void *lock, struct wl_thread *t)
{
	(void)lock, (void)t;
}

static inline void sleep_acquire(void *lock, struct wl_thread *t)
{
	(void)lock;
	wl_sleep_enter(t);
	tm_sleep_ns(1000000);
	wl_sleep_exit(t);
}

#define sleep_release none_release

WL_DEFINE_LOOPS_NOTRY(none)
WL_DEFINE_LOOPS_NOTRY(sleep)

const struct wl_lock wl_lock_none = {
	.name = "none",
	.desc = "no lock: think_ns + cs_ns of busy work (a CPU hog, and the abusers' carrier)",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.loop = WL_LOOP_TABLE_NOTRY(none),
};

const struct wl_lock wl_lock_sleep = {
	.name = "sleep",
	.desc = "no lock: each operation sleeps 1 ms (the idle baseline of the victim probe)",
	.lock_size = sizeof(struct no_lock),
	.unlocked = 1,
	.loop = WL_LOOP_TABLE_NOTRY(sleep),
};
