/* bare.c - the reference for "harness vs bare loop": one thread pinned to
 * a CPU runs lock, one shared cache-line increment, unlock, with the same
 * inline locks as locks/ and the same per-op phase check as the
 * harness's loop, and nothing else.  Warm-up and window are timed by the
 * main thread exactly as runner.c does, so the two ops/s compare 1:1.  The
 * worker's own CPU time over the window (its thread CPU clock, read by the
 * main thread at the window's ends) gives ops per on-CPU second as well:
 * on a shared machine, the time other processes take from the worker is
 * not the loop's cost, and it differs from one window to the next.
 *   bare WORKLOAD DURATION_S WARMUP_S CPU   ->  one JSON object on stdout */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../harness/exitcodes.h"
#include "../locks/adaptive.h"
#include "../locks/futex.h"
#include "../locks/tas.h"

static _Alignas(64) _Atomic int phase; /* 0 warm-up, 1 window, 2 stop */
static _Alignas(64) struct wl_line line;
static _Alignas(64) struct tas_lock tas = { .backoff_max = 64 };	      /* key default */
static _Alignas(64) struct adaptive_lock ad = { .spin_budget = 200 }; /* key default */
static _Alignas(64) _Atomic uint32_t fx;
static const char *wl;
static int cpu;
static uint64_t window_ops;

#define LOOP(LOCK, UNLOCK)                                                                \
	for (;;) {                                                                        \
		int p_ = atomic_load_explicit(&phase, memory_order_relaxed);              \
		if (p_ != ph) {                                                           \
			if (p_ == 2)                                                      \
				break;                                                    \
			ph = p_;                                                          \
			ops = 0;                                                          \
		}                                                                         \
		LOCK;                                                                     \
		line.v++;                                                                 \
		UNLOCK;                                                                   \
		ops++;                                                                    \
	}

static void *worker(void *arg)
{
	cpu_set_t set;
	uint64_t ops = 0;
	int ph = 0;

	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (!strcmp(wl, "spin-tas"))
		LOOP(tas_acquire(&tas, NULL), tas_release(&tas, NULL))
	else if (!strcmp(wl, "futex"))
		LOOP(fx_lock(&fx, NULL), fx_unlock(&fx))
	else
		LOOP(adaptive_acquire(&ad, NULL), adaptive_release(&ad, NULL))
	window_ops = ops;
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

	if (argc != 5 || (strcmp(argv[1], "spin-tas") && strcmp(argv[1], "futex") &&
			  strcmp(argv[1], "adaptive"))) {
		fprintf(stderr, "usage: bare spin-tas|futex|adaptive DURATION_S WARMUP_S CPU\n");
		return EXIT_USAGE;
	}
	wl = argv[1];
	cpu = atoi(argv[4]);
	pthread_create(&t, NULL, worker, NULL);
	if (pthread_getcpuclockid(t, &wc)) {
		fprintf(stderr, "bare: no CPU clock for the worker\n");
		return 1;
	}
	sleep_s(atof(argv[3]));
	double t0 = now_s(), c0 = cpu_s(wc);

	atomic_store(&phase, 1);
	sleep_s(atof(argv[2]));
	atomic_store(&phase, 2);
	double t1 = now_s(), c1 = cpu_s(wc);

	pthread_join(t, NULL);
	json_t *o = json_pack("{s:s,s:I,s:f,s:f,s:f,s:f}", "workload", wl, "ops",
			      (json_int_t)window_ops, "wall_s", t1 - t0, "ops_per_sec",
			      (double)window_ops / (t1 - t0), "cpu_s", c1 - c0, "ops_per_cpu_s",
			      c1 > c0 ? (double)window_ops / (c1 - c0) : 0.0);

	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
	return 0;
}
