/* sleepcost.c - what perf bench futex lock-pi's usleep(1) inside its
 * critical section really costs here, and a way to run perf with another
 * timer slack (the slack is inherited across fork and exec).
 *   sleepcost [--slack NS] [--iters N]          -> JSON: usleep(1) in ns
 *   sleepcost --slack NS --exec CMD [ARGS...]  -> runs CMD with that slack */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include "../lib/exitcodes.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long slack = -1, iters = 2000;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--slack") && i + 1 < argc)
			slack = atol(argv[++i]);
		else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
			iters = atol(argv[++i]);
		else if (!strcmp(argv[i], "--exec") && i + 1 < argc)
			break;
		else {
			fprintf(stderr, "usage: sleepcost [--slack NS] [--iters N] [--exec CMD...]\n");
			return EXIT_USAGE;
		}
	}
	if (slack >= 0 && prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0)) {
		perror("sleepcost: PR_SET_TIMERSLACK");
		return 1;
	}
	if (i < argc) {
		execvp(argv[i + 1], &argv[i + 1]);
		perror("sleepcost: exec");
		return 127;
	}
	if (iters < 10)
		iters = 10;
	double *d = calloc((size_t)iters, sizeof(*d)), sum = 0;

	if (!d)
		return 1;
	for (long k = 0; k < iters; k++) {
		double t0 = now_ns();

		usleep(1); /* exactly perf 6.1's critical section */
		d[k] = now_ns() - t0;
		sum += d[k];
	}
	qsort(d, (size_t)iters, sizeof(*d), cmp);
	json_t *o = json_pack("{s:I,s:I,s:f,s:f,s:f,s:f}", "timer_slack_ns",
			      (json_int_t)prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), "iters",
			      (json_int_t)iters, "mean_ns", sum / (double)iters, "median_ns",
			      d[iters / 2], "p10_ns", d[iters / 10], "p90_ns", d[iters * 9 / 10]);

	json_dumpf(o, stdout, JSON_COMPACT | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(o);
	free(d);
	return 0;
}
