/* switchcost.c - what the flexguard lock's sched_switch program
 * (workloads/locks/bpf/fgswitch.bpf.c) adds to every context switch: two threads
 * pinned to one PU hand a futex back and forth, so each handoff is one
 * switch, timed with the program unloaded, loaded (the threads not
 * watched: what every other task's switches pay) and loaded with both
 * threads watched and critical (the full mark-and-clear path).  The arms
 * alternate per repetition, so a drift of the machine's speed spreads over
 * all three.
 *   switchcost [--rounds N] [--reps K]  -> JSON on stdout; exit 0, or 3
 *   with {"status": "unsupported", "reason"} where the program cannot load */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>

#include "../lib/exitcodes.h"
#include "../../workloads/locks/fgload.h"

enum arm { ARM_OFF, ARM_LOADED, ARM_WATCHED, ARMS };
static const char *const arm_name[ARMS] = { "unloaded", "loaded", "loaded_watched" };

struct side {
	_Atomic uint32_t *mine, *other;
	long rounds;
	int cpu, slot, watch;
};

static _Atomic uint32_t word[2];

static void fwait(_Atomic uint32_t *w)
{
	while (!atomic_exchange(w, 0))
		syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void fpost(_Atomic uint32_t *w)
{
	atomic_store(w, 1);
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *pong(void *arg)
{
	struct side *s = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (s->watch && !fgb_watch((unsigned)s->slot, (int)syscall(SYS_gettid)))
		fgb_slot((unsigned)s->slot)->crit = 1;
	for (long i = 0; i < s->rounds; i++) {
		fwait(s->mine);
		fpost(s->other);
	}
	return NULL;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* ns per switch of one repetition; *sw the voluntary switches counted */
static double one(long rounds, int cpu, int watch, double *sw)
{
	struct side a = { &word[0], &word[1], rounds, cpu, 0, watch };
	struct side b = { &word[1], &word[0], rounds, cpu, 1, watch };
	pthread_t ta, tb;
	struct rusage r0, r1;

	atomic_store(&word[0], 0);
	atomic_store(&word[1], 0);
	getrusage(RUSAGE_SELF, &r0);
	pthread_create(&ta, NULL, pong, &a);
	pthread_create(&tb, NULL, pong, &b);
	usleep(20000); /* both pinned and waiting */
	double t0 = now_ns();

	fpost(&word[0]);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	double t1 = now_ns();

	getrusage(RUSAGE_SELF, &r1);
	/* voluntary (the waiter sleeps) and involuntary (the wakee preempts
	 * the waker): each handoff should be one of either */
	*sw = (double)(r1.ru_nvcsw - r0.ru_nvcsw + r1.ru_nivcsw - r0.ru_nivcsw) /
	      (2.0 * (double)rounds);
	fgb_unwatch_all();
	return (t1 - t0) / (2.0 * (double)rounds);
}

static json_t *dist(double *x, size_t n)
{
	gsl_sort(x, 1, n);
	return json_pack("{s:f,s:f,s:f,s:f,s:f}", "median_ns",
			 gsl_stats_median_from_sorted_data(x, 1, n), "p10_ns",
			 gsl_stats_quantile_from_sorted_data(x, 1, n, 0.1), "p90_ns",
			 gsl_stats_quantile_from_sorted_data(x, 1, n, 0.9), "min_ns", x[0], "max_ns",
			 x[n - 1]);
}

int main(int argc, char **argv)
{
	long rounds = 20000, reps = 30;
	char why[256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atol(argv[++i]);
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atol(argv[++i]);
		else {
			fprintf(stderr, "usage: switchcost [--rounds N] [--reps K]\n");
			return EXIT_USAGE;
		}
	}
	if (rounds < 100 || reps < 2) {
		fprintf(stderr, "switchcost: --rounds >= 100 and --reps >= 2\n");
		return EXIT_USAGE;
	}
	if (fgb_open(why, sizeof(why))) {
		json_t *o = json_pack("{s:s,s:s}", "status", "unsupported", "reason", why);

		json_dumpf(o, stdout, JSON_COMPACT);
		putchar('\n');
		json_decref(o);
		return 3;
	}
	fgb_close();
	cpu_set_t set;
	int cpu = 0;

	sched_getaffinity(0, sizeof(set), &set);
	while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set))
		cpu++;
	double *ns = calloc((size_t)(ARMS * reps), sizeof(*ns)), *delta = calloc((size_t)(2 * reps), sizeof(*delta));
	double sw[ARMS] = { 0 };

	if (!ns || !delta)
		return 1;
	/* The arms' order rotates per repetition: none always runs first. */
	for (long k = 0; k < reps; k++)
		for (int i = 0; i < ARMS; i++) {
			int a = (int)((k + i) % ARMS);
			double s;

			if (a != ARM_OFF && fgb_open(why, sizeof(why))) {
				fprintf(stderr, "switchcost: reload failed: %s\n", why);
				return 1;
			}
			ns[a * reps + k] = one(rounds, cpu, a == ARM_WATCHED, &s);
			sw[a] += s / (double)reps;
			if (a != ARM_OFF)
				fgb_close();
		}
	/* Paired per repetition: loaded minus unloaded, in the same round. */
	for (long k = 0; k < reps; k++) {
		delta[k] = ns[ARM_LOADED * reps + k] - ns[k];
		delta[reps + k] = ns[ARM_WATCHED * reps + k] - ns[k];
	}
	json_t *o = json_pack("{s:s,s:I,s:I,s:i}", "status", "ok", "rounds", (json_int_t)rounds,
			      "reps", (json_int_t)reps, "cpu", cpu);

	for (int a = 0; a < ARMS; a++) {
		json_t *d = dist(&ns[a * reps], (size_t)reps);

		json_object_set_new(d, "switches_per_handoff", json_real(sw[a]));
		json_object_set_new(o, arm_name[a], d);
	}
	json_object_set_new(o, "loaded_minus_unloaded", dist(delta, (size_t)reps));
	json_object_set_new(o, "watched_minus_unloaded", dist(delta + reps, (size_t)reps));
	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(6));
	putchar('\n');
	json_decref(o);
	free(ns);
	free(delta);
	return 0;
}
