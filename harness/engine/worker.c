/* worker.c - what each thread of a repetition does: its role's loop
 * (lock thread, noise hog, victim probe) between the start gate and STOP,
 * and the accounting of its own measured window. */
#define _GNU_SOURCE
#include "rep.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../os/holdtrace.h"
#include "../core/policy.h"
#include "../os/timing.h"
#include "../os/topo.h"

void wl_phase_change(struct wl_thread *t, int from, int to)
{
	struct acct *a = t->acct;

	if (!a)
		return;
	if (to == PH_MEASURE) {
		if (t->hold_log)
			hl_reset(t->hold_log);
		getrusage(RUSAGE_THREAD, &a->ru0);
		a->tsc0 = tm_tsc();
		if (a->ev)
			cnt_enable(&a->cnt);
		a->measured = 1;
	} else if (to == PH_STOP && from == PH_MEASURE) {
		if (a->ev)
			cnt_disable(&a->cnt);
		a->tsc1 = tm_tsc();
		getrusage(RUSAGE_THREAD, &a->ru1);
		if (a->ev)
			cnt_read(a->ev, &a->cnt, &a->vals);
	}
}

/* A hog, or with noise_sleep_ns the kernel's slice_test noise thread
 * (tools/testing/selftests/rseq/slice_test.c): busy, then asleep, so each
 * wakeup preempts the lock thread on its PU, at any point of its loop. */
static void noise_loop(struct worker *w)
{
	struct wl_thread *t = &w->t;
	int phase = PH_WARMUP, p;

	while ((p = atomic_load_explicit(&t->sh->phase, memory_order_relaxed)) != PH_STOP) {
		if (p != phase) {
			wl_phase_change(t, phase, p);
			phase = p;
		}
		if (!w->noise_sleep_ns) {
			tm_busy_iters(1000);
			continue;
		}
		for (uint64_t end = tm_now_ns() + w->noise_busy_ns; tm_now_ns() < end;)
			;
		tm_sleep_ns(w->noise_sleep_ns);
	}
	wl_phase_change(t, phase, PH_STOP);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

/* cyclictest's measurement: sleep to an absolute time, the latency is when
 * we run minus when we asked to.  Missed periods are skipped, not queued,
 * so one long stall counts once, as cyclictest counts it. */
static void victim_loop(struct worker *w)
{
	struct wl_thread *t = &w->t;
	uint64_t iv = 1000ull * (uint64_t)w->victim.interval_us;
	struct timespec next;
	int phase = PH_WARMUP, p;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while ((p = atomic_load_explicit(&t->sh->phase, memory_order_relaxed)) != PH_STOP) {
		if (p != phase) {
			wl_phase_change(t, phase, p);
			phase = p;
		}
		uint64_t want = ts_ns(&next) + iv;

		next.tv_sec = (time_t)(want / 1000000000ull);
		next.tv_nsec = (long)(want % 1000000000ull);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		uint64_t now = tm_now_ns();

		if (phase == PH_MEASURE)
			hist_add(w->lat, now - want);
		while (want + iv <= now)
			want += iv;
		next.tv_sec = (time_t)(want / 1000000000ull);
		next.tv_nsec = (long)(want % 1000000000ull);
	}
	wl_phase_change(t, phase, PH_STOP);
}

static int victim_policy(struct worker *w)
{
	const char *pol = w->victim.policy;

	if (!pol || strcmp(pol, "fifo"))
		return 0;
	struct sched_param sp = {
		.sched_priority = (int)w->victim.priority
	};
	int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);

	if (rc)
		snprintf(w->reason, sizeof(w->reason), "victim: SCHED_FIFO priority %d: %s",
			 sp.sched_priority, strerror(rc));
	return -rc;
}

/* Every lock thread of every policy registers the same rseq area where
 * the kernel offers the extension, the no-request baseline and the dry
 * controls included: the kernel does rseq work on return to user space
 * for registered tasks only, so arms that register differently would not
 * be the same loop with only the requests changed.  A policy that needs
 * the extension fails without it (the run is "unsupported"); the others
 * run on and the result says why nothing was registered. */
static int lock_thread_rseq(struct worker *w)
{
	struct wl_thread *t = &w->t;
	char why[256];
	int rc = slice_probe(why, sizeof(why));

	if (!rc)
		rc = slice_thread_init(&t->slice, why, sizeof(why));
	w->rseq_registered = !rc;
	if (rc && wl_needs_slice(w->ops)) {
		snprintf(w->reason, sizeof(w->reason), "%s", why);
		return rc;
	}
	if (rc)
		snprintf(w->rseq_reason, sizeof(w->rseq_reason), "%s", why);
	if (w->ops->dry)
		t->slice.rs = &t->dry_area; /* the registered area stays in own_area */
	return 0;
}

void *rep_worker(void *arg)
{
	struct worker *w = arg;
	struct wl_thread *t = &w->t;

	t->tid = (int)syscall(SYS_gettid);
	int rc = topo_bind_self(w->cpu);

	if (rc) {
		w->init_rc = rc;
		snprintf(w->reason, sizeof(w->reason), "binding to CPU %d failed: %s", w->cpu,
			 strerror(-rc));
	}
	if (!w->init_rc && w->role == WK_LOCK)
		w->init_rc = lock_thread_rseq(w);
	/* The thread maps its own pages: first-touched on its CPU's node. */
	if (!w->init_rc && w->role == WK_LOCK && t->fault_pages) {
		w->init_rc = fcs_map(&w->fault, t->fault_pages, (enum fcs_mem)w->fault_mem,
				     w->reason, sizeof(w->reason));
		t->fault_base = w->fault.base;
		t->fault_len = w->fault.len;
		t->fault_advice = w->fault.advice;
	}
	if (!w->init_rc && w->role == WK_VICTIM)
		w->init_rc = victim_policy(w);
	if (!w->init_rc && w->acct.ev)
		cnt_open_self(w->acct.ev, &w->acct.cnt);
	/* One gate releases everyone at once, as perf bench futex does. */
	pthread_barrier_wait(w->gate);
	if (w->role == WK_NOISE)
		noise_loop(w);
	else if (w->role == WK_VICTIM && !w->init_rc)
		victim_loop(w);
	else if (w->role == WK_LOCK && !w->init_rc)
		w->ops->lock->loop[w->ops->policy][w->kind](t);
	atomic_fetch_add(w->left, 1);
	if (w->acct.ev)
		cnt_close(&w->acct.cnt);
	if (t->slice.rs || t->slice.own_area)
		slice_thread_fini(&t->slice);
	fcs_unmap(&w->fault);
	return NULL;
}
