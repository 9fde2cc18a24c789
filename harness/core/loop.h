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

#include "../os/faultcs.h"
#include "policy.h"
#include "../os/timing.h"
#include "workload.h"

/* The critical section's parameters, copied out of wl_thread before the
 * loop: the lock's atomics are compiler barriers, so a field read through
 * t would be reloaded on every operation (t->sh->lines is two dependent
 * loads after the acquiring exchange), which harness/selfbench/bare.c does not pay. */
struct wl_cs {
	struct wl_line *lines, *end; /* end: past the thread's last line */
	uint64_t cs_iters, think_iters;
	unsigned char *fault; /* wl_thread's fault_* and hold_log_tsc */
	size_t fault_len;
	uint32_t fault_pages;
	int fault_advice;
	uint64_t hold_log_tsc;
};

/* The faulting part: one write per page, each to a page the last section's
 * refresh took away (faultcs.h). */
static inline void wl_fault_touch(const struct wl_cs cs)
{
	for (uint32_t i = 0; i < cs.fault_pages; i++)
		((volatile unsigned char *)cs.fault)[(size_t)i * FCS_PAGE] = 1;
}

/* holdtrace.c: logs one long hold's TSC stamps (acquired, faulting part's
 * start and end, released), cold: only holds past the threshold get here. */
__attribute__((cold)) void hl_add(struct hl_log *l, uint64_t acq, uint64_t f0, uint64_t f1,
				  uint64_t rel);

/* simple is a constant: 1 for the shape of the kernel community's
 * benchmark (one line, cs_ns and think_ns 0), where the section is the
 * increment alone and the loop carries no busy-loop or line-count tests. */
static inline __attribute__((always_inline)) void wl_critical_section(const struct wl_cs cs,
								    const int simple)
{
	/* A plain read-modify-write: mutual exclusion is what keeps line 0's
	 * count exact, which the torture and every run check. */
	if (simple) {
		cs.lines->v++;
		return;
	}
	for (struct wl_line *l = cs.lines; l != cs.end; l++)
		l->v++;
	tm_busy_iters(cs.cs_iters);
}

/* Called by the loop at each phase change only (twice per repetition), so
 * the syscalls that bracket the window stay out of the per-op path. */
__attribute__((cold)) void wl_phase_change(struct wl_thread *t, int from, int to);

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

/* The slice counts one operation updates: locals of wl_loop after
 * inlining, so registers. */
struct wl_counts {
	uint64_t req, grants, yields;
	int gseen; /* POL_HOG: grant seen at the previous op */
};

/* One operation.  timed is a constant: the loop instantiates an untimed
 * operation for the common case and a timed one for the sampled op, so
 * the untimed path carries no timestamps or flags in its registers.  A
 * timed op starts at t0, the loop's last timestamp (the think's end). */
static inline __attribute__((always_inline)) void
wl_op(struct wl_thread *t, void *lk, struct sb_rseq *rs, const struct wl_cs cs,
      const wl_lock_fn acquire, const wl_trylock_fn trylock, const wl_lock_fn release,
      const enum wl_policy pol, const int timed, const int simple, const uint64_t t0,
      struct wl_counts *c)
{
	uint64_t t1 = 0;

	if (pol == POL_PRE) {
		slice_request(rs);
		c->req++;
	}
	if (pol == POL_REARM)
		wl_rearm_acquire(t, lk, trylock, &c->req, &c->grants, &c->yields);
	else
		acquire(lk, t);
	/* Holder timing for the trace (general shape only, off by default). */
	uint64_t ha = 0, f0 = 0, f1 = 0;

	if (!simple && cs.hold_log_tsc)
		ha = tm_tsc();
	if (pol == POL_HOG) { /* count each grant once, re-arm */
		int g = atomic_load_explicit(&rs->granted, memory_order_relaxed);

		c->grants += g && !c->gseen;
		c->gseen = g;
	}
	if (pol == POL_CS || pol == POL_NOYIELD || pol == POL_HOG) {
		slice_request(rs);
		c->req++;
	}
	if (timed)
		t1 = tm_tsc();
	wl_critical_section(cs, simple);
	if (!simple && cs.fault_pages) {
		if (cs.hold_log_tsc)
			f0 = tm_tsc();
		wl_fault_touch(cs);
		if (cs.hold_log_tsc)
			f1 = tm_tsc();
	}
	if (timed) {
		uint64_t t2 = tm_tsc();

		hist_add(&t->acquire_ns, wl_ns(t, t1 - t0));
		hist_add(&t->hold_ns, wl_ns(t, t2 - t1));
	}
	release(lk, t);
	if (!simple && cs.hold_log_tsc) {
		uint64_t hr = tm_tsc();

		if (hr - ha >= cs.hold_log_tsc)
			hl_add(t->hold_log, ha, f0, f1, hr);
	}
	if (pol != POL_NONE && pol != POL_HOG)
		wl_clear(rs, pol, &c->grants, &c->yields);
	/* Outside the section and after the request is cleared: the next
	 * section faults again.  madvise is a system call, and one made
	 * while a grant is in force ends it as an abort (kernel/rseq.c,
	 * rseq_syscall_enter_work), not in the yield the clear makes. */
	if (!simple && cs.fault_advice)
		fcs_refresh(cs.fault, cs.fault_len, cs.fault_advice);
}

/* The loop's shape: the simple one (see wl_critical_section), timed or
 * bounded by max_ops (the torture), or any other.  The bare loop of
 * harness/selfbench/bare.c has neither the busy loops' zero tests, the line loop
 * nor a bound.  Each shape is a function of its own (WL_LOOP_FN), so each
 * gets its own register allocation: inlined side by side into one
 * function, the shapes spilled the phase pointer to the stack.  Where a
 * section or think time is asked for, its busy loop dwarfs the tests. */
enum wl_shape { WL_GENERAL, WL_SIMPLE, WL_SIMPLE_BOUNDED };

static inline enum wl_shape wl_shape_of(const struct wl_thread *t)
{
	if (t->cs_iters || t->think_iters || t->cachelines != 1 || t->fault_pages ||
	    t->hold_log_tsc)
		return WL_GENERAL;
	return t->max_ops == UINT64_MAX ? WL_SIMPLE : WL_SIMPLE_BOUNDED;
}

static inline __attribute__((always_inline)) void
wl_loop(struct wl_thread *t, const wl_lock_fn acquire, const wl_trylock_fn trylock,
	const wl_lock_fn release, const enum wl_policy pol, const enum wl_loop_kind kind,
	const enum wl_shape shape)
{
	const int simple = shape != WL_GENERAL, bounded = shape != WL_SIMPLE;
	const _Atomic int *phasep = &t->sh->phase;
	const struct wl_cs cs = { t->sh->lines, t->sh->lines + t->cachelines,
				  t->cs_iters,	 t->think_iters,
				  t->fault_base, t->fault_len,
				  t->fault_pages, t->fault_advice,
				  t->hold_log_tsc };
	struct sb_rseq *rs = t->slice.rs;
	void *lk = t->lock;
	/* One register counts: left, the operations still allowed (the
	 * torture's max_ops; UINT64_MAX for a timed run).  This phase's ops are
	 * mark - left, all of them max_ops - left.  Unbounded (a timed run),
	 * it is never tested: 2^64 operations outlast any window. */
	uint64_t left = t->max_ops, mark = left;
	struct wl_counts c = { 0 };
	const unsigned every = kind == LOOP_EVERY ? 1 : t->sample_every;
	unsigned count = every;
	int phase = PH_NONE; /* a late starter must still see PH_STOP */

	for (;;) {
		/* relaxed: the phase only bounds the window, it orders nothing */
		int p = atomic_load_explicit(phasep, memory_order_relaxed);

		if (__builtin_expect(p != phase, 0)) {
			wl_phase_change(t, phase, p);
			if (p == PH_STOP) {
				if (phase != PH_MEASURE) { /* never measured */
					mark = left;
					c.req = c.grants = c.yields = 0;
					t->sleep_requests = t->sleep_grants = 0;
					t->sleep_yields = 0;
				}
				break;
			}
			phase = p;
			mark = left;
			c.req = c.grants = c.yields = 0;
			t->sleep_requests = t->sleep_grants = t->sleep_yields = 0;
		}
		if (bounded && __builtin_expect(!left, 0))
			break;
		left--;
		/* One op in `every` is timed, in the window only; the countdown
		 * runs in every phase so the common case is one decrement. */
		if (kind != LOOP_BARE && __builtin_expect(--count == 0, 0)) {
			count = every;
			if (phase == PH_MEASURE) {
				/* The think time is sampled too: with the hold it is
				 * what tells a drifted busy-loop calibration (drift.c).
				 * Its end starts the op's timing, and it is added to
				 * its histogram after the op, outside every interval.
				 * The simple shape has no think time to sample: its
				 * timed op costs three timestamps, not four. */
				uint64_t tt = tm_tsc(), te = tt;

				if (!simple) {
					tm_busy_iters(cs.think_iters);
					te = tm_tsc();
				}
				wl_op(t, lk, rs, cs, acquire, trylock, release, pol, 1, simple, te,
				      &c);
				if (!simple)
					hist_add(&t->think_ns, wl_ns(t, te - tt));
				continue;
			}
		}
		if (!simple)
			tm_busy_iters(cs.think_iters);
		wl_op(t, lk, rs, cs, acquire, trylock, release, pol, 0, simple, 0, &c);
	}
	if (pol == POL_HOG)
		slice_clear(rs);
	t->ops = mark - left;
	t->total_ops = t->max_ops - left;
	t->slice_requests = c.req + t->sleep_requests;
	t->slice_grants = c.grants + t->sleep_grants;
	t->slice_yields = c.yields + t->sleep_yields;
}

/* The loops of one lock: PFX_acquire, PFX_trylock and PFX_release are its
 * inline functions; WL_LOOP_TABLE(PFX) is the matching wl_lock.loop.
 *
 * Each loop function starts on a 64-byte boundary (WL_LOOP_ALIGN), so a
 * loop's place against the 64-byte lines and 32-byte windows the CPU
 * fetches and caches decoded code in is set by the code alone, not by
 * what the linker put before it.  harness/selfbench/bare.c instantiates the same
 * functions with this macro: compiled with the same flags, they are the
 * same bytes at the same offsets in both programs, and
 * harness/selfbench/loopsame.sh checks that.  Before, on one Intel host, the
 * harness ran 1.126 times as fast as a bare loop that executed as many
 * instructions per operation (17, by callgrind): the two copies sat
 * differently against those boundaries (docs/harness-cost.md). */
#define WL_LOOP_ALIGN 64
#define WL_LOOP_SHAPE_AS(NAME, PFX, POL, KIND, TRY, SHAPE)                                \
	static __attribute__((noinline, aligned(WL_LOOP_ALIGN))) void NAME(struct wl_thread *t) \
	{                                                                                  \
		wl_loop(t, PFX##_acquire, TRY, PFX##_release, POL, KIND, SHAPE);           \
	}
#define WL_LOOP_SHAPE(PFX, POL, KIND, TRY, SHAPE)                                         \
	WL_LOOP_SHAPE_AS(PFX##_##POL##_##KIND##_##SHAPE, PFX, POL, KIND, TRY, SHAPE)
#define WL_LOOP_FN(PFX, POL, KIND, TRY)                                                   \
	WL_LOOP_SHAPE(PFX, POL, KIND, TRY, WL_GENERAL)                                     \
	WL_LOOP_SHAPE(PFX, POL, KIND, TRY, WL_SIMPLE)                                      \
	WL_LOOP_SHAPE(PFX, POL, KIND, TRY, WL_SIMPLE_BOUNDED)                              \
	static void PFX##_##POL##_##KIND(struct wl_thread *t)                              \
	{                                                                                  \
		switch (wl_shape_of(t)) {                                                  \
		case WL_GENERAL:                                                           \
			PFX##_##POL##_##KIND##_WL_GENERAL(t);                              \
			break;                                                             \
		case WL_SIMPLE:                                                            \
			PFX##_##POL##_##KIND##_WL_SIMPLE(t);                               \
			break;                                                             \
		case WL_SIMPLE_BOUNDED:                                                    \
			PFX##_##POL##_##KIND##_WL_SIMPLE_BOUNDED(t);                       \
			break;                                                             \
		}                                                                          \
	}
#define WL_LOOP_FNS(PFX, POL, TRY)                                                        \
	WL_LOOP_FN(PFX, POL, LOOP_SAMPLED, TRY)                                            \
	WL_LOOP_FN(PFX, POL, LOOP_BARE, TRY) WL_LOOP_FN(PFX, POL, LOOP_EVERY, TRY)
/* One row of loops per policy of vocab.h; a lock without trylock has no
 * row for a policy that needs one (POL_REARM). */
#define WL_POL_FNS_0(PFX, ID) WL_LOOP_FNS(PFX, POL_##ID, NULL)
#define WL_POL_FNS_1(PFX, ID) WL_LOOP_FNS(PFX, POL_##ID, PFX##_trylock)
#define WL_POL_FNS(PFX, ID, name, yields, try, ...) WL_POL_FNS_1(PFX, ID)
#define WL_POL_FNS_NOTRY_0(PFX, ID) WL_POL_FNS_0(PFX, ID)
#define WL_POL_FNS_NOTRY_1(PFX, ID)
#define WL_POL_FNS_NOTRY(PFX, ID, name, yields, try, ...) WL_POL_FNS_NOTRY_##try(PFX, ID)
#define WL_DEFINE_LOOPS_NOTRY(PFX) SB_POLICIES(WL_POL_FNS_NOTRY, PFX)
#define WL_DEFINE_LOOPS(PFX) SB_POLICIES(WL_POL_FNS, PFX)
#define WL_LOOP_ROW(PFX, POL)                                                             \
	[POL] = { [LOOP_SAMPLED] = PFX##_##POL##_LOOP_SAMPLED,                             \
		  [LOOP_BARE] = PFX##_##POL##_LOOP_BARE,                                   \
		  [LOOP_EVERY] = PFX##_##POL##_LOOP_EVERY },
#define WL_POL_ROW(PFX, ID, ...) WL_LOOP_ROW(PFX, POL_##ID)
#define WL_POL_ROW_NOTRY_0(PFX, ID) WL_LOOP_ROW(PFX, POL_##ID)
#define WL_POL_ROW_NOTRY_1(PFX, ID)
#define WL_POL_ROW_NOTRY(PFX, ID, name, yields, try, ...) WL_POL_ROW_NOTRY_##try(PFX, ID)
#define WL_LOOP_TABLE_NOTRY(PFX) { SB_POLICIES(WL_POL_ROW_NOTRY, PFX) }
#define WL_LOOP_TABLE(PFX) { SB_POLICIES(WL_POL_ROW, PFX) }

#endif
