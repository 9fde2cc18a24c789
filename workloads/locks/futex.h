/* futex.h - raw futex calls and the 3-state mutex (Drepper, "Futexes Are
 * Tricky", mutex #3) shared by the futex and adaptive locks. */
#ifndef WL_FUTEX_H
#define WL_FUTEX_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../harness/core/policy.h"

static inline long futex_call(_Atomic uint32_t *uaddr, int op, uint32_t val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

/* 0 = unlocked, 1 = locked, 2 = locked with (possible) waiters. */
static inline int fx_trylock(_Atomic uint32_t *w)
{
	uint32_t z = 0;

	return atomic_compare_exchange_strong_explicit(w, &z, 1, memory_order_acquire,
						       memory_order_relaxed);
}

/* The slow path: mark contended and sleep until the word changes, never
 * with a slice request set (policy.h).  Out of line, as the kernel keeps
 * queued_spin_lock_slowpath() out of line (kernel/locking/qspinlock.c):
 * inlined, its syscall and sleep hooks take registers from the fast path
 * of every loop that uses it, which then spills its own state.  unused:
 * not every file including this header takes the slow path. */
static __attribute__((noinline, cold, unused)) void fx_lock_slow(_Atomic uint32_t *w, struct wl_thread *t)
{
	while (atomic_exchange_explicit(w, 2, memory_order_acquire) != 0) {
		wl_sleep_enter(t);
		futex_call(w, FUTEX_WAIT_PRIVATE, 2);
		wl_sleep_exit(t);
	}
}

static inline void fx_lock(_Atomic uint32_t *w, struct wl_thread *t)
{
	if (!fx_trylock(w))
		fx_lock_slow(w, t);
}

/* Out of line for the reason fx_lock_slow() is. */
static __attribute__((noinline, cold, unused)) void fx_wake(_Atomic uint32_t *w)
{
	futex_call(w, FUTEX_WAKE_PRIVATE, 1);
}

static inline void fx_unlock(_Atomic uint32_t *w)
{
	/* Only a word that was 2 can have sleepers: one wake then suffices,
	 * the woken thread sets 2 again on its way in. */
	if (atomic_exchange_explicit(w, 0, memory_order_release) == 2)
		fx_wake(w);
}

/* The futex lock: the word alone. */
struct fx_lock {
	_Alignas(64) _Atomic uint32_t word;
};

static inline void futex_acquire(void *lock, struct wl_thread *t)
{
	fx_lock(&((struct fx_lock *)lock)->word, t);
}

static inline int futex_trylock(void *lock, struct wl_thread *t)
{
	(void)t;
	return fx_trylock(&((struct fx_lock *)lock)->word);
}

static inline void futex_release(void *lock, struct wl_thread *t)
{
	(void)t;
	fx_unlock(&((struct fx_lock *)lock)->word);
}

#endif
