/* ptorture.c - a program linked against nothing but libc, for running
 * under the preload library: exact counts through the interposed calls.
 *
 *   ptorture locks THREADS ITERS   mutex lock/trylock/timedlock with a
 *                                  spinlock nested inside every 4th one
 *   ptorture cond ITEMS            one producer, one consumer, a one-slot
 *                                  queue and pthread_cond_(timed)wait
 *   ptorture nolock THREADS ITERS  the locks' loop without the lock: the
 *                                  control that shows the count can fail
 *   ptorture serve THREADS         the locks' loop until SIGTERM, then a
 *                                  normal exit (a server's shape)
 *
 * Each prints "name value" lines; the exit status is 1 when a count is
 * wrong.  Under the library (found with dlsym, so the program runs the
 * same without it) it also checks, at every step, that the thread's slice
 * request is set inside a critical section, clear outside one, and clear
 * while the consumer sleeps in a condition wait. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../harness/preload/slicepreload.h"

static slicepreload_request_fn *hook;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t s;
static volatile unsigned long count, nested;
static unsigned long iters;
static int use_lock = 1;
static int requesting = 1; /* 0 under the placement that never requests */
static _Atomic unsigned long outer, bad_inside, bad_outside, bad_sleeping;

/* The read and the write of a shared count, apart: two holders at once
 * lose an update almost surely. */
static void bump_slowly(volatile unsigned long *c)
{
	unsigned long v = *c;

	for (volatile int i = 0; i < 20; i++)
		;
	*c = v + 1;
}

static void expect(int inside)
{
	unsigned depth;
	const _Atomic uint8_t *r = hook ? hook(&depth) : NULL;

	if (r && atomic_load(r) != (inside && requesting))
		atomic_fetch_add(inside ? &bad_inside : &bad_outside, 1);
}

static void take(unsigned long i)
{
	struct timespec far;

	if (!use_lock)
		return;
	switch (i % 3) {
	case 0:
		pthread_mutex_lock(&m);
		break;
	case 1:
		while (pthread_mutex_trylock(&m))
			;
		break;
	default:
		clock_gettime(CLOCK_REALTIME, &far);
		far.tv_sec += 60;
		if (pthread_mutex_timedlock(&m, &far)) {
			fprintf(stderr, "ptorture: timedlock failed\n");
			exit(1);
		}
	}
	atomic_fetch_add(&outer, 1);
}

static pthread_barrier_t start; /* all threads overlap, even on a loaded machine */

static void *locker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (unsigned long i = 0; i < iters; i++) {
		expect(0);
		take(i);
		if (use_lock)
			expect(1);
		bump_slowly(&count);
		if (use_lock && i % 4 == 0) {
			if (i % 8 == 0)
				pthread_spin_lock(&s);
			else
				while (pthread_spin_trylock(&s))
					;
			bump_slowly(&nested);
			pthread_spin_unlock(&s);
			expect(1); /* the outer lock is still held */
		}
		if (use_lock)
			pthread_mutex_unlock(&m);
	}
	return NULL;
}

static int run_locks(unsigned threads)
{
	pthread_t *t = calloc(threads, sizeof(*t));

	pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
	pthread_barrier_init(&start, NULL, threads);
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, locker, NULL);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	unsigned long want = threads * iters, want_nested = threads * ((iters + 3) / 4);

	printf("count %lu\nexpected %lu\nnested %lu\nexpected_nested %lu\n", count, want,
	       use_lock ? nested : 0, use_lock ? want_nested : 0);
	printf("outer_acquisitions %lu\nbad_request_inside %lu\nbad_request_outside %lu\n",
	       (unsigned long)outer, (unsigned long)bad_inside, (unsigned long)bad_outside);
	printf("hook %s\n", hook ? "yes" : "no");
	return count != want || (use_lock && nested != want_nested) || bad_inside || bad_outside;
}

/* The consumer announces its wait under the mutex; the producer holds the
 * same mutex when it looks, so the consumer is then inside the wait (the
 * library clears the request before the real wait releases the mutex). */
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static unsigned long slot, items, consumed, waits, sum;
static int full, waiting;
static const _Atomic uint8_t *consumer_req;

static void *consumer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	atomic_fetch_add(&outer, 1);
	consumer_req = hook ? hook(NULL) : NULL;
	while (consumed < items) {
		while (!full) {
			struct timespec far;

			waiting = 1;
			waits++;
			if (waits % 2) {
				pthread_cond_wait(&cv, &m);
			} else {
				clock_gettime(CLOCK_REALTIME, &far);
				far.tv_sec += 60;
				pthread_cond_timedwait(&cv, &m, &far);
			}
			waiting = 0;
			expect(1); /* set again after the wait */
		}
		sum += slot;
		consumed++;
		full = 0;
		pthread_cond_signal(&cv);
	}
	pthread_mutex_unlock(&m);
	return NULL;
}

static int run_cond(void)
{
	pthread_t c;

	pthread_create(&c, NULL, consumer, NULL);
	for (unsigned long i = 1; i <= items; i++) {
		pthread_mutex_lock(&m);
		atomic_fetch_add(&outer, 1);
		while (full) {
			if (waiting && consumer_req && atomic_load(consumer_req))
				atomic_fetch_add(&bad_sleeping, 1);
			pthread_cond_wait(&cv, &m);
		}
		if (waiting && consumer_req && atomic_load(consumer_req))
			atomic_fetch_add(&bad_sleeping, 1);
		slot = i;
		full = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&m);
		expect(0);
	}
	pthread_join(c, NULL);
	unsigned long want = items * (items + 1) / 2;

	printf("sum %lu\nexpected %lu\nconsumed %lu\nconsumer_waits %lu\n", sum, want, consumed,
	       waits);
	printf("outer_acquisitions %lu\nbad_request_inside %lu\nbad_request_outside %lu\n",
	       (unsigned long)outer, (unsigned long)bad_inside, (unsigned long)bad_outside);
	printf("bad_request_sleeping %lu\nhook %s\n", (unsigned long)bad_sleeping,
	       hook ? "yes" : "no");
	return sum != want || bad_inside || bad_outside || bad_sleeping;
}

static volatile sig_atomic_t stopping;

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

static void *server_thread(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; !stopping; i++) {
		take(i);
		bump_slowly(&count);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static int run_serve(unsigned threads)
{
	pthread_t *t = calloc(threads, sizeof(*t));

	signal(SIGTERM, on_term);
	for (unsigned i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, server_thread, NULL);
	for (unsigned i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	free(t);
	printf("count %lu\nouter_acquisitions %lu\n", count, (unsigned long)outer);
	return count != outer;
}

int main(int argc, char **argv)
{
	const char *p = getenv("SLICEBENCH_PRELOAD_PLACEMENT");

	hook = (slicepreload_request_fn *)dlsym(RTLD_DEFAULT, "slicepreload_request");
	requesting = !p || strcmp(p, "none");
	if (argc == 3 && !strcmp(argv[1], "cond")) {
		items = strtoul(argv[2], NULL, 0);
		return run_cond();
	}
	if (argc == 4 && (!strcmp(argv[1], "locks") || !strcmp(argv[1], "nolock"))) {
		use_lock = !strcmp(argv[1], "locks");
		iters = strtoul(argv[3], NULL, 0);
		return run_locks((unsigned)strtoul(argv[2], NULL, 0));
	}
	if (argc == 3 && !strcmp(argv[1], "serve"))
		return run_serve((unsigned)strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: ptorture locks|nolock THREADS ITERS | ptorture cond ITEMS\n");
	return 2;
}
