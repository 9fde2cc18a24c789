/* timing.h - clocks, TSC and calibrated busy work for the hot loops. */
#ifndef SB_TIMING_H
#define SB_TIMING_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

static inline uint64_t tm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Plain rdtsc: the samples bracket a lock call of tens of ns, where the
 * ~20 cycles of a serialising rdtscp+lfence pair would dominate. */
static inline uint64_t tm_tsc(void)
{
	return __rdtsc();
}

/* One iteration is one compiler barrier: no memory traffic, so the busy
 * work neither touches shared lines nor depends on the lock's cache state. */
static inline void tm_busy_iters(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
}

/* Measures the TSC frequency and the busy-loop rate once per process. */
void tm_calibrate(void);
double tm_tsc_per_ns(void);
double tm_iters_per_ns(void);
uint64_t tm_ns_to_iters(uint64_t ns);
/* The busy loop's rate now (the fastest of five trials), leaving the
 * calibration alone; tm_set_iters_per_ns replaces it (a recalibration). */
double tm_probe_iters_per_ns(void);
void tm_set_iters_per_ns(double rate);
/* The PUs of one machine need not run the loop at one speed: on a cloud
 * VM here, vCPU 0 ran it 1.7 times slower than vCPU 1 for minutes (the
 * host's other threads on its core), so a rate measured wherever the main
 * thread happened to run mis-sized every section of a thread pinned
 * elsewhere.  tm_calibrate_on measures the rate on CPU cpu (the calling
 * thread is moved there for the measurement and back), once per process
 * and CPU: a later call for the same CPU keeps the rate in use, a
 * recalibration included.  tm_probe_on is tm_probe_iters_per_ns on cpu.
 * A negative cpu measures where the thread runs. */
void tm_calibrate_on(int cpu);
double tm_probe_on(int cpu);
static inline uint64_t tm_tsc_to_ns(uint64_t cycles, double tsc_per_ns)
{
	return (uint64_t)((double)cycles / tsc_per_ns);
}
void tm_sleep_ns(uint64_t ns);

#endif
