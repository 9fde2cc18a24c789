/* loop.h - the thread loop: think, acquire, critical section, release.
 *
 * Instantiated per workload and per variant with the workload's own inline
 * lock/unlock, so nothing in the loop is an indirect call.  Everything the
 * loop counts lives in locals and is published once at the end. */
#ifndef SB_LOOP_H
#define SB_LOOP_H

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

/* Slice policies: the honest one, and two abusers that the kernel must
 * contain (seed 000: EEVDF is supposed to make abuse pointless). */
enum wl_slice_policy {
	SP_NONE,    /* no extension */
	SP_YIELD,   /* request around the critical section, yield when granted */
	SP_NOYIELD, /* request and clear, but ignore grants: never yield */
	SP_HOG,     /* request at every op and never clear it */
};

/* LOCK(lock, t) / UNLOCK(lock, t) are the workload's inline functions;
 * SLICE a wl_slice_policy, KIND a wl_loop_kind: compile-time constants. */
#define WL_LOOP_BODY(LOCK, UNLOCK, SLICE, KIND)                                           \
	do {                                                                               \
		struct wl_shared *sh_ = t->sh;                                             \
		void *lk_ = t->lock;                                                       \
		uint64_t ops_ = 0, total_ = 0, left_ = t->max_ops;                         \
		uint64_t req_ = 0, grant_ = 0, yield_ = 0;                                 \
		int gseen_ = 0; /* SP_HOG: grant seen at the previous op */                \
		unsigned every_ = (KIND) == LOOP_EVERY ? 1 : t->sample_every;             \
		unsigned count_ = every_;                                                  \
		int phase_ = PH_NONE; /* a late starter must still see PH_STOP */        \
		for (;;) {                                                                 \
			/* relaxed: the phase only bounds the window, it orders nothing */ \
			int p_ = atomic_load_explicit(&sh_->phase, memory_order_relaxed);  \
			if (p_ != phase_) {                                                \
				wl_phase_change(t, phase_, p_);                            \
				if (p_ == PH_STOP) {                                       \
					if (phase_ != PH_MEASURE) /* never measured */     \
						ops_ = req_ = grant_ = yield_ = 0;         \
					break;                                             \
				}                                                          \
				phase_ = p_;                                               \
				ops_ = req_ = grant_ = yield_ = 0;                         \
			}                                                                  \
			if (!left_--)                                                      \
				break;                                                     \
			tm_busy_iters(t->think_iters);                                     \
			int smp_ = (KIND) != LOOP_BARE && phase_ == PH_MEASURE &&          \
				   --count_ == 0;                                          \
			uint64_t t0_ = 0, t1_ = 0;                                         \
			if (smp_)                                                          \
				t0_ = tm_tsc();                                            \
			LOCK(lk_, t);                                                      \
			if ((SLICE) == SP_HOG) { /* count each grant once, re-arm */       \
				int g_ = atomic_load_explicit(&t->slice.rs->granted,       \
							      memory_order_relaxed);       \
				grant_ += g_ && !gseen_;                                   \
				gseen_ = g_;                                               \
			}                                                                  \
			if (SLICE) {                                                       \
				slice_request(t->slice.rs);                                \
				req_++;                                                    \
			}                                                                  \
			if (smp_)                                                          \
				t1_ = tm_tsc();                                            \
			wl_critical_section(t);                                            \
			if (smp_) {                                                        \
				uint64_t t2_ = tm_tsc();                                   \
				hist_add(&t->acquire_ns, wl_ns(t, t1_ - t0_));             \
				hist_add(&t->hold_ns, wl_ns(t, t2_ - t1_));                \
				count_ = every_;                                           \
			}                                                                  \
			UNLOCK(lk_, t);                                                    \
			if (((SLICE) == SP_YIELD || (SLICE) == SP_NOYIELD) &&              \
			    slice_clear(t->slice.rs)) {                                    \
				grant_++;                                                  \
				if ((SLICE) == SP_YIELD)                                   \
					yield_ += slice_yield() == 1;                      \
			}                                                                  \
			ops_++;                                                            \
			total_++;                                                          \
		}                                                                          \
		if ((SLICE) == SP_HOG)                                                     \
			slice_clear(t->slice.rs);                                          \
		t->ops = ops_;                                                             \
		t->total_ops = total_;                                                     \
		t->slice_requests = req_;                                                  \
		t->slice_grants = grant_;                                                  \
		t->slice_yields = yield_;                                                  \
	} while (0)

/* Defines the three variants of one workload's loop; WL_LOOPS(pfx) is the
 * matching initializer for workload_ops.loop. */
#define WL_DEFINE_LOOPS(pfx, LOCK, UNLOCK, SLICE)                                          \
	static void pfx##_loop_sampled(struct wl_thread *t)                                \
	{                                                                                  \
		WL_LOOP_BODY(LOCK, UNLOCK, SLICE, LOOP_SAMPLED);                           \
	}                                                                                  \
	static void pfx##_loop_bare(struct wl_thread *t)                                   \
	{                                                                                  \
		WL_LOOP_BODY(LOCK, UNLOCK, SLICE, LOOP_BARE);                              \
	}                                                                                  \
	static void pfx##_loop_every(struct wl_thread *t)                                  \
	{                                                                                  \
		WL_LOOP_BODY(LOCK, UNLOCK, SLICE, LOOP_EVERY);                             \
	}

#define WL_LOOPS(pfx)                                                                      \
	{                                                                                  \
		[LOOP_SAMPLED] = pfx##_loop_sampled, [LOOP_BARE] = pfx##_loop_bare,        \
		[LOOP_EVERY] = pfx##_loop_every                                            \
	}

#endif
