/* pgspin - PostgreSQL's spinlock (S_LOCK), the lock behind the 7.0
 * preemption regression's s_lock profile (pgbench, 55.6% of CPU in s_lock
 * on Linux 7.0).  Written from PostgreSQL's own description: the header
 * comment of src/backend/storage/lmgr/s_lock.c (s_lock, perform_spin_delay,
 * finish_spin_delay) and the x86 part of src/include/storage/s_lock.h:
 *
 * - TAS is one locked exchange of a byte; the first attempt is a bare TAS,
 *   every retry is TAS_SPIN, a plain read first and the exchange only when
 *   the byte reads free; SPIN_DELAY is one pause ("rep; nop").
 * - After spins_per_delay failed retries the waiter sleeps (pg_usleep,
 *   nanosleep): first 1 ms, then each delay grows by a random fraction
 *   between 1x and 2x, and past 1 s it wraps back to 1 ms.  After NUM_DELAYS
 *   (1000) sleeps PostgreSQL PANICs with "stuck spinlock", about two minutes.
 * - spins_per_delay is the backend's own (here: the thread's), starting at
 *   DEFAULT_SPINS_PER_DELAY 100; an acquisition that never slept raises it
 *   by 100, one that slept lowers it by 1, within [10, 1000], so it drifts
 *   to the maximum where the holder keeps running and to the minimum where
 *   it does not (s_lock.c's "uniprocessor" case: a preempted holder).
 *   PostgreSQL also averages it into shared memory at backend exit for the
 *   next backend to start from; a thread here lives for one repetition, so
 *   the lock's spins_per_delay key is that starting point.
 *
 * Its waiters sleep only after spinning: wl_sleep_enter()/wl_sleep_exit()
 * bracket the sleep, as for every lock that sleeps (policy.h). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../../harness/core/loop.h"

/* s_lock.c's bounds and its delay schedule, in microseconds. */
#define PGS_MIN_SPINS_PER_DELAY 10
#define PGS_MAX_SPINS_PER_DELAY 1000
#define PGS_NUM_DELAYS 1000

struct pgs_lock {
	_Alignas(64) _Atomic unsigned char word; /* slock_t: an unsigned char on x86 */
	/* read-only after init (keys) */
	uint32_t spins_per_delay, min_delay_us, max_delay_us;
};

/* The thread's backend-local state, in its wl_thread.slot (zeroed before
 * the thread starts: spins_per_delay 0 means not yet set). */
struct pgs_thread {
	uint32_t spins_per_delay;
	unsigned short rng[3]; /* erand48's state: pg_prng_double's stand-in */
};

_Static_assert(sizeof(struct pgs_thread) <= sizeof(((struct wl_thread *)0)->slot),
	       "the backend state fits the thread's slot");

/* TAS: 0 when the byte was free and is ours now.  acquire: pairs with the
 * release store of pgs_release. */
static inline int pgs_tas(struct pgs_lock *l)
{
	return atomic_exchange_explicit(&l->word, 1, memory_order_acquire);
}

/* TAS_SPIN: a waiter reads before it writes, so it keeps the line shared
 * until the holder's store. */
static inline int pgs_tas_spin(struct pgs_lock *l)
{
	return atomic_load_explicit(&l->word, memory_order_relaxed) ? 1 : pgs_tas(l);
}

static struct pgs_thread *pgs_thread_of(struct pgs_lock *l, struct wl_thread *t)
{
	struct pgs_thread *s = (struct pgs_thread *)t->slot;

	if (!s->spins_per_delay) {
		s->spins_per_delay = l->spins_per_delay;
		s->rng[0] = (unsigned short)t->index;
		s->rng[1] = (unsigned short)t->tid;
		s->rng[2] = 0x330e; /* srand48's low word */
	}
	return s;
}

/* perform_spin_delay's sleep: cur_delay 0 is the first; returns the next. */
static __attribute__((noinline, cold)) uint32_t pgs_delay(struct pgs_lock *l, struct wl_thread *t,
							  struct pgs_thread *s, uint32_t cur_us)
{
	if (!cur_us)
		cur_us = l->min_delay_us;
	wl_sleep_enter(t);
	struct timespec ts = { .tv_sec = cur_us / 1000000, .tv_nsec = (long)(cur_us % 1000000) * 1000 };

	nanosleep(&ts, NULL); /* pg_usleep ignores an interruption too */
	wl_sleep_exit(t);
	cur_us += (uint32_t)(cur_us * erand48(s->rng) + 0.5);
	return cur_us > l->max_delay_us ? l->min_delay_us : cur_us;
}

/* s_lock_stuck: PostgreSQL PANICs; here the run's child dies with the
 * reason on stderr (a NUM_DELAYS of sleeps outlasts any run's watchdog). */
static __attribute__((noreturn, cold)) void pgs_stuck(void)
{
	fputs("pg-spin: stuck spinlock detected (1000 delays)\n", stderr);
	abort();
}

static inline void pgs_acquire(void *lock, struct wl_thread *t)
{
	struct pgs_lock *l = lock;

	if (!pgs_tas(l)) /* S_LOCK: one bare TAS before s_lock() */
		return;
	struct pgs_thread *s = pgs_thread_of(l, t);
	uint32_t spins = 0, delays = 0, cur_us = 0;

	while (pgs_tas_spin(l)) {
		_mm_pause();
		if (++spins < s->spins_per_delay)
			continue;
		if (++delays > PGS_NUM_DELAYS)
			pgs_stuck();
		cur_us = pgs_delay(l, t, s, cur_us);
		spins = 0;
	}
	/* finish_spin_delay: never slept, a sign the holder was running */
	if (!cur_us) {
		s->spins_per_delay += 100;
		if (s->spins_per_delay > PGS_MAX_SPINS_PER_DELAY)
			s->spins_per_delay = PGS_MAX_SPINS_PER_DELAY;
	} else if (s->spins_per_delay > PGS_MIN_SPINS_PER_DELAY) {
		s->spins_per_delay--;
	}
}

static inline int pgs_trylock(void *lock, struct wl_thread *t)
{
	(void)t;
	return !pgs_tas_spin(lock);
}

/* S_UNLOCK: a release store of 0 (s_lock.h's default is a compiler barrier
 * and a plain store, which is a release on x86). */
static inline void pgs_release(void *lock, struct wl_thread *t)
{
	(void)t;
	atomic_store_explicit(&((struct pgs_lock *)lock)->word, 0, memory_order_release);
}

static int pgs_init(void *lock, char *err, size_t len)
{
	struct pgs_lock *l = lock;

	if (l->max_delay_us >= l->min_delay_us)
		return 0;
	snprintf(err, len, "max_delay_us %u is below min_delay_us %u", l->max_delay_us,
		 l->min_delay_us);
	return -1;
}

/* The defaults are PostgreSQL's: DEFAULT_SPINS_PER_DELAY (s_lock.h),
 * MIN_DELAY_USEC and MAX_DELAY_USEC (s_lock.c). */
static const struct key_desc pgs_keys[] = {
	{ "spins_per_delay", KT_INT, "100", PGS_MIN_SPINS_PER_DELAY, PGS_MAX_SPINS_PER_DELAY,
	  "spins", "each thread's starting spins before a sleep (then adapts within 10..1000)",
	  KEY_FIELD(struct pgs_lock, spins_per_delay) },
	{ "min_delay_us", KT_INT, "1000", 1, 1000000, "us", "first sleep, and where it wraps to",
	  KEY_FIELD(struct pgs_lock, min_delay_us) },
	{ "max_delay_us", KT_INT, "1000000", 1, 10000000, "us",
	  "a sleep growing past this wraps back to min_delay_us", KEY_FIELD(struct pgs_lock, max_delay_us) },
	{ 0 },
};

WL_DEFINE_LOOPS(pgs)

const struct wl_lock wl_lock_pg_spin = {
	.name = "pg-spin",
	.desc = "PostgreSQL's s_lock: TAS, spin-delay, then randomized growing sleeps",
	.keys = pgs_keys,
	.lock_size = sizeof(struct pgs_lock),
	.init = pgs_init,
	.loop = WL_LOOP_TABLE(pgs),
};
