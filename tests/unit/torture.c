/* torture.c - mutual exclusion of every lock under every waiting policy:
 * N threads x M operations through the benchmark's own loop must leave the
 * shared counter at exactly N*M, at one thread per PU, oversubscribed and
 * with noise.  Policies that need the kernel's extension are skipped with
 * the reason where it is missing; their dry controls run anywhere.  A lock
 * that does nothing must be caught, or the check proves nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../harness/core/loop.h"
#include "../../harness/engine/runner.h"
#include "../../harness/os/topo.h"
#include "tap.h"

static inline void nop_acquire(void *lock, struct wl_thread *t)
{
	(void)lock, (void)t;
}

#define nop_release nop_acquire
WL_DEFINE_LOOPS_NOTRY(nop)

static const struct wl_lock broken_lock = {
	.name = "broken-nop",
	.desc = "no lock at all (the torture must catch it)",
	.lock_size = 64,
	.loop = WL_LOOP_TABLE_NOTRY(nop),
};

static const struct workload_ops broken = {
	.name = "broken-nop",
	.lock = &broken_lock,
};

/* simple: one line, no think or hold time, the loop's simple copy
 * (harness/core/loop.h); else two lines and a think time, the general one. */
static json_t *params_for(const struct workload_ops *ops, int threads, const char *pin, int noise,
			  int simple)
{
	json_t *p = key_defaults(run_keys, ops->lock->keys);

	json_object_set_new(p, "threads", json_integer(threads));
	json_object_set_new(p, "pin", json_string(pin));
	json_object_set_new(p, "noise", json_integer(noise));
	json_object_set_new(p, "cs_ns", json_integer(0));
	json_object_set_new(p, "think_ns", json_integer(simple ? 0 : 20));
	json_object_set_new(p, "cachelines", json_integer(simple ? 1 : 2));
	return p;
}

/* A thread that first runs after the stop (512 threads on 2 PUs: the last
 * ones released by the gate may not run before a 0.1 s window ends) must
 * leave at once.  The loop is bounded by max_ops, so the bug this guards
 * against (the first phase taken as the current one, STOP never seen as a
 * change) shows as ops done instead of a hang. */
static void late_start(const struct workload_ops *ops)
{
	struct wl_shared sh = { 0 };
	struct sb_rseq rs = { 0 };
	struct wl_line line = { 0 };
	const struct wl_lock *l = ops->lock;
	void *lock = aligned_alloc(64, (l->lock_size + 63) & ~(size_t)63);
	struct wl_thread t = { 0 };
	json_t *p = params_for(ops, 1, "compact", 0, 0);
	char err[256] = "";

	if (!lock)
		abort();
	memset(lock, 0, l->lock_size);
	key_bind(l->keys, p, lock);
	int rc = l->init ? l->init(lock, err, sizeof(err)) : 0;

	if (rc == -EOPNOTSUPP)
		SKIP("late start: %s # SKIP %s", ops->name, err);
	else if (rc)
		CHECK(0, "late start: %s: init: %s", ops->name, err);
	if (rc) {
		free(lock);
		json_decref(p);
		return;
	}
	atomic_store(&sh.phase, PH_STOP);
	sh.lines = &line;
	sh.nlines = 1;
	t.sh = &sh;
	t.lock = lock;
	t.cachelines = 1;
	t.sample_every = 1;
	t.max_ops = 100000;
	t.ns_per_tsc = 1.0 / tm_tsc_per_ns();
	t.slice.rs = &rs;
	t.policy = ops->policy;
	hist_init(&t.acquire_ns);
	hist_init(&t.hold_ns);
	hist_init(&t.think_ns);
	for (int k = 0; k < LOOP_KINDS; k++) {
		t.total_ops = UINT64_MAX;
		l->loop[ops->policy][k](&t);
		CHECK(t.total_ops == 0 && line.v == 0,
		      "late start: %s loop %d started after the stop leaves at once (%llu ops)",
		      ops->name, k, (unsigned long long)t.total_ops);
	}
	if (l->fini)
		l->fini(lock);
	free(lock);
	json_decref(p);
}

static const struct shape {
	unsigned per_pu;
	const char *pin;
	int noise;
	unsigned div; /* fewer ops where every handoff may wait a time slice */
	int all;      /* every policy; else the no-request baseline only */
	int simple;   /* params_for's simple shape */
} shapes[] = { { 1, "compact", 0, 1, 1, 1 },
	       { 4, "oversubscribe:4", 0, 4, 1, 1 },
	       { 1, "compact", 0, 1, 1, 0 },
	       { 2, "compact", 2, 20, 1, 0 },
	       { 8, "oversubscribe:8", 2, 80, 0, 0 } };

/* One workload (lock x policy x dry) through every shape.  The baseline
 * policy gets m operations per thread, the others a twentieth: 5 policies
 * x 2 arms per lock would otherwise take many minutes where a FIFO lock
 * waits a time slice per handoff (ticket at 4 threads per PU), and a
 * twentieth still puts every path through hundreds of handoffs. */
/* Under ThreadSanitizer (the --no-control run) a FIFO lock at 8 threads
 * per PU with noise outlasted the 600 s watchdog with 50 operations per
 * thread: every handoff waits for one of 18 runnable, instrumented
 * threads.  That shape runs in the plain torture; here it is left out. */
static int race_detector;

static void torture(const struct workload_ops *ops, uint64_t m, unsigned npus)
{
	late_start(ops);
	if (ops->lock->unlocked)
		return; /* not a lock (hogs, idle) */
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		if (!shapes[s].all && ops->policy != POL_NONE)
			continue;
		unsigned n = shapes[s].per_pu * npus;

		if (race_detector && ops->lock->fifo && shapes[s].per_pu >= 8) {
			SKIP("torture: %s %u threads (%s, noise %d) # SKIP a FIFO lock this "
			     "oversubscribed outlasts the watchdog under ThreadSanitizer; the plain "
			     "torture runs it", ops->name, n, shapes[s].pin, shapes[s].noise);
			continue;
		}
		json_t *p = params_for(ops, (int)n, shapes[s].pin, shapes[s].noise,
				       shapes[s].simple);
		uint64_t counted = 0;
		char reason[320] = "";
		uint64_t mm = m / shapes[s].div / (ops->policy == POL_NONE ? 1 : 20);

		/* A FIFO lock oversubscribed runs at tens of handoffs per second
		 * (a time slice each): 8 threads x 5000 ops of the ticket lock
		 * hit the 600 s watchdog on a loaded machine.  A fifth still
		 * passes the lock around hundreds of times per thread. */
		if (ops->lock->fifo && shapes[s].per_pu > 1)
			mm /= 5;
		if (mm < 50)
			mm = 50;
		int rc = runner_torture(ops, p, mm, &counted, reason, sizeof(reason));

		if ((rc < 0 && wl_needs_slice(ops)) || rc == -2)
			SKIP("torture: %s %u threads (%s, noise %d) # SKIP %s", ops->name, n,
			     shapes[s].pin, shapes[s].noise, reason);
		else
			CHECK(rc == 0,
			      "torture: %s %u threads x %llu ops (%s, noise %d, %s loop): counter "
			      "%llu%s%s",
			      ops->name, n, (unsigned long long)mm, shapes[s].pin, shapes[s].noise,
			      shapes[s].simple ? "simple" : "general",
			      (unsigned long long)counted, *reason ? ": " : "", reason);
		json_decref(p);
	}
}

int main(int argc, char **argv)
{
	/* argv[1]: operations per thread (fewer under sanitizers), same shapes;
	 * argv[2] = --no-control leaves out the deliberately racy control. */
	uint64_t m = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000;
	race_detector = argc > 2 && !strcmp(argv[2], "--no-control");
	char err[256];

	setvbuf(stdout, NULL, _IOLBF, 0); /* progress shows in a log as it happens */
	if (topo_init(err, sizeof(err))) {
		CHECK(0, "torture: topology: %s", err);
		return 1;
	}
	unsigned npus = topo_npus();

	for (size_t i = 0; wl_locks[i]; i++)
		for (int pol = 0; pol < POL_COUNT; pol++)
			for (int dry = 0; dry < 2; dry++) {
				const char *why;
				const struct workload_ops *ops = wl_resolve(wl_locks[i], pol, dry, &why);

				if (ops)
					torture(ops, m, npus);
			}
	/* The control: without a lock, increments are lost.  A plain ++ on a
	 * shared line from 2+ PUs loses updates within a few thousand ops --
	 * when the threads really run at once.  On a loaded machine both may
	 * get the CPUs in turn and count exactly (seen: 400000 of 400000 while
	 * four builds shared 2 CPUs), so the control has up to eight tries,
	 * each twice as long; one lost update is enough. */
	if (argc > 2 && !strcmp(argv[2], "--no-control")) {
		/* Under ThreadSanitizer the unlocked control is a (wanted) race. */
		SKIP("torture: no-op lock control # SKIP not run under a race detector");
	} else if (npus >= 2) {
		json_t *p = params_for(&broken, (int)npus, "compact", 0, 0);
		uint64_t counted = 0, ops = m * 10;
		char reason[320] = "";
		int rc = 0, tries = 0;

		while (rc != 1 && tries < 8) {
			rc = runner_torture(&broken, p, ops, &counted, reason, sizeof(reason));
			tries++;
			if (rc != 1)
				ops *= 2;
		}
		CHECK(rc == 1, "torture: a no-op lock is caught (counter %llu, expected %llu, try %d)",
		      (unsigned long long)counted, (unsigned long long)(ops * npus), tries);
		json_decref(p);
	} else {
		SKIP("torture: no-op lock control # SKIP needs 2 PUs, have %u", npus);
	}
	return tap_failed ? 1 : 0;
}
