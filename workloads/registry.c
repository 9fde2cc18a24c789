/* registry.c - every lock, every policy name and every named workload,
 * once.  Adding a lock: a file in workloads/locks/ and a line in vocab.h's SB_LOCKS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../harness/core/keys.h"
#include "../harness/core/policy.h"

#define WL_EXTERN(A, n, ...) extern const struct wl_lock wl_lock_##n;
#define WL_ENTRY(A, n, ...) &wl_lock_##n,
SB_LOCKS(WL_EXTERN, )
extern const struct workload_ops wl_primitives;
#ifdef SB_FAULTS
extern const struct wl_lock wl_lock_fault_crash, wl_lock_fault_hang;
#endif

const struct wl_lock *const wl_locks[] = {
	SB_LOCKS(WL_ENTRY, )
#ifdef SB_FAULTS
	&wl_lock_fault_crash, &wl_lock_fault_hang,
#endif
	NULL,
};

const char *const wl_policy_names[POL_COUNT] = { SB_POLICIES(SB_POL_NAME, ) };
const char *const wl_policy_help[POL_COUNT] = { SB_POLICIES(SB_POL_HELP, ) };

/* The suite's historic names, each a lock x policy x dry triple. */
static const struct workload_ops alias_table[] = {
	{ .name = "spin-tas", .lock = &wl_lock_tas, .policy = POL_NONE,
	  .desc = "test-and-test-and-set spinlock with pause and bounded exponential backoff" },
	{ .name = "spin-ticket", .lock = &wl_lock_ticket, .policy = POL_NONE,
	  .desc = "FIFO ticket spinlock with pause" },
	{ .name = "futex", .lock = &wl_lock_futex, .policy = POL_NONE,
	  .desc = "3-state futex mutex (CAS fast path, FUTEX_WAIT/FUTEX_WAKE when contended)" },
	{ .name = "adaptive", .lock = &wl_lock_adaptive, .policy = POL_NONE,
	  .desc = "spin-then-sleep mutex: bounded spin, then FUTEX_WAIT (spin_budget)" },
	{ .name = "pthread", .lock = &wl_lock_pthread, .policy = POL_NONE,
	  .desc = "glibc pthread_mutex_t, default type" },
	{ .name = "pthread-adaptive", .lock = &wl_lock_pthread_adaptive, .policy = POL_NONE,
	  .desc = "glibc pthread_mutex_t of type PTHREAD_MUTEX_ADAPTIVE_NP" },
	{ .name = "futex-pi", .lock = &wl_lock_futex_pi, .policy = POL_NONE,
	  .desc = "priority-inheritance futex (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI)" },
	{ .name = "slice-spin", .lock = &wl_lock_tas, .policy = POL_CS,
	  .desc = "spin-tas with the rseq time-slice extension requested around the critical "
		  "section" },
	{ .name = "slice-adaptive", .lock = &wl_lock_adaptive, .policy = POL_CS,
	  .desc = "adaptive spin-then-futex plus the rseq time-slice extension (the hybrid)" },
	{ .name = "slice-dry", .lock = &wl_lock_tas, .policy = POL_CS, .dry = 1,
	  .desc = "slice-spin's loop with the request going to an unregistered area: the "
		  "control for slice-spin (runs on any kernel, never granted)" },
	{ .name = "slice-adaptive-dry", .lock = &wl_lock_adaptive, .policy = POL_CS, .dry = 1,
	  .desc = "slice-adaptive's loop with the request going to an unregistered area: the "
		  "control for the hybrid (runs on any kernel, never granted)" },
	{ .name = "cpu-hog", .lock = &wl_lock_none, .policy = POL_NONE,
	  .desc = "busy loop of think_ns + cs_ns with no lock (the fair baseline hog)" },
	{ .name = "slice-hog", .lock = &wl_lock_none, .policy = POL_HOG,
	  .desc = "abuser: slice extension requested permanently, never yields, no lock" },
	{ .name = "slice-noyield", .lock = &wl_lock_none, .policy = POL_NOYIELD,
	  .desc = "abuser: requests the extension per op, ignores grants, no lock" },
	{ .name = "slice-test", .lock = &wl_lock_none, .policy = POL_CS,
	  .desc = "the kernel's rseq slice_test loop: request, cs_ns busy, clear, yield if "
		  "granted, no lock (run it with noise_sleep_ns for its noise thread)" },
	{ .name = "idle", .lock = &wl_lock_sleep, .policy = POL_NONE,
	  .desc = "no load: threads sleep 1 ms per op (baseline for the victim probe)" },
#ifdef SB_FAULTS
	{ .name = "fault-crash-in-cs", .lock = &wl_lock_fault_crash, .policy = POL_NONE,
	  .desc = "test only: spin-tas whose thread 0 raises SIGSEGV inside its critical section" },
	{ .name = "fault-hang-in-cs", .lock = &wl_lock_fault_hang, .policy = POL_NONE,
	  .desc = "test only: spin-tas whose thread 0 never leaves its critical section" },
#endif
};
#define NALIAS (sizeof(alias_table) / sizeof(alias_table[0]))

const struct workload_ops *wl_named(size_t i)
{
	return i < NALIAS ? &alias_table[i] : i == NALIAS ? &wl_primitives
							: wl_program_named(i - NALIAS - 1);
}

const struct wl_lock *wl_lock_find(const char *name)
{
	for (size_t i = 0; wl_locks[i]; i++)
		if (!strcmp(wl_locks[i]->name, name))
			return wl_locks[i];
	return NULL;
}

enum wl_policy wl_policy_find(const char *name)
{
	int p;

	for (p = 0; p < POL_COUNT; p++)
		if (!strcmp(wl_policy_names[p], name))
			break;
	return (enum wl_policy)p;
}

int wl_has_trylock(const struct wl_lock *l)
{
	return l->loop[POL_REARM][LOOP_SAMPLED] != NULL;
}

/* The canonical entries of triples without an alias, made on first use
 * (config loading is single-threaded). */
#define WL_MAX_LOCKS 32
static struct {
	struct workload_ops ops;
	char name[64];
} combo[WL_MAX_LOCKS][POL_COUNT][2];

const struct workload_ops *wl_resolve(const struct wl_lock *lock, int policy, int dry,
				      const char **why)
{
	size_t li;

	*why = NULL;
	if (policy == POL_REARM && !wl_has_trylock(lock)) {
		*why = "needs a lock with trylock";
		return NULL;
	}
	if (dry && policy == POL_NONE) {
		*why = "a dry control needs a policy that requests";
		return NULL;
	}
	for (size_t i = 0; i < NALIAS; i++)
		if (alias_table[i].lock == lock && alias_table[i].policy == policy &&
		    alias_table[i].dry == !!dry)
			return &alias_table[i];
	for (li = 0; wl_locks[li] && wl_locks[li] != lock; li++)
		;
	if (!wl_locks[li] || li >= WL_MAX_LOCKS) {
		*why = "not a registered lock";
		return NULL;
	}
	typeof(combo[0][0][0]) *c = &combo[li][policy][!!dry];

	if (!c->ops.lock) {
		snprintf(c->name, sizeof(c->name), "%s+%s%s", lock->name, wl_policy_names[policy],
			 dry ? "+dry" : "");
		c->ops.name = c->name;
		c->ops.desc = lock->desc;
		c->ops.lock = lock;
		c->ops.policy = policy;
		c->ops.dry = !!dry;
	}
	return &c->ops;
}

const struct workload_ops *wl_find(const char *name)
{
	const struct workload_ops *o;
	char buf[64], *pol, *dry;
	const char *why;

	for (size_t i = 0; (o = wl_named(i)); i++)
		if (!strcmp(o->name, name))
			return o;
	if (strlen(name) >= sizeof(buf))
		return NULL;
	strcpy(buf, name);
	if (!(pol = strchr(buf, '+')))
		return NULL;
	*pol++ = 0;
	if ((dry = strchr(pol, '+'))) {
		*dry++ = 0;
		if (strcmp(dry, "dry"))
			return NULL;
	}
	const struct wl_lock *l = wl_lock_find(buf);
	enum wl_policy p = wl_policy_find(pol);

	if (!l || p == POL_COUNT)
		return NULL;
	return wl_resolve(l, p, dry != NULL, &why);
}

const struct key_desc *wl_keys(const struct workload_ops *o)
{
	return o->lock ? o->lock->keys : o->keys;
}

int wl_point_key(const struct workload_ops *o, const char *k)
{
	return key_find(run_keys, k) || (o && o->run && key_find(o->keys, k));
}

int wl_needs_slice(const struct workload_ops *o)
{
	return o->lock && o->policy != POL_NONE && !o->dry;
}
