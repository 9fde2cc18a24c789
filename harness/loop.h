/* loop.h - the thread loop: think, acquire, critical section, release.
 *
 * wl_loop() is one always-inline function, instantiated per lock, waiting
 * policy and loop kind with the lock's own inline acquire/trylock/release
 * as constant arguments, so nothing in the loop is an indirect call and
 * every instruction keeps the line of the statement it came from (a
 * backslash macro would put them all on the line that expands it, where
 * perf annotate cannot tell them apart).  Everything the loop counts lives
 * in locals and is published once at the end. */
#ifndef SB_LOOP_H
#define SB_LOOP_H

#include <immintrin.h>

#include "policy.h"
#include "timing.h"
#include "workload.h"

static inline void wl_critical_section(struct wl_thread *t)
{
	struct wl_line *lines = t->sh->lines;

	/* A plain read-modify-write: mutual exclusion is what keeps line 0's
	 * count exact, which the torture and every run check. */
	for (unsigned i = 0; i < t->cachelines; i++)
		lines[i].v++;
	tm_busy_iters(t->cs_iters);
}

/* Called by the loop at each phase change only (twice per repetition), so
 * the syscalls that bracket the window stay out of the per-op path. */
void wl_phase_change(struct wl_thread *t, int from, int to);

static inline uint64_t wl_ns(const struct wl_thread *t, uint64_t cycles)
{
	return (uint64_t)((double)cycles * t->ns_per_tsc);
}

typedef void (*wl_lock_fn)(void *lock, struct wl_thread *t);
typedef int (*wl_trylock_fn)(void *lock, struct wl_thread *t);

/* Clears the request after a release or a failed attempt; counts a grant
 * and gives it back when the policy yields. */
static inline __attribute__((always_inline)) void
wl_clear(struct sb_rseq *rs, const enum wl_policy pol, uint64_t *grants, uint64_t *yields)
{
	if (slice_clear(rs)) {
		++*grants;
		if (wl_policy_yields(pol))
			*yields += slice_yield() == 1;
	}
}

/* POL_REARM's acquisition: the request is armed for each attempt and
 * cleared between attempts, so a waiter that got extra time gives the CPU
 * back at once.  It spins on trylock alone: a sleeping lock never sleeps
 * under this policy. */
static inline __attribute__((always_inline)) void
wl_rearm_acquire(struct wl_thread *t, void *lk, const wl_trylock_fn trylock, uint64_t *req,
		 uint64_t *grants, uint64_t *yields)
{
	struct sb_rseq *rs = t->slice.rs;

	slice_request(rs);
	++*req;
	while (!trylock(lk, t)) {
		wl_clear(rs, POL_REARM, grants, yields);
		_mm_pause();
		slice_request(rs);
		++*req;
	}
}

static inline __attribute__((always_inline)) void
wl_loop(struct wl_thread *t, const wl_lock_fn acquire, const wl_trylock_fn trylock,
	const wl_lock_fn release, const enum wl_policy pol, const enum wl_loop_kind kind)
{
	struct wl_shared *sh = t->sh;
	struct sb_rseq *rs = t->slice.rs;
	void *lk = t->lock;
	uint64_t ops = 0, total = 0, left = t->max_ops;
	uint64_t req = 0, grants = 0, yields = 0;
	int gseen = 0; /* POL_HOG: grant seen at the previous op */
	unsigned every = kind == LOOP_EVERY ? 1 : t->sample_every;
	unsigned count = every;
	int phase = PH_NONE; /* a late starter must still see PH_STOP */

	for (;;) {
		/* relaxed: the phase only bounds the window, it orders nothing */
		int p = atomic_load_explicit(&sh->phase, memory_order_relaxed);

		if (p != phase) {
			wl_phase_change(t, phase, p);
			if (p == PH_STOP) {
				if (phase != PH_MEASURE) { /* never measured */
					ops = req = grants = yields = 0;
					t->sleep_requests = t->sleep_grants = 0;
					t->sleep_yields = 0;
				}
				break;
			}
			phase = p;
			ops = req = grants = yields = 0;
			t->sleep_requests = t->sleep_grants = t->sleep_yields = 0;
		}
		if (!left--)
			break;
		int smp = kind != LOOP_BARE && phase == PH_MEASURE && --count == 0;
		uint64_t t0 = 0, t1 = 0, tt = 0;

		/* The think time is sampled too: with the hold it is what tells
		 * a drifted busy-loop calibration (drift.c). */
		if (smp)
			tt = tm_tsc();
		tm_busy_iters(t->think_iters);
		if (smp)
			t0 = tm_tsc();
		if (pol == POL_PRE) {
			slice_request(rs);
			req++;
		}
		if (pol == POL_REARM)
			wl_rearm_acquire(t, lk, trylock, &req, &grants, &yields);
		else
			acquire(lk, t);
		if (pol == POL_HOG) { /* count each grant once, re-arm */
			int g = atomic_load_explicit(&rs->granted, memory_order_relaxed);

			grants += g && !gseen;
			gseen = g;
		}
		if (pol == POL_CS || pol == POL_NOYIELD || pol == POL_HOG) {
			slice_request(rs);
			req++;
		}
		if (smp)
			t1 = tm_tsc();
		wl_critical_section(t);
		if (smp) {
			uint64_t t2 = tm_tsc();

			hist_add(&t->acquire_ns, wl_ns(t, t1 - t0));
			hist_add(&t->hold_ns, wl_ns(t, t2 - t1));
			hist_add(&t->think_ns, wl_ns(t, t0 - tt));
			count = every;
		}
		release(lk, t);
		if (pol != POL_NONE && pol != POL_HOG)
			wl_clear(rs, pol, &grants, &yields);
		ops++;
		total++;
	}
	if (pol == POL_HOG)
		slice_clear(rs);
	t->ops = ops;
	t->total_ops = total;
	t->slice_requests = req + t->sleep_requests;
	t->slice_grants = grants + t->sleep_grants;
	t->slice_yields = yields + t->sleep_yields;
}

/* The loops of one lock: PFX_acquire, PFX_trylock and PFX_release are its
 * inline functions; WL_LOOP_TABLE(PFX) is the matching wl_lock.loop. */
#define WL_LOOP_FN(PFX, POL, KIND, TRY)                                                   \
	static void PFX##_##POL##_##KIND(struct wl_thread *t)                              \
	{                                                                                  \
		wl_loop(t, PFX##_acquire, TRY, PFX##_release, POL, KIND);                  \
	}
#define WL_LOOP_FNS(PFX, POL, TRY)                                                        \
	WL_LOOP_FN(PFX, POL, LOOP_SAMPLED, TRY)                                            \
	WL_LOOP_FN(PFX, POL, LOOP_BARE, TRY) WL_LOOP_FN(PFX, POL, LOOP_EVERY, TRY)
/* A lock without trylock: every policy but POL_REARM. */
#define WL_DEFINE_LOOPS_NOTRY(PFX)                                                        \
	WL_LOOP_FNS(PFX, POL_NONE, NULL)                                                   \
	WL_LOOP_FNS(PFX, POL_CS, NULL)                                                     \
	WL_LOOP_FNS(PFX, POL_PRE, NULL)                                                    \
	WL_LOOP_FNS(PFX, POL_NOYIELD, NULL) WL_LOOP_FNS(PFX, POL_HOG, NULL)
#define WL_DEFINE_LOOPS(PFX)                                                              \
	WL_DEFINE_LOOPS_NOTRY(PFX) WL_LOOP_FNS(PFX, POL_REARM, PFX##_trylock)
#define WL_LOOP_ROW(PFX, POL)                                                             \
	[POL] = { [LOOP_SAMPLED] = PFX##_##POL##_LOOP_SAMPLED,                             \
		  [LOOP_BARE] = PFX##_##POL##_LOOP_BARE,                                   \
		  [LOOP_EVERY] = PFX##_##POL##_LOOP_EVERY }
#define WL_LOOP_TABLE_NOTRY(PFX)                                                          \
	{                                                                                  \
		WL_LOOP_ROW(PFX, POL_NONE), WL_LOOP_ROW(PFX, POL_CS),                      \
			WL_LOOP_ROW(PFX, POL_PRE), WL_LOOP_ROW(PFX, POL_NOYIELD),          \
			WL_LOOP_ROW(PFX, POL_HOG)                                          \
	}
#define WL_LOOP_TABLE(PFX)                                                                \
	{                                                                                  \
		WL_LOOP_ROW(PFX, POL_NONE), WL_LOOP_ROW(PFX, POL_CS),                      \
			WL_LOOP_ROW(PFX, POL_PRE), WL_LOOP_ROW(PFX, POL_NOYIELD),          \
			WL_LOOP_ROW(PFX, POL_HOG), WL_LOOP_ROW(PFX, POL_REARM)             \
	}

#endif
