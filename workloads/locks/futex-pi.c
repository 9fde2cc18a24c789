/* futex-pi - FUTEX_LOCK_PI: the word holds the owner's TID, contended
 * waiters enter the kernel, which spins while the owner runs and boosts it
 * (rt_mutex).  The kernel's own answer to holder preemption. */
#include <errno.h>

#include "../../harness/core/loop.h"
#include "futex.h"

/* The kernel hands the lock over inside FUTEX_UNLOCK_PI/FUTEX_LOCK_PI, where
 * ThreadSanitizer cannot see the ordering it provides.  Under TSan only,
 * mirror it with a release RMW before the unlock call and an acquire load
 * after the lock call; the measured build has neither. */
#ifdef __SANITIZE_THREAD__
#define PI_TSAN_RELEASE(w) atomic_fetch_add_explicit(w, 0, memory_order_release)
#define PI_TSAN_ACQUIRE(w) atomic_load_explicit(w, memory_order_acquire)
#else
#define PI_TSAN_RELEASE(w) ((void)0)
#define PI_TSAN_ACQUIRE(w) ((void)0)
#endif

struct pi_lock {
	_Alignas(64) _Atomic uint32_t word;
};

static inline int pi_trylock(void *lock, struct wl_thread *t)
{
	uint32_t z = 0;

	return atomic_compare_exchange_strong_explicit(&((struct pi_lock *)lock)->word, &z,
						       (uint32_t)t->tid, memory_order_acquire,
						       memory_order_relaxed);
}

static inline void pi_acquire(void *lock, struct wl_thread *t)
{
	struct pi_lock *l = lock;

	if (pi_trylock(l, t))
		return;
	/* The kernel takes the lock for us or we retry after a signal; it may
	 * sleep, so no request is held across it (policy.h). */
	wl_sleep_enter(t);
	while (futex_call(&l->word, FUTEX_LOCK_PI_PRIVATE, 0) && errno == EINTR)
		;
	wl_sleep_exit(t);
	PI_TSAN_ACQUIRE(&l->word);
}

static inline void pi_release(void *lock, struct wl_thread *t)
{
	struct pi_lock *l = lock;
	uint32_t me = (uint32_t)t->tid;

	/* FUTEX_WAITERS set means the kernel must hand the lock over. */
	if (!atomic_compare_exchange_strong_explicit(&l->word, &me, 0, memory_order_release,
						     memory_order_relaxed)) {
		PI_TSAN_RELEASE(&l->word);
		futex_call(&l->word, FUTEX_UNLOCK_PI_PRIVATE, 0);
	}
}

WL_DEFINE_LOOPS(pi)

const struct wl_lock wl_lock_futex_pi = {
	.name = "futex-pi",
	.desc = "priority-inheritance futex (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI)",
	.lock_size = sizeof(struct pi_lock),
	.loop = WL_LOOP_TABLE(pi),
};
