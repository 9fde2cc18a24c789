/* bare.c - the reference for "harness vs bare loop": the harness's own
 * loop with nothing around it.  One thread pinned to a CPU runs the very
 * loop function the harness runs for this workload (1 thread, cs_ns and
 * think_ns 0, one line: the simple shape, sampled one op in sample_every),
 * instantiated here from the same always-inline wl_loop() of
 * harness/core/loop.h by the same macro, with the same flags, on a 64-byte
 * boundary as there.  So both arms execute the same instruction sequence
 * per operation at the same alignment, and the ratio of the two is an A/A
 * check of what the harness does around its loop: its process set-up,
 * counters, rseq registration and pinning.  harness/selfbench/loopsame.sh compares
 * the two functions' disassembly and callgrind's instructions per
 * operation; the sampling's own cost is section 1's ("overhead").
 * Warm-up and window are timed by the main thread exactly as runner.c
 * does, so the two ops/s compare 1:1.  The worker's own CPU time over the
 * window (its thread CPU clock, read by the main thread at the window's
 * ends) gives ops per on-CPU second as well: on a shared machine, the time
 * other processes take from the worker is not the loop's cost, and it
 * differs from one window to the next.
 *   bare WORKLOAD DURATION_S WARMUP_S CPU   ->  one JSON object on stdout */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../lib/exitcodes.h"
#include "../core/keys.h"
#include "../core/loop.h"
#include "../../workloads/locks/adaptive.h"
#include "../../workloads/locks/futex.h"
#include "../../workloads/locks/tas.h"

/* The functions the harness runs for these workloads (workloads/locks/tas.c and the
 * others define them with WL_DEFINE_LOOPS, as tas_POL_NONE_LOOP_SAMPLED_-
 * WL_SIMPLE and so on), compiled here: same body, names of their own (this
 * program links the harness's objects, whose copies it never calls). */
WL_LOOP_SHAPE_AS(bare_tas, tas, POL_NONE, LOOP_SAMPLED, NULL, WL_SIMPLE)
WL_LOOP_SHAPE_AS(bare_futex, futex, POL_NONE, LOOP_SAMPLED, NULL, WL_SIMPLE)
WL_LOOP_SHAPE_AS(bare_adaptive, adaptive, POL_NONE, LOOP_SAMPLED, NULL, WL_SIMPLE)

/* The harness allocates the shared block, the line and the lock each on
 * lines of their own (runner.c); so does this. */
static struct wl_shared sh;
static _Alignas(64) struct wl_line line;
static _Alignas(64) struct tas_lock tas;
static _Alignas(64) struct fx_lock fx;
static _Alignas(64) struct adaptive_lock ad;

static const struct {
	const char *name;
	void (*loop)(struct wl_thread *t);
	void *lock;
} bare_wl[] = {
	{ "spin-tas", bare_tas, &tas },
	{ "futex", bare_futex, &fx },
	{ "adaptive", bare_adaptive, &ad },
};
static struct wl_thread th;
static int cpu;
static _Atomic int running; /* the worker is pinned and about to loop */

/* A key's default from its table: the value the harness runs with. */
static uint32_t key_int(const struct key_desc *tab, const char *name)
{
	json_t *v = key_default(key_find(tab, name));
	uint32_t x = (uint32_t)json_integer_value(v);

	json_decref(v);
	return x;
}

static void *worker(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	atomic_store(&running, 1);
	((void (*)(struct wl_thread *))arg)(&th);
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts))
		;
}

int main(int argc, char **argv)
{
	pthread_t t;
	clockid_t wc;
	size_t w = 0;

	while (argc == 5 && w < sizeof(bare_wl) / sizeof(bare_wl[0]) &&
	       strcmp(argv[1], bare_wl[w].name))
		w++;
	if (argc != 5 || w == sizeof(bare_wl) / sizeof(bare_wl[0])) {
		fprintf(stderr, "usage: bare spin-tas|futex|adaptive DURATION_S WARMUP_S CPU\n");
		return EXIT_USAGE;
	}
	cpu = atoi(argv[4]);
	tas.backoff_max = key_int(tas_keys, "backoff_max");
	ad.spin_budget = key_int(adaptive_keys, "spin_budget");
	sh.lines = &line;
	sh.nlines = 1;
	th.sh = &sh;
	th.lock = bare_wl[w].lock;
	th.cachelines = 1;
	th.sample_every = key_int(run_keys, "sample_every");
	th.max_ops = UINT64_MAX;
	tm_calibrate();
	th.ns_per_tsc = 1.0 / tm_tsc_per_ns();
	atomic_store(&sh.phase, PH_WARMUP);
	pthread_create(&t, NULL, worker, (void *)bare_wl[w].loop);
	if (pthread_getcpuclockid(t, &wc)) {
		fprintf(stderr, "bare: no CPU clock for the worker\n");
		return 1;
	}
	/* The warm-up starts when the worker runs, as the harness's does
	 * after its gate: on a loaded machine a new thread can wait longer
	 * than a whole window for its first slice. */
	while (!atomic_load(&running))
		sleep_s(0.001);
	sleep_s(atof(argv[3]));
	double t0 = now_s(), c0 = cpu_s(wc);

	atomic_store(&sh.phase, PH_MEASURE);
	sleep_s(atof(argv[2]));
	atomic_store(&sh.phase, PH_STOP);
	double t1 = now_s(), c1 = cpu_s(wc);

	pthread_join(t, NULL);
	json_t *o = json_pack("{s:s,s:I,s:I,s:f,s:f,s:f,s:f}", "workload", argv[1], "ops",
			      (json_int_t)th.ops, "total_ops", (json_int_t)th.total_ops, "wall_s",
			      t1 - t0, "ops_per_sec", (double)th.ops / (t1 - t0), "cpu_s", c1 - c0,
			      "ops_per_cpu_s", c1 > c0 ? (double)th.ops / (c1 - c0) : 0.0);

	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
	return 0;
}
