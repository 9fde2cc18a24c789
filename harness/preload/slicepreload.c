/* slicepreload.c - the rseq time-slice extension around the critical
 * sections of an unmodified, dynamically linked program.
 *
 * Loaded with LD_PRELOAD, it interposes the pthread mutex, spinlock and
 * condition-variable calls (dlsym(RTLD_NEXT), as every interposer from
 * libfaketime to the litl lock library does) and places the slice request
 * around what it sees:
 *   cs    request when the thread takes its first lock, clear when it
 *         releases its last one (a per-thread depth handles nesting);
 *   pre   the same, but the request is set before the first acquisition,
 *         so a thread waiting for its first lock waits with it set;
 *   none  interpose and count, never request: the cost of interposing.
 * A grant in force at the clear is given back at once with
 * rseq_slice_yield(), as Documentation/userspace-api/rseq.rst asks.  A
 * condition-variable wait sleeps in the kernel: the request is cleared
 * before (and a grant yielded) and set again after the wait returns with
 * the mutex held.  Every answer of every call is classified as acquired or
 * not (acquired(), wait_exit()): a robust mutex's EOWNERDEAD holds it, a
 * wait's ETIMEDOUT holds it again, a wait's ENOTRECOVERABLE let it go.
 * SLICEBENCH_PRELOAD_DRY=1 makes the same stores on a
 * thread-private area the kernel never reads: the control for the stores
 * and the bookkeeping themselves.  Every mode registers the same rseq area
 * where the kernel offers the extension, as the harness's arms do.
 *
 * What it cannot see: locks that never call these functions through the
 * dynamic symbol table - futexes used directly, inline or hand-written
 * spinlocks and atomics, glibc's internal locks (stdio, malloc arenas, the
 * mutex a condition variable re-takes inside glibc), C11 mtx_* (which
 * glibc calls internally), rwlocks, semaphores, pthread_mutex_clocklock and
 * pthread_cond_clockwait - and statically linked programs.
 *
 * Where the kernel lacks the extension the real modes refuse: the reason
 * (harness/os/slicewhy.c) goes to stderr and to the stats file, and the
 * process exits with status 2 before main() runs. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "../lib/vocab.h"
#include "../os/slice.h"
#include "slicepreload.h"

#define TLS __attribute__((tls_model("initial-exec")))
#define EXPORT __attribute__((visibility("default")))

/* The policies of harness/lib/vocab.h the library places, by their ID
 * there: SP_ID, named SB_POLNAME_ID. */
#define SP_PLACEMENTS(X) X(NONE) X(CS) X(PRE)
#define SP_ENUM(ID) SP_##ID,
#define SP_NAME(ID) SB_POLNAME_##ID,
#define SP_LIST(ID) ", " SB_POLNAME_##ID
enum sp_placement { SP_PLACEMENTS(SP_ENUM) SP_COUNT };
static const char *const placement_names[SP_COUNT] = { SP_PLACEMENTS(SP_NAME) };
/* "none, cs, pre" past its leading ", " */
static const char placement_list[] = SP_PLACEMENTS(SP_LIST);

/* One per thread, on its own cache lines: the counters are written by
 * their thread alone (plain relaxed stores, no shared line on the lock
 * path) and summed at exit from a list that is only ever pushed to. */
struct sp_thread {
	_Alignas(64) struct sb_rseq dry;
	struct slice_thread st;
	struct sb_rseq *rs; /* where requests go: st.rs, or &dry */
	unsigned depth, max_depth;
	int registered;
	_Atomic uint64_t locks, unlocks, owner_dead, requests, grants, yields, cond_waits,
		wait_lost, unbalanced;
	struct sp_thread *next;
};

static struct {
	enum sp_placement placement;
	int dry, refused;
	pid_t pid;
	char *stats;
	char run[64]; /* the run the stats file is for (stats_take) */
	uint64_t t0_ns;
	pthread_key_t key;
	pthread_once_t key_once;
	_Atomic(struct sp_thread *) threads;
	_Atomic unsigned nthreads, nregistered;
	char reg_reason[256], reason[256];
	int (*mutex_lock)(pthread_mutex_t *);
	int (*mutex_trylock)(pthread_mutex_t *);
	int (*mutex_timedlock)(pthread_mutex_t *, const struct timespec *);
	int (*mutex_unlock)(pthread_mutex_t *);
	int (*spin_lock)(pthread_spinlock_t *);
	int (*spin_trylock)(pthread_spinlock_t *);
	int (*spin_unlock)(pthread_spinlock_t *);
	int (*cond_wait)(pthread_cond_t *, pthread_mutex_t *);
	int (*cond_timedwait)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
} sp = { .key_once = PTHREAD_ONCE_INIT };

/* 0 before the thread's first call, 1 set up, 2 off (its state is gone:
 * a later destructor's lock call must not set it up again). */
static TLS __thread int self_state;
static TLS __thread struct sp_thread *self;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void bump(_Atomic uint64_t *c)
{
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
			      memory_order_relaxed);
}

/* pthread_cond_wait has two versions on x86-64 (GLIBC_2.2.5 for the old
 * LinuxThreads layout, GLIBC_2.3.2 the current one) and plain dlsym may
 * hand back the old one; ask for the current one first. */
static void *real(const char *name, const char *version)
{
	void *f = version ? dlvsym(RTLD_NEXT, name, version) : NULL;

	if (!f)
		f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "slicepreload: no next definition of %s: %s\n", name, dlerror());
		_exit(2);
	}
	return f;
}

static void resolve(void)
{
	if (sp.cond_timedwait)
		return;
	sp.mutex_lock = real("pthread_mutex_lock", NULL);
	sp.mutex_trylock = real("pthread_mutex_trylock", NULL);
	sp.mutex_timedlock = real("pthread_mutex_timedlock", NULL);
	sp.mutex_unlock = real("pthread_mutex_unlock", NULL);
	sp.spin_lock = real("pthread_spin_lock", NULL);
	sp.spin_trylock = real("pthread_spin_trylock", NULL);
	sp.spin_unlock = real("pthread_spin_unlock", NULL);
	sp.cond_wait = real("pthread_cond_wait", "GLIBC_2.3.2");
	sp.cond_timedwait = real("pthread_cond_timedwait", "GLIBC_2.3.2");
}

static void thread_gone(void *arg)
{
	struct sp_thread *t = arg;

	if (t->st.rs || t->st.own_area)
		slice_thread_fini(&t->st);
	t->rs = NULL;
	self_state = 2;
}

static void make_key(void)
{
	pthread_key_create(&sp.key, thread_gone);
}

/* Where a thread's requests go: decided again once sp_init has read the
 * environment (a library constructor may lock before it runs). */
static void place(struct sp_thread *t)
{
	t->rs = sp.dry || !t->registered ? &t->dry : t->st.rs;
}

/* The thread's state, set up at its first interposed call: possibly from
 * another library's constructor, before sp_init, so the key is made here
 * (an unmade key is 0, which may be that library's own). */
static struct sp_thread *me(void)
{
	if (self_state)
		return self_state == 1 ? self : NULL;
	self_state = 2; /* nothing below may come back here */
	struct sp_thread *t;

	if (posix_memalign((void **)&t, 64, sizeof(*t)))
		return NULL;
	memset(t, 0, sizeof(*t));
	char why[256];

	t->registered = !slice_thread_init(&t->st, why, sizeof(why));
	if (t->registered)
		atomic_fetch_add(&sp.nregistered, 1);
	else if (!sp.reg_reason[0])
		snprintf(sp.reg_reason, sizeof(sp.reg_reason), "%s", why);
	place(t);
	t->next = atomic_load(&sp.threads);
	while (!atomic_compare_exchange_weak(&sp.threads, &t->next, t))
		;
	atomic_fetch_add(&sp.nthreads, 1);
	pthread_once(&sp.key_once, make_key);
	pthread_setspecific(sp.key, t);
	self = t;
	self_state = 1;
	return t;
}

static void request(struct sp_thread *t)
{
	slice_request(t->rs);
	bump(&t->requests);
}

static void clear(struct sp_thread *t)
{
	if (slice_clear(t->rs)) {
		bump(&t->grants);
		if (slice_yield() == 1)
			bump(&t->yields);
	}
}

/* Before an acquisition: pre requests at the outermost one. */
static struct sp_thread *enter(void)
{
	struct sp_thread *t = me();

	if (t && sp.placement == SP_PRE && !t->depth)
		request(t);
	return t;
}

/* Whether a lock call's answer means the caller now holds the lock
 * (pthread_mutex_lock(3p)).  0, and EOWNERDEAD: a robust mutex whose owner
 * died is acquired, its state to be made consistent.  Every other answer
 * leaves it unheld: EBUSY (trylock), ETIMEDOUT and EINVAL (timedlock),
 * EDEADLK (error-checking, or priority-inheritance, relock by the owner),
 * EAGAIN (a recursive mutex's count at its maximum), ENOTRECOVERABLE (a
 * robust mutex left inconsistent), EINVAL (a priority-protect ceiling
 * below the caller's priority, or one it may not be raised to). */
static int acquired(int rc)
{
	return rc == 0 || rc == EOWNERDEAD;
}

/* After it: rc is the real call's answer. */
static int entered(struct sp_thread *t, int rc)
{
	if (!t)
		return rc;
	if (!acquired(rc)) {
		if (sp.placement == SP_PRE && !t->depth)
			clear(t);
		return rc;
	}
	bump(&t->locks);
	if (rc == EOWNERDEAD)
		bump(&t->owner_dead);
	if (sp.placement == SP_CS && !t->depth)
		request(t);
	if (++t->depth > t->max_depth)
		t->max_depth = t->depth;
	return rc;
}

static int left(int rc)
{
	struct sp_thread *t = self_state == 1 ? self : NULL;

	if (!t || rc)
		return rc;
	if (!t->depth) {
		bump(&t->unbalanced); /* taken before we saw it, or elsewhere */
		return rc;
	}
	bump(&t->unlocks);
	if (!--t->depth && sp.placement != SP_NONE)
		clear(t);
	return rc;
}

EXPORT int pthread_mutex_lock(pthread_mutex_t *m)
{
	resolve();
	struct sp_thread *t = enter();

	return entered(t, sp.mutex_lock(m));
}

EXPORT int pthread_mutex_trylock(pthread_mutex_t *m)
{
	resolve();
	struct sp_thread *t = enter();

	return entered(t, sp.mutex_trylock(m));
}

EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime)
{
	resolve();
	struct sp_thread *t = enter();

	return entered(t, sp.mutex_timedlock(m, abstime));
}

EXPORT int pthread_mutex_unlock(pthread_mutex_t *m)
{
	resolve();
	return left(sp.mutex_unlock(m));
}

EXPORT int pthread_spin_lock(pthread_spinlock_t *l)
{
	resolve();
	struct sp_thread *t = enter();

	return entered(t, sp.spin_lock(l));
}

EXPORT int pthread_spin_trylock(pthread_spinlock_t *l)
{
	resolve();
	struct sp_thread *t = enter();

	return entered(t, sp.spin_trylock(l));
}

EXPORT int pthread_spin_unlock(pthread_spinlock_t *l)
{
	resolve();
	return left(sp.spin_unlock(l));
}

/* The wait releases the mutex and sleeps: no request may stay set in a
 * sleep (the futex syscall would end a grant anyway), and the depth is the
 * same when the wait returns with the mutex taken again. */
static struct sp_thread *wait_enter(void)
{
	struct sp_thread *t = self_state == 1 ? self : me();

	if (!t)
		return NULL;
	bump(&t->cond_waits);
	if (t->depth && sp.placement != SP_NONE)
		clear(t);
	return t;
}

/* The wait takes the mutex back whatever it answers (ETIMEDOUT included,
 * pthread_cond_timedwait(3p); EOWNERDEAD when its owner died meanwhile),
 * or never let it go (EINVAL, EPERM: checked before it is released), but
 * for ENOTRECOVERABLE: released, and could not be taken back. */
static int wait_exit(struct sp_thread *t, int rc)
{
	if (!t)
		return rc;
	if (rc == ENOTRECOVERABLE && t->depth) {
		t->depth--;
		bump(&t->wait_lost);
	}
	if (t->depth && sp.placement != SP_NONE)
		request(t);
	return rc;
}

EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	resolve();
	struct sp_thread *t = wait_enter();

	return wait_exit(t, sp.cond_wait(c, m));
}

EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
				  const struct timespec *abstime)
{
	resolve();
	struct sp_thread *t = wait_enter();

	return wait_exit(t, sp.cond_timedwait(c, m, abstime));
}

EXPORT const _Atomic uint8_t *slicepreload_request(unsigned *depth)
{
	struct sp_thread *t = me();

	if (depth)
		*depth = t ? t->depth : 0;
	return t ? &t->rs->request : NULL;
}

static void set_counts(json_t *o)
{
	enum { NCOUNTS = 9 };
	uint64_t n[NCOUNTS] = { 0 };
	unsigned max_depth = 0;

	for (struct sp_thread *t = atomic_load(&sp.threads); t; t = t->next) {
		_Atomic uint64_t *c[NCOUNTS] = { &t->locks,	 &t->requests,	 &t->grants,
						 &t->yields,	 &t->cond_waits, &t->unbalanced,
						 &t->unlocks,	 &t->owner_dead, &t->wait_lost };

		for (int i = 0; i < NCOUNTS; i++)
			n[i] += atomic_load_explicit(c[i], memory_order_relaxed);
		if (t->max_depth > max_depth)
			max_depth = t->max_depth;
	}
	static const char *const names[NCOUNTS] = { "locks",	  "requests",	"grants",
						    "yields",	  "cond_waits", "unbalanced_unlocks",
						    "unlocks",	  "owner_dead", "wait_lost" };
	for (int i = 0; i < NCOUNTS; i++)
		json_object_set_new(o, names[i], json_integer((json_int_t)n[i]));
	json_object_set_new(o, "max_depth", json_integer(max_depth));
	json_object_set_new(o, "threads", json_integer(atomic_load(&sp.nthreads)));
	json_object_set_new(o, "threads_registered", json_integer(atomic_load(&sp.nregistered)));
}

/* Adds prev, the file as the run's processes that ended before this one
 * left it, to this process's counts in o: the sums, the largest depth and
 * time, every writer's pid, a refusal's status and reason. */
static void merge_stats(json_t *o, const json_t *prev)
{
	static const char *const sum[] = { "locks",	   "requests", "grants",	 "yields",
					   "cond_waits",   "unlocks",  "unbalanced_unlocks", "owner_dead",
					   "wait_lost",	   "threads",  "threads_registered" };
	static const char *const most[] = { "max_depth", "elapsed_ns" };
	json_t *pids = json_object_get(o, "pids");
	size_t i;
	json_t *v;

	for (i = 0; i < sizeof(sum) / sizeof(sum[0]); i++)
		json_object_set_new(o, sum[i], json_integer(json_integer_value(json_object_get(o, sum[i])) +
							    json_integer_value(json_object_get(prev, sum[i]))));
	for (i = 0; i < sizeof(most) / sizeof(most[0]); i++)
		if (json_integer_value(json_object_get(prev, most[i])) >
		    json_integer_value(json_object_get(o, most[i])))
			json_object_set(o, most[i], json_object_get(prev, most[i]));
	json_array_foreach(json_object_get(prev, "pids"), i, v)
		json_array_insert(pids, i, v);
	if (strcmp(json_string_value(json_object_get(prev, "status")), "ok")) {
		json_object_set(o, "status", json_object_get(prev, "status"));
		json_object_set(o, "reason", json_object_get(prev, "reason"));
	}
}

/* The stats file: every process image of the run (the one that read the
 * variable first, and each program a child of it executes: a wrapper such
 * as timeout(1) or sh -c and its program) adds its counts under a lock;
 * a forked child that does not execute keeps the parent's counts and
 * writes nothing.  Each write goes to a temp file renamed into place. */
static void write_stats(void)
{
	if (!sp.stats || getpid() != sp.pid)
		return;
	json_t *o = json_object();

	json_object_set_new(o, "schema", json_string(SLICEPRELOAD_SCHEMA));
	json_object_set_new(o, "status", json_string(sp.refused ? "unsupported" : "ok"));
	if (sp.refused)
		json_object_set_new(o, "reason", json_string(sp.reason));
	json_object_set_new(o, "placement", json_string(placement_names[sp.placement]));
	json_object_set_new(o, "dry", json_boolean(sp.dry));
	json_object_set_new(o, "pid", json_integer(sp.pid));
	json_object_set_new(o, "rseq_registration", json_string(slice_registration_mode()));
	if (sp.reg_reason[0])
		json_object_set_new(o, "rseq_reason", json_string(sp.reg_reason));
	json_object_set_new(o, "elapsed_ns", json_integer((json_int_t)(now_ns() - sp.t0_ns)));
	json_object_set_new(o, "run", json_string(sp.run));
	json_object_set_new(o, "pids", json_pack("[i]", (int)sp.pid));
	set_counts(o);
	size_t len = strlen(sp.stats) + 32;
	char *tmp = malloc(len);
	int lock = -1;

	if (tmp) {
		/* the file itself is replaced by each writer: the lock is
		 * beside it */
		snprintf(tmp, len, "%s.lock", sp.stats);
		if ((lock = open(tmp, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) >= 0)
			while (flock(lock, LOCK_EX) && errno == EINTR)
				;
		json_t *prev = json_load_file(sp.stats, 0, NULL);

		/* another run's file (the same path used again) is replaced */
		if (json_is_object(prev) && json_is_string(json_object_get(prev, "status")) &&
		    !strcmp(json_string_value(json_object_get(prev, "run")) ?: "", sp.run))
			merge_stats(o, prev);
		json_decref(prev);
		json_object_set_new(o, "processes", json_integer((json_int_t)json_array_size(
							     json_object_get(o, "pids"))));
		snprintf(tmp, len, "%s.tmp.%d", sp.stats, (int)sp.pid);
		if (json_dump_file(o, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) || rename(tmp, sp.stats)) {
			fprintf(stderr, "slicepreload: cannot write %s: %s\n", sp.stats,
				strerror(errno));
			unlink(tmp);
		}
		if (lock >= 0)
			close(lock);
		free(tmp);
	}
	json_decref(o);
}

static void refuse(const char *fmt, const char *a, const char *b)
{
	snprintf(sp.reason, sizeof(sp.reason), fmt, a, b);
	fprintf(stderr, "slicepreload: %s\n", sp.reason);
	sp.refused = 1;
	write_stats();
	_exit(2);
}

/* The stats file's path, and the run it belongs to: the first process
 * names it (SLICEBENCH_PRELOAD_STATS_RUN, its pid and start), and every
 * program executed under it inherits the name, so their counts add up
 * while a file an earlier run left is replaced. */
static void stats_take(void)
{
	const char *path = getenv("SLICEBENCH_PRELOAD_STATS");
	const char *run = getenv("SLICEBENCH_PRELOAD_STATS_RUN");

	if (!path || !*path)
		return;
	sp.stats = strdup(path);
	if (run && *run && strlen(run) < sizeof(sp.run)) {
		snprintf(sp.run, sizeof(sp.run), "%s", run);
		return;
	}
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(sp.run, sizeof(sp.run), "%d.%lld.%09ld", (int)sp.pid, (long long)ts.tv_sec,
		 ts.tv_nsec);
	setenv("SLICEBENCH_PRELOAD_STATS_RUN", sp.run, 1);
}

/* glibc passes main's arguments to constructors: the re-exec needs them. */
__attribute__((constructor)) static void sp_init(int argc, char **argv)
{
	const char *p = getenv("SLICEBENCH_PRELOAD_PLACEMENT");
	const char *d = getenv("SLICEBENCH_PRELOAD_DRY");

	(void)argc;
	sp.pid = getpid();
	sp.t0_ns = now_ns();
	stats_take();
	sp.placement = SP_CS;
	if (p && *p) {
		int i = 0;

		while (i < SP_COUNT && strcmp(p, placement_names[i]))
			i++;
		if (i == SP_COUNT)
			refuse("SLICEBENCH_PRELOAD_PLACEMENT: \"%s\" is not one of %s", p,
			       placement_list + 2);
		sp.placement = (enum sp_placement)i;
	}
	if (d && *d && strcmp(d, "0") && strcmp(d, "1"))
		refuse("SLICEBENCH_PRELOAD_DRY: \"%s\" is not 0 or 1%s", d, "");
	sp.dry = d && !strcmp(d, "1");
	/* glibc's 32-byte area keeps the kernel in legacy mode: start again
	 * with glibc's registration off, as the harness does (slice.c). */
	slice_reexec_if_needed(argv);
	if (sp.placement != SP_NONE && !sp.dry) {
		char why[200];

		if (slice_probe(why, sizeof(why)))
			refuse("the time-slice extension cannot work here: %s%s", why,
			       " (SLICEBENCH_PRELOAD_DRY=1 runs the control)");
	}
	resolve();
	pthread_once(&sp.key_once, make_key);
	if (self_state == 1)
		place(self);
}

__attribute__((destructor)) static void sp_fini(void)
{
	write_stats();
}
