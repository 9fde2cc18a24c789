/* psemantics.c - every outcome of every call the preload library
 * interposes, for running under it: after each call the library's depth
 * (slicepreload_request) must be what POSIX says the caller now holds, and
 * its request byte set exactly while that depth is above 0.
 *
 *   psemantics        runs every case once, prints "name value" lines;
 *                     exit 1 when any call's outcome or the library's view
 *                     of it was not the expected one.
 *
 * Cases: normal, error-checking, recursive, robust (owner died, made
 * consistent or not), priority-inheritance (plain and robust) and
 * priority-protect mutexes through lock, trylock and timedlock; spinlocks;
 * condition waits that are signalled, that time out (the mutex is taken
 * again: pthread_cond_timedwait(3p)), whose mutex's owner died while the
 * waiter slept (EOWNERDEAD: held) or was left unrecoverable (not held);
 * fork while holding a mutex.  The counts it prints are what the library's
 * stats file must say (t-preload.sh compares them). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../harness/preload/slicepreload.h"

static slicepreload_request_fn *hook;
static int requesting = 1; /* 0 under the placement that never requests */
/* What POSIX says happened, summed over every thread. */
static _Atomic unsigned long acquired, released, unreleased, owner_dead, outer, attempts0, waits, waits_held, wrong;
static _Thread_local unsigned held; /* this thread's mutexes and spinlocks */

static void check_view(const char *what)
{
	unsigned depth = 0;
	const _Atomic uint8_t *r = hook ? hook(&depth) : NULL;

	if (r && (depth != held || atomic_load(r) != (held && requesting))) {
		fprintf(stderr, "psemantics: %s: library depth %u request %d, held %u\n", what,
			depth, atomic_load(r), held);
		wrong++;
	}
}

static void answered(const char *what, int rc, int want)
{
	if (rc != want) {
		fprintf(stderr, "psemantics: %s: returned %s, expected %s\n", what, strerror(rc),
			strerror(want));
		wrong++;
	}
}

/* A lock call's answer: want is what it must return here; 0 and
 * EOWNERDEAD (robust: acquired, the state may be inconsistent) hold it. */
static void locked(const char *what, int rc, int want)
{
	answered(what, rc, want);
	attempts0 += !held;
	owner_dead += rc == EOWNERDEAD;
	if (!rc || rc == EOWNERDEAD) {
		outer += !held;
		held++;
		acquired++;
	}
	check_view(what);
}

static void unlocked(const char *what, int rc, int want)
{
	answered(what, rc, want);
	if (!rc) {
		held--;
		released++;
	}
	check_view(what);
}

/* A condition wait's answer: the mutex is held again unless the wait
 * could not take it back (ENOTRECOVERABLE). */
static void waited(const char *what, int rc, int want)
{
	answered(what, rc, want);
	waits++;
	if (rc == ENOTRECOVERABLE) {
		held--; /* let go by the wait, never unlocked */
		unreleased++;
	}
	waits_held += held > 0;
	check_view(what);
}

static struct timespec in_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000;
	t.tv_sec += t.tv_nsec / 1000000000;
	t.tv_nsec %= 1000000000;
	return t;
}

static void init(pthread_mutex_t *m, int type, int robust, int proto)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, type);
	pthread_mutexattr_setrobust(&a, robust);
	pthread_mutexattr_setprotocol(&a, proto);
	if (proto == PTHREAD_PRIO_PROTECT)
		pthread_mutexattr_setprioceiling(&a, sched_get_priority_min(SCHED_FIFO));
	if (pthread_mutex_init(m, &a)) {
		fprintf(stderr, "psemantics: pthread_mutex_init failed\n");
		exit(1);
	}
	pthread_mutexattr_destroy(&a);
}

/* Another thread's part: take m and die holding it, or take m and hold it
 * until told to let go.  "unreleased" counts the acquisitions no unlock
 * ends: an owner that died, a wait that could not take its mutex back. */
struct other {
	pthread_mutex_t *m;
	int die;
	pthread_barrier_t taken, release;
};

static void *other_main(void *arg)
{
	struct other *o = arg;

	locked("other: lock", pthread_mutex_lock(o->m), 0);
	pthread_barrier_wait(&o->taken);
	if (o->die) {
		unreleased++;
		return NULL; /* holding it: a robust mutex's owner died */
	}
	pthread_barrier_wait(&o->release);
	unlocked("other: unlock", pthread_mutex_unlock(o->m), 0);
	return NULL;
}

static pthread_t other_start(struct other *o, pthread_mutex_t *m, int die)
{
	pthread_t t;

	o->m = m;
	o->die = die;
	pthread_barrier_init(&o->taken, NULL, 2);
	pthread_barrier_init(&o->release, NULL, 2);
	pthread_create(&t, NULL, other_main, o);
	pthread_barrier_wait(&o->taken);
	if (die)
		pthread_join(t, NULL);
	return t;
}

static void other_end(struct other *o, pthread_t t)
{
	if (!o->die) {
		pthread_barrier_wait(&o->release);
		pthread_join(t, NULL);
	}
	pthread_barrier_destroy(&o->taken);
	pthread_barrier_destroy(&o->release);
}

/* lock, trylock and timedlock of a free mutex, then while another thread
 * holds it (EBUSY, ETIMEDOUT, and EINVAL for a bad time). */
static void basic(const char *name, int type, int proto)
{
	pthread_mutex_t m;
	struct other o;
	struct timespec t = in_ms(5000), bad = { 0, -1 };
	char w[96];

	init(&m, type, PTHREAD_MUTEX_STALLED, proto);
	snprintf(w, sizeof(w), "%s: lock", name);
	locked(w, pthread_mutex_lock(&m), 0);
	unlocked(w, pthread_mutex_unlock(&m), 0);
	locked(w, pthread_mutex_trylock(&m), 0);
	unlocked(w, pthread_mutex_unlock(&m), 0);
	locked(w, pthread_mutex_timedlock(&m, &t), 0);
	unlocked(w, pthread_mutex_unlock(&m), 0);
	pthread_t th = other_start(&o, &m, 0);

	snprintf(w, sizeof(w), "%s: trylock held elsewhere", name);
	locked(w, pthread_mutex_trylock(&m), EBUSY);
	snprintf(w, sizeof(w), "%s: timedlock held elsewhere", name);
	t = in_ms(20);
	locked(w, pthread_mutex_timedlock(&m, &t), ETIMEDOUT);
	snprintf(w, sizeof(w), "%s: timedlock with a bad time", name);
	locked(w, pthread_mutex_timedlock(&m, &bad), EINVAL);
	/* Unlocking a normal mutex another thread holds is undefined. */
	snprintf(w, sizeof(w), "%s: unlock held elsewhere", name);
	if (type != PTHREAD_MUTEX_NORMAL)
		unlocked(w, pthread_mutex_unlock(&m), EPERM);
	other_end(&o, th);
	pthread_mutex_destroy(&m);
}

/* Taking it again: EDEADLK (error-checking), one level deeper (recursive);
 * trylock by the owner EBUSY (error-checking; EDEADLK with a priority
 * protocol, as glibc answers); a second unlock EPERM. */
static void relock(const char *name, int type, int proto)
{
	pthread_mutex_t m;
	struct timespec t = in_ms(5000);
	char w[96];
	int rec = type == PTHREAD_MUTEX_RECURSIVE;

	init(&m, type, PTHREAD_MUTEX_STALLED, proto);
	snprintf(w, sizeof(w), "%s: lock", name);
	locked(w, pthread_mutex_lock(&m), 0);
	snprintf(w, sizeof(w), "%s: lock by the owner", name);
	locked(w, pthread_mutex_lock(&m), rec ? 0 : EDEADLK);
	snprintf(w, sizeof(w), "%s: trylock by the owner", name);
	locked(w, pthread_mutex_trylock(&m), rec ? 0 : proto == PTHREAD_PRIO_NONE ? EBUSY : EDEADLK);
	snprintf(w, sizeof(w), "%s: timedlock by the owner", name);
	locked(w, pthread_mutex_timedlock(&m, &t), rec ? 0 : EDEADLK);
	snprintf(w, sizeof(w), "%s: unlock", name);
	for (int i = rec ? 4 : 1; i > 0; i--)
		unlocked(w, pthread_mutex_unlock(&m), 0);
	snprintf(w, sizeof(w), "%s: unlock not held", name);
	unlocked(w, pthread_mutex_unlock(&m), EPERM);
	pthread_mutex_destroy(&m);
}

/* A robust mutex whose owner died: each way of taking it answers
 * EOWNERDEAD and holds it; made consistent it works on; unlocked without
 * that, it is unrecoverable and every way answers ENOTRECOVERABLE. */
static void robust(const char *name, int type, int proto)
{
	struct timespec t;
	char w[96];

	for (int how = 0; how < 3; how++) {
		pthread_mutex_t m;
		struct other o;

		init(&m, type, PTHREAD_MUTEX_ROBUST, proto);
		other_start(&o, &m, 1);
		t = in_ms(5000);
		snprintf(w, sizeof(w), "%s: %s after the owner died", name,
			 how == 0 ? "lock" : how == 1 ? "trylock" : "timedlock");
		int rc = how == 0 ? pthread_mutex_lock(&m) : how == 1 ? pthread_mutex_trylock(&m)
								    : pthread_mutex_timedlock(&m, &t);

		locked(w, rc, EOWNERDEAD);
		if (how == 0) {
			pthread_mutex_consistent(&m);
			unlocked(w, pthread_mutex_unlock(&m), 0);
			locked(w, pthread_mutex_lock(&m), 0); /* recovered */
		}
		unlocked(w, pthread_mutex_unlock(&m), 0);
		if (how) {
			/* not made consistent: unrecoverable from now on (lock
			 * first: glibc's trylock of an unrecoverable mutex leaves
			 * its lock word taken) */
			snprintf(w, sizeof(w), "%s: lock unrecoverable", name);
			locked(w, pthread_mutex_lock(&m), ENOTRECOVERABLE);
			t = in_ms(5000);
			snprintf(w, sizeof(w), "%s: %s unrecoverable", name,
				 how == 1 ? "trylock" : "timedlock");
			rc = how == 1 ? pthread_mutex_trylock(&m) : pthread_mutex_timedlock(&m, &t);
			locked(w, rc, ENOTRECOVERABLE);
		}
		other_end(&o, 0);
		pthread_mutex_destroy(&m);
	}
}

/* A priority-protect mutex: a SCHED_OTHER thread is refused (EINVAL from
 * glibc: it cannot raise it to the ceiling); a SCHED_FIFO one at the
 * ceiling takes it every way.  0, or -1 when SCHED_FIFO is not allowed. */
static void *pp_main(void *arg)
{
	(void)arg;
	basic("pp", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_PROTECT);
	relock("pp errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_PROTECT);
	relock("pp recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_PROTECT);
	return NULL;
}

static int pp(void)
{
	pthread_mutex_t m;
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	pthread_t t;

	init(&m, PTHREAD_MUTEX_NORMAL, PTHREAD_MUTEX_STALLED, PTHREAD_PRIO_PROTECT);
	locked("pp: lock from SCHED_OTHER", pthread_mutex_lock(&m), EINVAL);
	pthread_mutex_destroy(&m);
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	int rc = pthread_create(&t, &a, pp_main, NULL);

	pthread_attr_destroy(&a);
	if (rc)
		return -1;
	pthread_join(t, NULL);
	return 0;
}

static void spin(void)
{
	pthread_spinlock_t s;

	pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
	locked("spin: lock", pthread_spin_lock(&s), 0);
	locked("spin: trylock by the owner", pthread_spin_trylock(&s), EBUSY);
	unlocked("spin: unlock", pthread_spin_unlock(&s), 0);
	locked("spin: trylock", pthread_spin_trylock(&s), 0);
	unlocked("spin: unlock", pthread_spin_unlock(&s), 0);
	pthread_spin_destroy(&s);
}

/* Condition waits.  A waiter sleeps in its own thread while others
 * arrange how its mutex comes back: signalled (0, held); the owner that
 * signalled died holding it (EOWNERDEAD, held); made unrecoverable while
 * the waiter slept (ENOTRECOVERABLE, not held). */
struct waiter {
	pthread_mutex_t m;
	pthread_cond_t c;
	int go, how, sleeping;
};

static void *waiter_main(void *arg)
{
	struct waiter *x = arg;
	static const int want[] = { 0, EOWNERDEAD, ENOTRECOVERABLE };

	locked("cond waiter: lock", pthread_mutex_lock(&x->m), 0);
	x->sleeping = 1; /* seen under m: the waiter is inside the wait */
	while (!x->go) {
		int rc = pthread_cond_wait(&x->c, &x->m);
		char w[64];

		snprintf(w, sizeof(w), "cond wait, case %d", x->how);
		waited(w, rc, x->go ? want[x->how] : 0);
		if (rc == ENOTRECOVERABLE)
			return NULL;
	}
	if (x->how == 1)
		pthread_mutex_consistent(&x->m);
	unlocked("cond waiter: unlock", pthread_mutex_unlock(&x->m), 0);
	return NULL;
}

/* Takes m once the waiter sleeps; case 1 signals and dies holding it. */
static void *signaller_main(void *arg)
{
	struct waiter *x = arg;

	for (;;) {
		locked("cond signaller: lock", pthread_mutex_lock(&x->m), 0);
		if (x->sleeping)
			break;
		unlocked("cond signaller: unlock", pthread_mutex_unlock(&x->m), 0);
		usleep(1000);
	}
	if (x->how) {
		if (x->how == 1) {
			x->go = 1;
			pthread_cond_signal(&x->c);
		}
		unreleased++;
		return NULL; /* dies holding m */
	}
	x->go = 1;
	pthread_cond_signal(&x->c);
	unlocked("cond signaller: unlock", pthread_mutex_unlock(&x->m), 0);
	return NULL;
}

static void cond_case(int how)
{
	struct waiter x = { .how = how };
	pthread_mutexattr_t a;
	pthread_t w, s;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, how ? PTHREAD_MUTEX_ROBUST : PTHREAD_MUTEX_STALLED);
	pthread_mutex_init(&x.m, &a);
	pthread_mutexattr_destroy(&a);
	pthread_cond_init(&x.c, NULL);
	pthread_create(&w, NULL, waiter_main, &x);
	pthread_create(&s, NULL, signaller_main, &x);
	pthread_join(s, NULL);
	if (how == 2) {
		/* The signaller died holding m while the waiter slept: take it
		 * (EOWNERDEAD), wake the waiter, release it inconsistent. */
		locked("cond: lock after the owner died", pthread_mutex_lock(&x.m), EOWNERDEAD);
		x.go = 1;
		pthread_cond_signal(&x.c);
		unlocked("cond: unlock inconsistent", pthread_mutex_unlock(&x.m), 0);
	}
	pthread_join(w, NULL);
	pthread_cond_destroy(&x.c);
	pthread_mutex_destroy(&x.m);
}

/* A wait that times out takes the mutex back; one with a bad time never
 * lets it go. */
static void cond_timeouts(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec t = in_ms(20), bad = { 0, -1 };

	locked("cond timedwait: lock", pthread_mutex_lock(&m), 0);
	waited("cond timedwait: timed out", pthread_cond_timedwait(&c, &m, &t), ETIMEDOUT);
	waited("cond timedwait: bad time", pthread_cond_timedwait(&c, &m, &bad), EINVAL);
	unlocked("cond timedwait: unlock", pthread_mutex_unlock(&m), 0);
}

/* fork while holding: the child is the one thread, holding what its parent
 * held; it releases, takes and releases again, and tells by its status
 * whether the library saw all of it.  Its counts are its own (the stats
 * file is the parent's alone). */
static void fork_holding(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	int st;

	locked("fork: lock", pthread_mutex_lock(&m), 0);
	pid_t pid = fork();

	if (pid == 0) {
		unsigned long before = wrong;

		check_view("fork child: still holding");
		unlocked("fork child: unlock", pthread_mutex_unlock(&m), 0);
		locked("fork child: lock", pthread_mutex_lock(&m), 0);
		unlocked("fork child: unlock", pthread_mutex_unlock(&m), 0);
		_exit(wrong != before);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "psemantics: fork child: wrong (status %d)\n", st);
		wrong++;
	}
	check_view("fork parent: still holding");
	unlocked("fork: unlock", pthread_mutex_unlock(&m), 0);
}

int main(void)
{
	const char *p = getenv("SLICEBENCH_PRELOAD_PLACEMENT");

	hook = (slicepreload_request_fn *)dlsym(RTLD_DEFAULT, "slicepreload_request");
	requesting = !(p && !strcmp(p, "none"));
	basic("normal", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE);
	basic("errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE);
	basic("recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_NONE);
	basic("pi", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT);
	basic("pi errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_INHERIT);
	relock("errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE);
	relock("recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_NONE);
	relock("pi errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_INHERIT);
	relock("pi recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_INHERIT);
	int fifo = !pp();

	robust("robust", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE);
	robust("robust errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE);
	robust("robust pi", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT);
	spin();
	for (int how = 0; how < 3; how++)
		cond_case(how);
	cond_timeouts();
	fork_holding();
	printf("pp_fifo %s\n", fifo ? "yes" : "no (SCHED_FIFO refused)");
	printf("hook %s\nacquired %lu\nreleased %lu\nunreleased %lu\n", hook ? "yes" : "no",
	       (unsigned long)acquired, (unsigned long)released, (unsigned long)unreleased);
	printf("owner_dead %lu\n", (unsigned long)owner_dead);
	printf("outer %lu\nattempts_at_depth0 %lu\nwaits %lu\nwaits_held %lu\nwrong %lu\n",
	       (unsigned long)outer, (unsigned long)attempts0, (unsigned long)waits,
	       (unsigned long)waits_held, (unsigned long)wrong);
	return wrong != 0;
}
