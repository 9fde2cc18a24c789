/* timing.c - TSC and busy-loop calibration against the thread CPU clock and CLOCK_MONOTONIC. */
#include "timing.h"

#include <errno.h>

static double tsc_per_ns = 1.0;
static double iters_per_ns = 1.0;
static int calibrated;

void tm_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The thread's own CPU time, not the wall clock: a trial that shared its
 * PU (another task, a loaded host) is charged only the time it ran. */
static uint64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Busy loops are timed as the fastest of several trials, in on-CPU time:
 * a trial that was preempted between two reads of the clock is charged
 * nothing for it, and one disturbed otherwise (an interrupt, a cold
 * cache) only ever looks slower, so the minimum is the undisturbed rate.
 * On a loaded 2-CPU host the wall clock made every one of five trials
 * look 1.6 times slower. */
static double busy_rate(int trials)
{
	const uint64_t iters = 2000000;
	double best_ns = 0;

	for (int trial = 0; trial < trials; trial++) {
		uint64_t t0 = cpu_now_ns();

		tm_busy_iters(iters);
		double ns = (double)(cpu_now_ns() - t0);

		if (trial == 0 || ns < best_ns)
			best_ns = ns;
	}
	return best_ns > 0 ? (double)iters / best_ns : 1.0;
}

double tm_probe_iters_per_ns(void)
{
	return busy_rate(15);
}

void tm_set_iters_per_ns(double rate)
{
	if (rate > 0)
		iters_per_ns = rate;
}

void tm_calibrate(void)
{
	if (calibrated)
		return;
	iters_per_ns = busy_rate(15);

	/* 20 ms against the monotonic clock bounds the TSC error near 0.1%
	 * even with a 20 us disturbance at either end. */
	uint64_t n0 = tm_now_ns(), c0 = tm_tsc();

	tm_sleep_ns(20000000);
	uint64_t n1 = tm_now_ns(), c1 = tm_tsc();

	tsc_per_ns = (double)(c1 - c0) / (double)(n1 - n0);
	if (tsc_per_ns <= 0)
		tsc_per_ns = 1.0;
	calibrated = 1;
}

double tm_tsc_per_ns(void)
{
	return tsc_per_ns;
}

double tm_iters_per_ns(void)
{
	return iters_per_ns;
}

uint64_t tm_ns_to_iters(uint64_t ns)
{
	return (uint64_t)((double)ns * iters_per_ns + 0.5);
}
